-- Panel assets (modules/tenancy, issue 21 part 2): the logo, favicon and loader icon an owner
-- uploads in the console, kept in the database so every process serves them without shared
-- disks. name is content-addressed (<kind>-<sha-256 prefix>.<ext>), so a new upload is a new
-- address and the old one may be cached for good; data is the file, base64-encoded, which
-- both SQLite and PostgreSQL keep as text. The theme's logo_url and the like point at
-- /panel-assets/<name> on the panel's own domains.

-- +goose Up
CREATE TABLE panel_assets (
    panel_id      TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('logo', 'favicon', 'loader')),
    content_type  TEXT NOT NULL,
    size_bytes    BIGINT NOT NULL CHECK (size_bytes > 0),
    data          TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, name)
);

-- +goose Down
DROP TABLE panel_assets;
