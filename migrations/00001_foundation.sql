-- Foundation: tenancy (instances, panels, domains, languages) and accounts (account holders,
-- participants, sessions, single-use tokens) plus the database-backed rate limiter.
-- Portable SQL: it runs unchanged on SQLite and PostgreSQL. Keys are UUID strings; times are UTC.

-- +goose Up
CREATE TABLE instances (
    id          TEXT PRIMARY KEY,
    code        TEXT NOT NULL UNIQUE,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

CREATE TABLE panels (
    id                TEXT PRIMARY KEY,
    instance_id       TEXT NOT NULL REFERENCES instances (id),
    key               TEXT NOT NULL UNIQUE,
    name              TEXT NOT NULL,
    currency_code     TEXT NOT NULL,
    app_settings      TEXT NOT NULL DEFAULT '{}',
    app_theme         TEXT NOT NULL DEFAULT '{}',
    login_page_url    TEXT NOT NULL DEFAULT '',
    logout_page_url   TEXT NOT NULL DEFAULT '',
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);
CREATE INDEX panels_instance_id ON panels (instance_id);

CREATE TABLE panel_languages (
    panel_id       TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    language_code  TEXT NOT NULL,
    is_default     BOOLEAN NOT NULL DEFAULT FALSE,
    position       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (panel_id, language_code)
);

CREATE TABLE domains (
    host           TEXT PRIMARY KEY,
    panel_id       TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    web_app_login  BOOLEAN NOT NULL DEFAULT TRUE,
    created_at     TIMESTAMP NOT NULL
);
CREATE INDEX domains_panel_id ON domains (panel_id);

CREATE TABLE account_holders (
    id                  TEXT PRIMARY KEY,
    panel_id            TEXT NOT NULL REFERENCES panels (id),
    email               TEXT NOT NULL,
    email_normalized    TEXT NOT NULL,
    password_hash       TEXT NOT NULL,
    username            TEXT NOT NULL DEFAULT '',
    first_name          TEXT NOT NULL DEFAULT '',
    last_name           TEXT NOT NULL DEFAULT '',
    language_code       TEXT NOT NULL DEFAULT '',
    status              TEXT NOT NULL DEFAULT 'active',
    accepted_terms_at   TIMESTAMP NULL,
    email_validated_at  TIMESTAMP NULL,
    created_at          TIMESTAMP NOT NULL,
    updated_at          TIMESTAMP NOT NULL,
    UNIQUE (panel_id, email_normalized)
);

CREATE TABLE participants (
    id                    TEXT PRIMARY KEY,
    account_holder_id     TEXT NOT NULL UNIQUE REFERENCES account_holders (id),
    panel_id              TEXT NOT NULL REFERENCES panels (id),
    metadata              TEXT NOT NULL DEFAULT '{}',
    is_eligible_to_refer  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at            TIMESTAMP NOT NULL
);
CREATE INDEX participants_panel_id ON participants (panel_id);

CREATE TABLE sessions (
    id              TEXT PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    created_at      TIMESTAMP NOT NULL,
    last_seen_at    TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL,
    user_agent      TEXT NOT NULL DEFAULT '',
    ip              TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_participant_id ON sessions (participant_id);

CREATE TABLE account_tokens (
    id                 TEXT PRIMARY KEY,
    token_hash         TEXT NOT NULL UNIQUE,
    account_holder_id  TEXT NOT NULL REFERENCES account_holders (id) ON DELETE CASCADE,
    purpose            TEXT NOT NULL,
    expires_at         TIMESTAMP NOT NULL,
    used_at            TIMESTAMP NULL,
    created_at         TIMESTAMP NOT NULL
);
CREATE INDEX account_tokens_account_holder_id ON account_tokens (account_holder_id);

CREATE TABLE rate_limits (
    key           TEXT PRIMARY KEY,
    window_start  TIMESTAMP NOT NULL,
    hits          INTEGER NOT NULL
);

-- +goose Down
DROP TABLE rate_limits;
DROP TABLE account_tokens;
DROP TABLE sessions;
DROP TABLE participants;
DROP TABLE account_holders;
DROP TABLE domains;
DROP TABLE panel_languages;
DROP TABLE panels;
DROP TABLE instances;
