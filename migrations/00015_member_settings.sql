-- The member's settings, completed (modules/accounts): usernames unique per panel, the postal
-- address, profile pictures, which bulk mails a member receives, and the record an account
-- leaves when it is closed or moves to another panel of its instance.

-- +goose Up
-- A username is unique within its panel whatever its case. Usernames saved before this rule
-- could repeat: the earliest account keeps one, later ones lose it (the member picks again).
UPDATE account_holders SET username = ''
WHERE username <> '' AND EXISTS (
    SELECT 1 FROM account_holders o
    WHERE o.panel_id = account_holders.panel_id AND lower(o.username) = lower(account_holders.username)
      AND (o.created_at < account_holders.created_at OR (o.created_at = account_holders.created_at AND o.id < account_holders.id))
);
-- lower() is ASCII on SQLite and Unicode on PostgreSQL; the username rule allows ASCII only.
CREATE UNIQUE INDEX account_holders_username ON account_holders (panel_id, lower(username)) WHERE username <> '';

-- One postal address per member. postcode_id is the panel's postcode (modules/postcodes) the
-- postcode was found as, when the panel has a list; empty otherwise.
CREATE TABLE postal_addresses (
    participant_id  TEXT PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
    panel_id        TEXT NOT NULL REFERENCES panels (id),
    line1           TEXT NOT NULL,
    line2           TEXT NOT NULL DEFAULT '',
    city            TEXT NOT NULL,
    region          TEXT NOT NULL DEFAULT '',
    postcode        TEXT NOT NULL,
    postcode_id     TEXT NOT NULL DEFAULT '',
    country         TEXT NOT NULL DEFAULT '',
    updated_at      TIMESTAMP NOT NULL
);

-- Profile pictures: pic_key is the SHA-256 of the re-encoded image (its stored name, so a URL
-- never changes meaning and may be cached for good). main is the one the top bar shows.
CREATE TABLE profile_pics (
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    pic_key         TEXT NOT NULL,
    panel_id        TEXT NOT NULL REFERENCES panels (id),
    content_type    TEXT NOT NULL,
    width           INTEGER NOT NULL,
    height          INTEGER NOT NULL,
    bytes           INTEGER NOT NULL,
    main            BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (participant_id, pic_key)
);
CREATE UNIQUE INDEX profile_pics_main ON profile_pics (participant_id) WHERE main;
CREATE INDEX profile_pics_panel_key ON profile_pics (panel_id, pic_key);

-- Which bulk mails a member receives; a member without a row receives them all.
CREATE TABLE mail_subscriptions (
    participant_id      TEXT PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
    survey_invitations  BOOLEAN NOT NULL DEFAULT TRUE,
    newsletters         BOOLEAN NOT NULL DEFAULT TRUE,
    reminders           BOOLEAN NOT NULL DEFAULT TRUE,
    updated_at          TIMESTAMP NOT NULL
);

-- What is left of a closed account besides its anonymised rows and its ledger: why it closed,
-- the balance forfeited (or moved), and, after a change of panel, the membership it became.
CREATE TABLE account_closures (
    participant_id   TEXT PRIMARY KEY REFERENCES participants (id),
    panel_id         TEXT NOT NULL REFERENCES panels (id),
    reason           TEXT NOT NULL,
    balance_minor    BIGINT NOT NULL DEFAULT 0,
    currency_code    TEXT NOT NULL,
    moved_to         TEXT NULL REFERENCES participants (id),
    closed_at        TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE account_closures;
DROP TABLE mail_subscriptions;
DROP TABLE profile_pics;
DROP TABLE postal_addresses;
DROP INDEX account_holders_username;
