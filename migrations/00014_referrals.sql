-- Referrals, blades and affiliates (modules/referrals): each panel's referral rules, members'
-- invitations to friends and what became of them, the feed cards (blades) members dismissed,
-- partners' codes and the members they brought.

-- +goose Up
-- One row per panel that departs from the defaults (referrals on, no reward, eligible once the
-- welcome campaign is completed and the email validated, invitations expire after 30 days,
-- 10 invitations a day per member). reward_minor is paid to the referrer, in currency_code
-- (the panel's when it was set), once the friend reaches reward_when.
CREATE TABLE referral_settings (
    panel_id                 TEXT PRIMARY KEY REFERENCES panels (id) ON DELETE CASCADE,
    enabled                  BOOLEAN NOT NULL DEFAULT TRUE,
    reward_minor             BIGINT NOT NULL DEFAULT 0 CHECK (reward_minor >= 0),
    currency_code            TEXT NOT NULL,
    reward_when              TEXT NOT NULL DEFAULT 'welcome_completed' CHECK (reward_when IN ('welcome_completed', 'joined')),
    require_welcome          BOOLEAN NOT NULL DEFAULT TRUE,
    require_validated_email  BOOLEAN NOT NULL DEFAULT TRUE,
    expiry_days              INTEGER NOT NULL DEFAULT 30 CHECK (expiry_days BETWEEN 1 AND 365),
    daily_limit              INTEGER NOT NULL DEFAULT 10 CHECK (daily_limit BETWEEN 1 AND 100),
    updated_at               TIMESTAMP NOT NULL
);

-- A member's invitation of a friend; id is the :inviteId of the mailed /join/invite link. Its
-- state is read, never stored as such: accepted once a friend joined through it (invitee_id,
-- accepted_at); archived when the member archived it (archived_at) or, without a background
-- job, once last_sent_at is older than the panel's expiry; pending otherwise. email is the
-- friend's address as typed and email_key its normalised form (the self-referral rule);
-- sender_key is the SHA-256 of the referrer's normalised address and sender_device of their
-- browser's device cookie, kept to refuse a referrer joining through their own invitation.
-- Erasing a member blanks the friends' addresses, messages and names (EraseMember).
-- reward_minor and transaction_id are the reward paid (ledger key referral:<id>), rewarded_at
-- when; thanked_at is when the friend thanked the referrer (once).
CREATE TABLE referrals (
    id               TEXT PRIMARY KEY,
    panel_id         TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    referrer_id      TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    email            TEXT NOT NULL,
    email_key        TEXT NOT NULL,
    message          TEXT NOT NULL DEFAULT '',
    language_code    TEXT NOT NULL,
    sender_key       TEXT NOT NULL DEFAULT '',
    sender_device    TEXT NOT NULL DEFAULT '',
    sends            INTEGER NOT NULL DEFAULT 1 CHECK (sends >= 1),
    sent_at          TIMESTAMP NOT NULL,
    last_sent_at     TIMESTAMP NOT NULL,
    invitee_id       TEXT NULL REFERENCES participants (id) ON DELETE SET NULL,
    invitee_name     TEXT NOT NULL DEFAULT '',
    referrer_name    TEXT NOT NULL DEFAULT '',
    accepted_at      TIMESTAMP NULL,
    archived_at      TIMESTAMP NULL,
    archived_reason  TEXT NOT NULL DEFAULT '' CHECK (archived_reason IN ('', 'member', 'closed')),
    reward_minor     BIGINT NOT NULL DEFAULT 0 CHECK (reward_minor >= 0),
    rewarded_at      TIMESTAMP NULL,
    transaction_id   TEXT NULL REFERENCES ledger_entries (id) ON DELETE SET NULL,
    thanked_at       TIMESTAMP NULL,
    CHECK (accepted_at IS NULL OR archived_at IS NULL)
);
-- A member joins through one invitation at most (NULLs do not collide).
CREATE UNIQUE INDEX referrals_invitee ON referrals (invitee_id);
-- A member's invitations: pending ones by last send (lists, the daily limit, the waiting
-- blade), accepted ones by acceptance (the friend-joined blade), and by address (one
-- invitation per friend).
CREATE INDEX referrals_referrer_sent ON referrals (referrer_id, last_sent_at);
CREATE INDEX referrals_referrer_accepted ON referrals (referrer_id, accepted_at);
CREATE INDEX referrals_referrer_email ON referrals (referrer_id, email_key);

-- The feed cards a member dismissed, by blade id (verify-mobile, friend-joined.<referral id>, ...).
CREATE TABLE blade_dismissals (
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    blade_id        TEXT NOT NULL,
    dismissed_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (participant_id, blade_id)
);

-- Partners' codes, created by operators (canvass affiliates create). code is upper case and
-- unique in its panel; bonus_minor is paid to a member the code brings, once.
CREATE TABLE affiliates (
    id             TEXT PRIMARY KEY,
    panel_id       TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    code           TEXT NOT NULL,
    partner        TEXT NOT NULL CHECK (partner <> ''),
    bonus_minor    BIGINT NOT NULL DEFAULT 0 CHECK (bonus_minor >= 0),
    currency_code  TEXT NOT NULL,
    operator       TEXT NOT NULL DEFAULT '',
    created_at     TIMESTAMP NOT NULL,
    UNIQUE (panel_id, code)
);

-- The partner a member came through: one per member, for good (the primary key is what makes
-- attribution and its bonus happen once). via is how: joining with the code, or accepting it
-- as a member; transaction_id is the bonus's ledger entry (key affiliate:<affiliate id>).
CREATE TABLE affiliate_members (
    participant_id  TEXT PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    affiliate_id    TEXT NOT NULL REFERENCES affiliates (id) ON DELETE CASCADE,
    via             TEXT NOT NULL CHECK (via IN ('join', 'accept')),
    attributed_at   TIMESTAMP NOT NULL,
    transaction_id  TEXT NULL REFERENCES ledger_entries (id) ON DELETE SET NULL
);
CREATE INDEX affiliate_members_affiliate ON affiliate_members (affiliate_id, attributed_at);

-- +goose Down
DROP TABLE affiliate_members;
DROP TABLE affiliates;
DROP TABLE blade_dismissals;
DROP TABLE referrals;
DROP TABLE referral_settings;
