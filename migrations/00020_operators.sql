-- The operator console (modules/console): a tenant's staff, apart from members. Operators
-- sign in on the console host only; what they may do is a grant per (operator, panel, role).
-- Passwords are argon2id; session tokens and recovery codes are kept as SHA-256 hashes only.
-- console_audit is append-only: the console inserts rows and never updates or deletes one.

-- +goose Up
-- totp_secret is the enrolled TOTP secret, empty until the operator enrols.
CREATE TABLE operators (
    id               TEXT PRIMARY KEY,
    email            TEXT NOT NULL UNIQUE,
    password_hash    TEXT NOT NULL,
    totp_secret      TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL
);

CREATE TABLE operator_grants (
    operator_id  TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    panel_id     TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'finance', 'support')),
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (operator_id, panel_id, role)
);
CREATE INDEX operator_grants_panel ON operator_grants (panel_id);

-- stage: 'totp' after the password when TOTP is enrolled, 'enrol' when TOTP is required but
-- not enrolled yet, 'full' once signed in.
CREATE TABLE operator_sessions (
    token_hash           TEXT PRIMARY KEY,
    operator_id          TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    stage                TEXT NOT NULL CHECK (stage IN ('totp', 'enrol', 'full')),
    pending_totp_secret  TEXT NOT NULL DEFAULT '',
    created_at           TIMESTAMP NOT NULL,
    last_seen_at         TIMESTAMP NOT NULL,
    expires_at           TIMESTAMP NOT NULL
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

CREATE TABLE operator_recovery_codes (
    operator_id  TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    code_hash    TEXT NOT NULL,
    used_at      TIMESTAMP,
    PRIMARY KEY (operator_id, code_hash)
);

-- operator_id is '' for an action without a signed-in operator (the CLI); panel_id '' for one
-- outside any panel (login, logout). before_json and after_json are '' when there is no side.
-- id is a UUIDv7: ordered by time, so the log reads in the order it was written.
CREATE TABLE console_audit (
    id              TEXT PRIMARY KEY,
    at              TIMESTAMP NOT NULL,
    operator_id     TEXT NOT NULL,
    operator_email  TEXT NOT NULL,
    panel_id        TEXT NOT NULL,
    action          TEXT NOT NULL,
    target          TEXT NOT NULL,
    before_json     TEXT NOT NULL,
    after_json      TEXT NOT NULL
);
CREATE INDEX console_audit_panel ON console_audit (panel_id, id);
CREATE INDEX console_audit_operator ON console_audit (operator_id, id);

-- +goose Down
DROP TABLE console_audit;
DROP TABLE operator_recovery_codes;
DROP TABLE operator_sessions;
DROP TABLE operator_grants;
DROP TABLE operators;
