-- An operator-set ceiling per offer postback credit (issue 31, item 10): a panel's offers
-- provider may carry a ceiling (the tenant file's offers.credit_ceiling, in minor units of the
-- panel's currency when it was set); a postback credit above it is held for review in the
-- operator console instead of paid. No ceiling (NULL, the default) pays every credit at once.

-- +goose Up
ALTER TABLE offer_providers ADD COLUMN credit_ceiling_minor BIGINT NULL;
ALTER TABLE offer_providers ADD COLUMN credit_ceiling_currency TEXT NOT NULL DEFAULT '';

-- One hold per (provider, transaction): a provider's retry of a held postback finds it and
-- gets the same answer, and never holds twice. Approving pays the member once (the ledger
-- entry_id, and the offer_transactions outcome written in the same transaction); refusing
-- pays nothing and keeps who refused it and why. participant_id has no foreign key, as
-- offer_transactions has none: the record of money held stays when a member leaves.
CREATE TABLE offer_credit_holds (
    id              TEXT PRIMARY KEY,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    app_id          TEXT NOT NULL,
    transaction_id  TEXT NOT NULL,
    participant_id  TEXT NOT NULL,
    offer_id        TEXT NOT NULL DEFAULT '',
    offer_name      TEXT NOT NULL DEFAULT '',
    amount_minor    BIGINT NOT NULL CHECK (amount_minor > 0),
    currency_code   TEXT NOT NULL,
    ceiling_minor   BIGINT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('held', 'approved', 'refused')),
    response        TEXT NOT NULL,
    entry_id        TEXT NULL,
    resolved_by     TEXT NOT NULL DEFAULT '',
    reason          TEXT NOT NULL DEFAULT '',
    resolved_at     TIMESTAMP NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX offer_credit_holds_transaction ON offer_credit_holds (panel_id, app_id, transaction_id);
CREATE INDEX offer_credit_holds_panel_status ON offer_credit_holds (panel_id, status, created_at);

-- +goose Down
DROP TABLE offer_credit_holds;
ALTER TABLE offer_providers DROP COLUMN credit_ceiling_currency;
ALTER TABLE offer_providers DROP COLUMN credit_ceiling_minor;
