-- Client error reports (modules/clientreports): what pages and islands report through
-- POST /api/v1/public/client/{level}, grouped by fingerprint so identical reports are counted
-- rather than stored again; and the spec's request conventions (X-App-Name, X-App-Lang,
-- X-Viewport-Width, X-Viewport-Height, X-DPR, the native-app marker) on reports and events.

-- +goose Up
-- One row per distinct error of a panel: what it says (as first reported), how often it came
-- and when. `canvass errors top` reads this table and client_error_hours only.
CREATE TABLE client_errors (
    id             TEXT PRIMARY KEY,
    panel_id       TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    fingerprint    TEXT NOT NULL,
    level          TEXT NOT NULL,
    name           TEXT NOT NULL DEFAULT '',
    message        TEXT NOT NULL DEFAULT '',
    source         TEXT NOT NULL DEFAULT '',
    lineno         INTEGER NOT NULL DEFAULT 0,
    colno          INTEGER NOT NULL DEFAULT 0,
    stack          TEXT NOT NULL DEFAULT '',
    arguments      TEXT NOT NULL DEFAULT '',
    count          BIGINT NOT NULL DEFAULT 0,
    first_seen_at  TIMESTAMP NOT NULL,
    last_seen_at   TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX client_errors_fingerprint ON client_errors (panel_id, fingerprint);
CREATE INDEX client_errors_panel_seen ON client_errors (panel_id, last_seen_at);

-- Occurrences per error and hour: `errors top --since` sums these, so a window costs one
-- row per error and hour, however many reports came.
CREATE TABLE client_error_hours (
    error_id  TEXT NOT NULL REFERENCES client_errors (id) ON DELETE CASCADE,
    hour      TIMESTAMP NOT NULL,
    count     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (error_id, hour)
);
CREATE INDEX client_error_hours_hour ON client_error_hours (hour);

-- Samples: the first few reports of each error in each hour, with who and where (member,
-- request id, page, browser and the request conventions). Later ones in that hour are only
-- counted, so a loop in one browser cannot fill the table.
CREATE TABLE client_reports (
    id               TEXT PRIMARY KEY,
    error_id         TEXT NOT NULL REFERENCES client_errors (id) ON DELETE CASCADE,
    panel_id         TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    participant_id   TEXT NULL,
    request_id       TEXT NOT NULL DEFAULT '',
    level            TEXT NOT NULL,
    href             TEXT NOT NULL DEFAULT '',
    user_agent       TEXT NOT NULL DEFAULT '',
    app_name         TEXT NOT NULL DEFAULT '',
    app_lang         TEXT NOT NULL DEFAULT '',
    viewport_width   INTEGER NOT NULL DEFAULT 0,
    viewport_height  INTEGER NOT NULL DEFAULT 0,
    dpr              DOUBLE PRECISION NOT NULL DEFAULT 0,
    native_app       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL
);
CREATE INDEX client_reports_panel_created ON client_reports (panel_id, created_at);
CREATE INDEX client_reports_error ON client_reports (error_id, created_at);
CREATE INDEX client_reports_participant ON client_reports (participant_id);

-- Tracking events get the same request conventions (empty or 0 when the client did not say:
-- a tracking image sends no custom headers, a native app's call may).
ALTER TABLE events ADD COLUMN app_name TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN app_lang TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN viewport_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN viewport_height INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN dpr DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN native_app TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE events DROP COLUMN native_app;
ALTER TABLE events DROP COLUMN dpr;
ALTER TABLE events DROP COLUMN viewport_height;
ALTER TABLE events DROP COLUMN viewport_width;
ALTER TABLE events DROP COLUMN app_lang;
ALTER TABLE events DROP COLUMN app_name;
DROP TABLE client_reports;
DROP TABLE client_error_hours;
DROP TABLE client_errors;
