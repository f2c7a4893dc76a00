-- Mobile verification (modules/mobile): each panel's rules, each member's number on file
-- and verified number, and the codes sent by SMS.

-- +goose Up
-- One row per panel that departs from the defaults (required, 24 hours of cooling-off after
-- a new number is verified, verify again after 180 days). default_country is an ISO 3166
-- alpha-2 code for numbers typed without their country code; empty derives it from the
-- panel's currency.
CREATE TABLE mobile_settings (
    panel_id              TEXT PRIMARY KEY REFERENCES panels (id) ON DELETE CASCADE,
    require_verification  BOOLEAN NOT NULL DEFAULT TRUE,
    cooling_off_hours     INTEGER NOT NULL DEFAULT 24 CHECK (cooling_off_hours >= 0),
    reverify_after_days   INTEGER NOT NULL DEFAULT 180 CHECK (reverify_after_days > 0),
    default_country       TEXT NOT NULL DEFAULT '',
    updated_at            TIMESTAMP NOT NULL
);

-- One row per member who gave a number. mobile_number is the number on file (E.164), the
-- spec's mobileNumber; verified_number is the last number the member proved they hold
-- (verifiedMobileNumber), verified_at when they last proved it (verifiedMobileNumberAt,
-- which the re-verification period counts from) and verified_since when they first proved
-- that same number (which the cooling-off period counts from, so re-verifying an old
-- number does not hold up redeeming again).
CREATE TABLE mobile_numbers (
    participant_id   TEXT PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
    panel_id         TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    mobile_number    TEXT NOT NULL DEFAULT '',
    country          TEXT NOT NULL DEFAULT '',
    verified_number  TEXT NULL,
    verified_at      TIMESTAMP NULL,
    verified_since   TIMESTAMP NULL,
    updated_at       TIMESTAMP NOT NULL
);
-- A number is verified by one member of a panel at most (anti-fraud); NULLs do not collide.
CREATE UNIQUE INDEX mobile_numbers_verified ON mobile_numbers (panel_id, verified_number);

-- Codes sent by SMS, stored only as an HMAC. A new code for a number replaces the unused
-- ones; used codes are kept a day so that a code sent again is told apart from a wrong one.
CREATE TABLE mobile_codes (
    id               TEXT PRIMARY KEY,
    participant_id   TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    phone            TEXT NOT NULL,
    code_hash        TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    provider_id      TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL,
    expires_at       TIMESTAMP NOT NULL,
    used_at          TIMESTAMP NULL
);
CREATE INDEX mobile_codes_member_phone ON mobile_codes (participant_id, phone, created_at);

-- +goose Down
DROP TABLE mobile_codes;
DROP TABLE mobile_numbers;
DROP TABLE mobile_settings;
