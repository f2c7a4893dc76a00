-- Postcodes: the places each panel's location questions offer, imported per panel
-- (`canvass postcodes import`) and searched by info/postcode-lookup.

-- +goose Up
-- id is the importer's stable id (what a location answer stores); postcode is as written;
-- normalized is the postcode upper-cased without spaces, the form typed text is compared
-- in; words is the label's words lower-cased, each after a space, for word-prefix search.
CREATE TABLE postcodes (
    panel_id    TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    postcode    TEXT NOT NULL,
    normalized  TEXT NOT NULL,
    label       TEXT NOT NULL,
    locality    TEXT NOT NULL DEFAULT '',
    region      TEXT NOT NULL DEFAULT '',
    words       TEXT NOT NULL DEFAULT '',
    updated_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (panel_id, id)
);
-- Prefix search, exact lookup and the list, all within one panel and in postcode order.
CREATE INDEX postcodes_normalized ON postcodes (panel_id, normalized);

-- +goose Down
DROP TABLE postcodes;
