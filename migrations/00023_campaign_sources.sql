-- The console's campaign editor (issue 21 part 3): the text an author wrote for each campaign,
-- kept beside the decoded definition so the editor shows it as written (comments, order,
-- YAML or JSON). file_name's extension (.yaml, .yml, .json) says the format. A campaign
-- imported without its text (the CLI before this, the demo) has no row: the editor then
-- shows its definition written out as YAML.

-- +goose Up
CREATE TABLE campaign_sources (
    campaign_id  TEXT PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    file_name    TEXT NOT NULL,
    source       TEXT NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);

-- The console's campaign list and funnel count a campaign's participations by status.
CREATE INDEX participations_campaign ON participations (campaign_id, status);

-- +goose Down
DROP INDEX participations_campaign;
DROP TABLE campaign_sources;
