-- One TOTP code signs in once (issue 31, RFC 6238 §5.2): each operator keeps the last time
-- step a code was accepted for, and a code of that step or an earlier one is refused. The
-- enrolment's confirming code counts as accepted. 0: none yet.

-- +goose Up
ALTER TABLE operators ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE operators DROP COLUMN totp_last_step;
