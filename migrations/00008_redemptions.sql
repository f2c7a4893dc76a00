-- Redemptions (modules/redemptions): each panel's redemption options, members' payout
-- details (sealed), their redemptions and every change of a redemption's status.

-- +goose Up
-- A panel's ways to redeem (the spec's redemptions/settings list). id is the option's stable
-- string (paypal, bank, amazon-voucher), unique within the panel; names and descriptions are
-- JSON objects of language code to text. Amounts are minor units of the panel's currency: a
-- member redeems at least minimum_minor, and fee_minor (which may be 0) is kept from what is
-- paid out, so the minimum must exceed the fee. Options are never deleted (redemptions refer
-- to them): an operator disables one instead.
CREATE TABLE redemption_options (
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    id              TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('paypal', 'bank', 'voucher')),
    names           TEXT NOT NULL,
    descriptions    TEXT NOT NULL,
    minimum_minor   BIGINT NOT NULL CHECK (minimum_minor > 0),
    fee_minor       BIGINT NOT NULL DEFAULT 0 CHECK (fee_minor >= 0),
    enabled         BOOLEAN NOT NULL DEFAULT TRUE,
    position        INTEGER NOT NULL DEFAULT 0,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, id),
    CHECK (minimum_minor > fee_minor)
);

-- A member's payout details, one row per kind (paypal, bank). sealed is AES-256-GCM under a
-- key derived from the app secret, bound to the member and the kind, so a database dump alone
-- reveals no email address or account number and a row copied to another member won't open.
CREATE TABLE payout_details (
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('paypal', 'bank')),
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    sealed          TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (participant_id, kind)
);

-- A member's redemption: recorded with its ledger debit in one transaction. amount_minor is
-- debited from the balance, fee_minor kept, net_minor paid out. destination_masked is what
-- the member may see of where the money goes (JSON); destination_sealed is the whole
-- destination as of the request, for operators, sealed like payout_details. The
-- Idempotency-Key is unique per member; request_hash tells a replay from a reuse of the key.
-- entry_id is the debit, refund_entry_id the credit of a rejection.
CREATE TABLE redemptions (
    id                  TEXT PRIMARY KEY,
    panel_id            TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    participant_id      TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    option_id           TEXT NOT NULL,
    kind                TEXT NOT NULL CHECK (kind IN ('paypal', 'bank', 'voucher')),
    status              TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'paid', 'rejected')),
    amount_minor        BIGINT NOT NULL CHECK (amount_minor > 0),
    fee_minor           BIGINT NOT NULL CHECK (fee_minor >= 0),
    net_minor           BIGINT NOT NULL CHECK (net_minor > 0),
    currency_code       TEXT NOT NULL,
    destination_masked  TEXT NOT NULL,
    destination_sealed  TEXT NOT NULL,
    idempotency_key     TEXT NOT NULL,
    request_hash        TEXT NOT NULL,
    entry_id            TEXT NOT NULL,
    refund_entry_id     TEXT NULL,
    created_at          TIMESTAMP NOT NULL,
    updated_at          TIMESTAMP NOT NULL,
    UNIQUE (participant_id, idempotency_key),
    FOREIGN KEY (panel_id, option_id) REFERENCES redemption_options (panel_id, id),
    CHECK (amount_minor = fee_minor + net_minor)
);
-- A member's history, newest first; the operators' queue by panel and status.
CREATE INDEX redemptions_member ON redemptions (participant_id, created_at);
CREATE INDEX redemptions_queue ON redemptions (panel_id, status, created_at);

-- Every change of a redemption's status, never updated: the request itself (from_status
-- empty, operator "member") and each operator's approval, rejection or payment, with the
-- reason they gave.
CREATE TABLE redemption_events (
    id              TEXT PRIMARY KEY,
    redemption_id   TEXT NOT NULL REFERENCES redemptions (id) ON DELETE CASCADE,
    from_status     TEXT NOT NULL,
    to_status       TEXT NOT NULL,
    operator        TEXT NOT NULL,
    reason          TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX redemption_events_redemption ON redemption_events (redemption_id, created_at);

-- +goose Down
DROP TABLE redemption_events;
DROP TABLE redemptions;
DROP TABLE payout_details;
DROP TABLE redemption_options;
