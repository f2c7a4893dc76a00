-- A campaign's results (issue 34): the language a member answered in, and the order the
-- results read participations in (a campaign's runs by start, newest first, for the responses
-- table's keyset pages and the date filter). Runs started before this change have no language.

-- +goose Up
ALTER TABLE participations ADD COLUMN language TEXT NULL;
CREATE INDEX participations_campaign_started ON participations (campaign_id, started_at, id);

-- +goose Down
DROP INDEX participations_campaign_started;
ALTER TABLE participations DROP COLUMN language;
