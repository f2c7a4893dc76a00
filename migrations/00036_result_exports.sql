-- A campaign's large exports, prepared in the background (issue 34; modules/results): an
-- export of more responses than a download can stream before the server's write timeout is a
-- job of the queue (River), and its file is kept here, in the database, so that any process
-- can serve it and nothing lives on one machine's disk.
--
-- result_exports: one per export an operator (or an API token's operator, via_api) asked for:
-- the campaign, the format (csv, xlsx), the filter as the results' query string, the status
-- (queued, running, done, failed), rows done of rows total (counted when queued, the rows
-- written once done), the file's bytes, why it failed (error_code: failed, gone, filter), and
-- when it was asked for, started, finished and expires (24 hours after it finished; a sweep
-- deletes it then).
--
-- result_export_chunks: the file, in order of seq, about a megabyte a chunk, base64 text (the
-- same column on both dialects); deleted with its export.

-- +goose Up
CREATE TABLE result_exports (
    id            TEXT PRIMARY KEY,
    panel_id      TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    campaign_id   TEXT NOT NULL,
    format        TEXT NOT NULL,
    filter_query  TEXT NOT NULL DEFAULT '',
    operator_id   TEXT NOT NULL,
    via_api       BOOLEAN NOT NULL DEFAULT FALSE,
    status        TEXT NOT NULL,
    rows_done     BIGINT NOT NULL DEFAULT 0,
    rows_total    BIGINT NOT NULL DEFAULT 0,
    bytes         BIGINT NOT NULL DEFAULT 0,
    error_code    TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMP NOT NULL,
    started_at    TIMESTAMP,
    finished_at   TIMESTAMP,
    expires_at    TIMESTAMP
);
CREATE INDEX result_exports_campaign ON result_exports (panel_id, campaign_id, created_at);
CREATE INDEX result_exports_expiry ON result_exports (expires_at);

CREATE TABLE result_export_chunks (
    export_id  TEXT NOT NULL REFERENCES result_exports (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    data       TEXT NOT NULL,
    PRIMARY KEY (export_id, seq)
);

-- +goose Down
DROP TABLE result_export_chunks;
DROP INDEX result_exports_expiry;
DROP INDEX result_exports_campaign;
DROP TABLE result_exports;
