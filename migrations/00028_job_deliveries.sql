-- The background jobs' sent-markers (issue 22 part 1): one row per event whose mail or text
-- message went out, written in the transaction that completes the job (modules/jobs). A job
-- that runs again for the same event (an operator's retry, a second insert after River's own
-- record of the first is gone) finds the row and sends nothing.
--
-- And the indexes the periodic clean-up reads by: expired sessions and tokens, and login
-- counters whose window has passed.

-- +goose Up
CREATE TABLE job_deliveries (
    event_key    TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    job_id       BIGINT NOT NULL,
    provider_id  TEXT NOT NULL DEFAULT '',
    sent_at      TIMESTAMP NOT NULL
);
CREATE INDEX job_deliveries_sent_at ON job_deliveries (sent_at);
CREATE INDEX sessions_expires_at ON sessions (expires_at);
CREATE INDEX account_tokens_expires_at ON account_tokens (expires_at);
CREATE INDEX rate_limits_window_start ON rate_limits (window_start);

-- +goose Down
DROP INDEX rate_limits_window_start;
DROP INDEX account_tokens_expires_at;
DROP INDEX sessions_expires_at;
DROP INDEX job_deliveries_sent_at;
DROP TABLE job_deliveries;
