-- Social sign-in and captcha (modules/accounts): each panel's identity providers and captcha,
-- the provider identities linked to account holders (the profile's oauthConnections), and the
-- short-lived state of a sign-in in progress.

-- +goose Up
-- One row per provider a panel offers (google, facebook, twitter). Secrets are sealed with the
-- app secret and bound to the panel and provider. Empty endpoints mean the provider's own.
CREATE TABLE sign_in_providers (
    panel_id                TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    provider                TEXT NOT NULL,
    client_id               TEXT NOT NULL,
    client_secret_sealed    TEXT NOT NULL,
    issuer                  TEXT NOT NULL DEFAULT '',
    auth_url                TEXT NOT NULL DEFAULT '',
    token_url               TEXT NOT NULL DEFAULT '',
    api_url                 TEXT NOT NULL DEFAULT '',
    consumer_key            TEXT NOT NULL DEFAULT '',
    consumer_secret_sealed  TEXT NOT NULL DEFAULT '',
    position                INTEGER NOT NULL DEFAULT 0,
    updated_at              TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, provider)
);

-- A provider identity (its stable subject) belongs to one account holder of one panel: the
-- same Google account on two panels is two rows, and never signs in across them. An account
-- holder has at most one identity per provider.
CREATE TABLE oauth_connections (
    panel_id           TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    provider           TEXT NOT NULL,
    subject            TEXT NOT NULL,
    account_holder_id  TEXT NOT NULL REFERENCES account_holders (id) ON DELETE CASCADE,
    email              TEXT NOT NULL DEFAULT '',
    created_at         TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, provider, subject)
);
CREATE UNIQUE INDEX oauth_connections_holder ON oauth_connections (account_holder_id, provider);

-- A sign-in sent to a provider and not yet back: found by the hash of its state, spent on
-- return (so a replayed return, code or nonce finds nothing), and bound to the browser that
-- started it by the hash of a cookie. participant_id is set when a member connects a network.
CREATE TABLE sign_in_attempts (
    id              TEXT PRIMARY KEY,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    provider        TEXT NOT NULL,
    intent          TEXT NOT NULL,
    nonce           TEXT NOT NULL,
    verifier        TEXT NOT NULL,
    browser_hash    TEXT NOT NULL,
    participant_id  TEXT NULL REFERENCES participants (id) ON DELETE CASCADE,
    redirect        TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL
);
CREATE INDEX sign_in_attempts_expiry ON sign_in_attempts (expires_at);

-- A provider identity back from its provider that is not linked yet: its email matched an
-- account (linked only once that account's password is entered), or it needs an email to join.
-- Found by the hash of a cookie; spent when it is linked or joined.
CREATE TABLE sign_in_pending (
    id                 TEXT PRIMARY KEY,
    panel_id           TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    provider           TEXT NOT NULL,
    subject            TEXT NOT NULL,
    email              TEXT NOT NULL DEFAULT '',
    email_verified     BOOLEAN NOT NULL DEFAULT FALSE,
    name               TEXT NOT NULL DEFAULT '',
    account_holder_id  TEXT NULL REFERENCES account_holders (id) ON DELETE CASCADE,
    redirect           TEXT NOT NULL DEFAULT '',
    created_at         TIMESTAMP NOT NULL,
    expires_at         TIMESTAMP NOT NULL
);
CREATE INDEX sign_in_pending_expiry ON sign_in_pending (expires_at);

-- A panel's captcha: which provider, its keys (the secret sealed), and when it is asked for
-- (always, or after a number of failed logins or sign-ups from one IP).
CREATE TABLE captcha_settings (
    panel_id        TEXT PRIMARY KEY REFERENCES panels (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    site_key        TEXT NOT NULL,
    secret_sealed   TEXT NOT NULL,
    verify_url      TEXT NOT NULL DEFAULT '',
    min_score       DOUBLE PRECISION NOT NULL DEFAULT 0,
    mode            TEXT NOT NULL,
    after_failures  INTEGER NOT NULL DEFAULT 3 CHECK (after_failures > 0),
    updated_at      TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE captcha_settings;
DROP TABLE sign_in_pending;
DROP TABLE sign_in_attempts;
DROP TABLE oauth_connections;
DROP TABLE sign_in_providers;
