-- Operator API tokens (modules/console, issue 21 part 6): the console's JSON API
-- (/console/api/...) is called with a bearer token an operator creates and revokes in the
-- console. Only the token's SHA-256 is kept. scopes is the space-separated list of console
-- actions the token may do; panel_id '' means every panel its operator holds a role on. What a
-- call may do is the intersection of the token's scopes and the operator's roles at that time.

-- +goose Up
CREATE TABLE operator_api_tokens (
    id            TEXT PRIMARY KEY,
    operator_id   TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    token_hash    TEXT NOT NULL UNIQUE,
    scopes        TEXT NOT NULL,
    panel_id      TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMP NOT NULL,
    expires_at    TIMESTAMP,
    last_used_at  TIMESTAMP,
    revoked_at    TIMESTAMP
);
CREATE INDEX operator_api_tokens_operator ON operator_api_tokens (operator_id, created_at);

-- +goose Down
DROP TABLE operator_api_tokens;
