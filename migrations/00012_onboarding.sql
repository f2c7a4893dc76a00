-- Onboarding before membership (modules/onboarding): which campaigns are onboarding campaigns,
-- the public id of a provider identity waiting for onboarding, and each onboarding in progress.

-- +goose Up
-- Onboarding campaigns are answered before membership and listed in no feed; completing the
-- final one ends onboarding.
ALTER TABLE campaigns ADD COLUMN is_onboarding BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE campaigns ADD COLUMN is_final_onboarding BOOLEAN NOT NULL DEFAULT FALSE;

-- A provider identity that enters onboarding gets a public id (the spec's userId, in the
-- /onboarding address); its secret stays the pending cookie's.
ALTER TABLE sign_in_pending ADD COLUMN user_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sign_in_pending ADD COLUMN onboarding BOOLEAN NOT NULL DEFAULT FALSE;

-- One onboarding in progress, found by the hash of its cookie. It is a provider identity's
-- (provider and user_id; participant_id once completion made the member) or a member's
-- (participant_id from the start: the spec's userProfile). The answers are kept here, not in
-- participations, until completion records them as the member's. email is the member's, once
-- completed; version makes two concurrent answers retry rather than lose one.
CREATE TABLE onboarding_states (
    id                   TEXT PRIMARY KEY,
    panel_id             TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    provider             TEXT NOT NULL DEFAULT '',
    user_id              TEXT NOT NULL DEFAULT '',
    participant_id       TEXT NULL REFERENCES participants (id) ON DELETE CASCADE,
    language_code        TEXT NOT NULL,
    redirect             TEXT NOT NULL DEFAULT '',
    completed_campaigns  TEXT NOT NULL DEFAULT '[]',
    answers              TEXT NOT NULL DEFAULT '[]',
    email                TEXT NOT NULL DEFAULT '',
    version              INTEGER NOT NULL DEFAULT 0,
    completed_at         TIMESTAMP NULL,
    created_at           TIMESTAMP NOT NULL,
    updated_at           TIMESTAMP NOT NULL,
    expires_at           TIMESTAMP NOT NULL
);
CREATE INDEX onboarding_states_expiry ON onboarding_states (expires_at);
CREATE INDEX onboarding_states_participant ON onboarding_states (participant_id);

-- +goose Down
DROP TABLE onboarding_states;
ALTER TABLE sign_in_pending DROP COLUMN onboarding;
ALTER TABLE sign_in_pending DROP COLUMN user_id;
ALTER TABLE campaigns DROP COLUMN is_final_onboarding;
ALTER TABLE campaigns DROP COLUMN is_onboarding;
