-- Verification-code texts become background jobs (issue 22 part 1): each code row says what
-- became of its text message, set by the job that sends it. queued: the job has not sent it
-- yet; sent: the SMS provider took it; failed: it never will (the provider refused the number,
-- or every attempt failed before the code expired), shown on the member's mobile settings page
-- so they can ask for a new code. Codes stored before this change were sent in their request.

-- +goose Up
ALTER TABLE mobile_codes ADD COLUMN sms_status TEXT NOT NULL DEFAULT 'sent';

-- +goose Down
ALTER TABLE mobile_codes DROP COLUMN sms_status;
