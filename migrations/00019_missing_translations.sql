-- Missing translations (modules/tenancy): message keys a member's language lacks, reported by
-- islands (POST /api/v1/translations/add/{ns}/{lng}) and by the server's own translator, one
-- row per panel, language and key, so translators see what to fill in and how often it shows.
-- fallback is the text shown instead as the client had it ('' from the server, whose fallback
-- is the English message); source is where it was last seen missing: an island or a page.

-- +goose Up
CREATE TABLE missing_translations (
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    language_code   TEXT NOT NULL,
    message_key     TEXT NOT NULL,
    fallback        TEXT NOT NULL DEFAULT '',
    source          TEXT NOT NULL CHECK (source IN ('client', 'server')),
    seen_count      BIGINT NOT NULL DEFAULT 1 CHECK (seen_count > 0),
    first_seen_at   TIMESTAMP NOT NULL,
    last_seen_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, language_code, message_key)
);
-- `canvass translations missing --lang xx` and export read one language across panels.
CREATE INDEX missing_translations_language ON missing_translations (language_code, last_seen_at);

-- +goose Down
DROP TABLE missing_translations;
