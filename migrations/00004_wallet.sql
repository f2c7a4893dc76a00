-- The wallet: each member's append-only ledger, the cached balance it sums to, the months
-- the member has entries in, and members' reports of wrong transactions.

-- +goose Up
-- One row per member: the cached balance (the sum of the member's entries, reconciled in
-- tests and by `canvass ledger reconcile`) and the entry counter that numbers entries.
-- Every money movement locks this row first, so a debit checks and writes the balance in
-- one transaction and a member's entries are numbered without gaps. The payment
-- notification shows the credits numbered above seen_seq.
CREATE TABLE wallets (
    participant_id  TEXT PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    currency_code   TEXT NOT NULL,
    balance_minor   BIGINT NOT NULL DEFAULT 0 CHECK (balance_minor >= 0),
    entry_count     BIGINT NOT NULL DEFAULT 0,
    seen_seq        BIGINT NOT NULL DEFAULT 0,
    updated_at      TIMESTAMP NOT NULL
);

-- Entries are never updated or deleted. id is the spec's transactionUuid; seq numbers a
-- member's entries 1, 2, ...; title is what the member reads, as of the movement; reason
-- and operator are an operator's (manual entries); natural_key (campaign:<uuid>,
-- redeem:<key>) makes a movement happen once per member.
CREATE TABLE ledger_entries (
    id              TEXT PRIMARY KEY,
    participant_id  TEXT NOT NULL REFERENCES wallets (participant_id) ON DELETE CASCADE,
    seq             BIGINT NOT NULL,
    panel_id        TEXT NOT NULL,
    amount_minor    BIGINT NOT NULL CHECK (amount_minor <> 0),
    currency_code   TEXT NOT NULL,
    balance_after   BIGINT NOT NULL CHECK (balance_after >= 0),
    origin          TEXT NOT NULL CHECK (origin IN ('campaign', 'redeem', 'manual')),
    competition     BOOLEAN NOT NULL DEFAULT FALSE,
    campaign_id     TEXT NULL,
    redemption_id   TEXT NULL,
    title           TEXT NOT NULL DEFAULT '',
    reason          TEXT NOT NULL DEFAULT '',
    operator        TEXT NOT NULL DEFAULT '',
    natural_key     TEXT NULL,
    created_at      TIMESTAMP NOT NULL,
    UNIQUE (participant_id, seq),
    UNIQUE (participant_id, natural_key)
);
-- Date ranges (a month, after/before) of one member.
CREATE INDEX ledger_entries_member_time ON ledger_entries (participant_id, created_at);

-- The months a member has entries in, by kind, kept with every entry (the month list would
-- otherwise sum a member's whole ledger on every visit).
CREATE TABLE ledger_months (
    participant_id  TEXT NOT NULL REFERENCES wallets (participant_id) ON DELETE CASCADE,
    year            INTEGER NOT NULL,
    month           INTEGER NOT NULL,
    entries         INTEGER NOT NULL DEFAULT 0,
    competitions    INTEGER NOT NULL DEFAULT 0,
    redemptions     INTEGER NOT NULL DEFAULT 0,
    credited_minor  BIGINT NOT NULL DEFAULT 0,
    debited_minor   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (participant_id, year, month)
);

CREATE TABLE transaction_reports (
    id               TEXT PRIMARY KEY,
    participant_id   TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    transaction_id   TEXT NOT NULL REFERENCES ledger_entries (id) ON DELETE CASCADE,
    campaign_id      TEXT NULL,
    reason_code      TEXT NOT NULL,
    reason_text      TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL
);
CREATE INDEX transaction_reports_member ON transaction_reports (participant_id, created_at);

-- +goose Down
DROP TABLE transaction_reports;
DROP TABLE ledger_months;
DROP TABLE ledger_entries;
DROP TABLE wallets;
