-- Campaigns: the catalogue (authored definitions plus the columns the feed filters on),
-- quota counters, each member's participation (seen, hidden, started, finished) and
-- broken-campaign reports; and tracked client events (END_OF_FEED_REACHED, app load).

-- +goose Up
CREATE TABLE campaigns (
    id                  TEXT PRIMARY KEY,
    panel_id            TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    type                TEXT NOT NULL,
    default_language    TEXT NOT NULL,
    names               TEXT NOT NULL DEFAULT '{}',
    descriptions        TEXT NOT NULL DEFAULT '{}',
    reward_minor        BIGINT NOT NULL,
    currency_code       TEXT NOT NULL,
    estimated_minutes   INTEGER NOT NULL,
    question_count      INTEGER NOT NULL,
    is_welcome          BOOLEAN NOT NULL DEFAULT FALSE,
    is_competition      BOOLEAN NOT NULL DEFAULT FALSE,
    priority            INTEGER NOT NULL DEFAULT 0,
    opens_at            TIMESTAMP NULL,
    closes_at           TIMESTAMP NULL,
    published_at        TIMESTAMP NOT NULL,
    audience_languages  TEXT NOT NULL DEFAULT '',
    profile_targeting   TEXT NOT NULL DEFAULT '[]',
    quota_full          BOOLEAN NOT NULL DEFAULT FALSE,
    full_audiences      TEXT NOT NULL DEFAULT '[]',
    survey_theme_guid   TEXT NOT NULL DEFAULT '',
    definition          TEXT NOT NULL,
    created_at          TIMESTAMP NOT NULL,
    updated_at          TIMESTAMP NOT NULL
);
-- The feed: one panel's campaigns in feed order.
CREATE INDEX campaigns_feed ON campaigns (panel_id, is_welcome, priority, published_at, id);

CREATE TABLE campaign_quotas (
    campaign_id  TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    quota_id     TEXT NOT NULL,
    limit_count  INTEGER NOT NULL,
    completes    INTEGER NOT NULL DEFAULT 0,
    conditions   TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (campaign_id, quota_id)
);

CREATE TABLE participations (
    id              TEXT PRIMARY KEY,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    campaign_id     TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    status          TEXT NOT NULL,
    seen_at         TIMESTAMP NULL,
    hidden_at       TIMESTAMP NULL,
    started_at      TIMESTAMP NULL,
    finished_at     TIMESTAMP NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    UNIQUE (participant_id, campaign_id)
);
-- The member's participations newest first.
CREATE INDEX participations_member ON participations (participant_id, updated_at);

CREATE TABLE campaign_reports (
    id              TEXT PRIMARY KEY,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    campaign_id     TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    reason_code     TEXT NOT NULL,
    reason_text     TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX campaign_reports_member ON campaign_reports (participant_id, created_at);

CREATE TABLE events (
    id              TEXT PRIMARY KEY,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    participant_id  TEXT NULL,
    name            TEXT NOT NULL,
    data            TEXT NOT NULL DEFAULT '{}',
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX events_panel_name ON events (panel_id, name, created_at);

-- +goose Down
DROP TABLE events;
DROP TABLE campaign_reports;
DROP TABLE participations;
DROP TABLE campaign_quotas;
DROP TABLE campaigns;
