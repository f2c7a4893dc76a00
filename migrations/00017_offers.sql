-- Offers and games (modules/offers): each panel's offers provider, each member's sub-id at it,
-- the member's offer rows, every postback received and the first outcome of each, and members'
-- "I completed it but wasn't credited" reports.

-- +goose Up
-- One row per panel with an offers provider. The API key and the postback secret are sealed
-- (AES-GCM bound to the panel), like payout details and sign-in secrets.
CREATE TABLE offer_providers (
    panel_id                TEXT PRIMARY KEY REFERENCES panels (id) ON DELETE CASCADE,
    base_url                TEXT NOT NULL,
    app_id                  TEXT NOT NULL,
    api_key_sealed          TEXT NOT NULL DEFAULT '',
    postback_secret_sealed  TEXT NOT NULL,
    updated_at              TIMESTAMP NOT NULL
);

-- The member's sub-id: the opaque id the provider knows them by (the profile's
-- trackingIds.hasOffersId). Random, so it says nothing of the member or the panel.
CREATE TABLE offer_members (
    participant_id  TEXT PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    sub_id          TEXT NOT NULL UNIQUE,
    created_at      TIMESTAMP NOT NULL
);

-- The member's offers (v3 offers_and_games/paged): pending from the moment they start one,
-- credited or reversed as the provider's postbacks say. transaction_id is the provider's,
-- once a postback names it; entry_id and reversal_id are the ledger entries.
CREATE TABLE offer_rows (
    id              TEXT PRIMARY KEY,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    offer_id        TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('offer', 'game')),
    name            TEXT NOT NULL,
    reward_minor    BIGINT NOT NULL DEFAULT 0,
    currency_code   TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'credited', 'reversed')),
    click_id        TEXT NOT NULL DEFAULT '',
    transaction_id  TEXT NULL,
    entry_id        TEXT NULL,
    reversal_id     TEXT NULL,
    started_at      TIMESTAMP NULL,
    credited_at     TIMESTAMP NULL,
    reversed_at     TIMESTAMP NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE INDEX offer_rows_member ON offer_rows (participant_id, updated_at);
CREATE INDEX offer_rows_member_offer ON offer_rows (participant_id, offer_id, status);
CREATE UNIQUE INDEX offer_rows_transaction ON offer_rows (panel_id, transaction_id);

-- Every postback received, accepted or refused, with the reason: the operator's record of
-- what the provider said and what Canvass did.
CREATE TABLE offer_postbacks (
    id              TEXT PRIMARY KEY,
    panel_id        TEXT NULL,
    app_id          TEXT NOT NULL DEFAULT '',
    transaction_id  TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT '',
    sub_id          TEXT NOT NULL DEFAULT '',
    amount          TEXT NOT NULL DEFAULT '',
    source_ip       TEXT NOT NULL DEFAULT '',
    query           TEXT NOT NULL DEFAULT '',
    accepted        BOOLEAN NOT NULL,
    replay          BOOLEAN NOT NULL DEFAULT FALSE,
    reason          TEXT NOT NULL DEFAULT '',
    http_status     INTEGER NOT NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX offer_postbacks_panel_time ON offer_postbacks (panel_id, created_at);

-- The first accepted outcome of each (provider, transaction, status): providers retry until
-- they get a 2xx, so a replay finds its row here and gets the same answer, and never moves
-- money twice. The provider is the panel's app at its offers provider.
CREATE TABLE offer_transactions (
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    app_id          TEXT NOT NULL,
    transaction_id  TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('credited', 'reversed')),
    participant_id  TEXT NOT NULL,
    row_id          TEXT NOT NULL,
    entry_id        TEXT NOT NULL,
    response        TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, app_id, transaction_id, status)
);

-- Members' reports of an offer completed but not credited, and what the provider answered.
CREATE TABLE offer_issues (
    id              TEXT PRIMARY KEY,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    row_id          TEXT NULL,
    offer_id        TEXT NOT NULL,
    click_id        TEXT NOT NULL DEFAULT '',
    message         TEXT NOT NULL,
    ticket_id       TEXT NOT NULL DEFAULT '',
    forward_error   TEXT NOT NULL DEFAULT '',
    forwarded_at    TIMESTAMP NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX offer_issues_member ON offer_issues (participant_id, created_at);

-- +goose Down
DROP TABLE offer_issues;
DROP TABLE offer_transactions;
DROP TABLE offer_postbacks;
DROP TABLE offer_rows;
DROP TABLE offer_members;
DROP TABLE offer_providers;
