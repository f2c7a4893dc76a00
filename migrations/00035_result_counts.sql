-- A campaign's results, counted (issue 34): what the console's summary shows with its default
-- filter (completes) and with one answer filter, without reading every answer of a large
-- campaign. Each row adds n to one figure: an outcome, a day's or a duration's completes, a
-- question's value among completes; by_question/by_value say which answer the runs it counts
-- gave ('' for all runs). Figures are spread over shards, summed on read.
--
-- The counts hold a campaign's runs that ended before its counted_through: a summary moves
-- that mark up to five minutes ago, counting the runs that ended in between, and reads the
-- runs of the last five minutes live. Nothing is added to a member's answer, and nothing is
-- written to the runs themselves. The survey engine keeps it all (modules/surveys/result_counts.go).

-- +goose Up
CREATE TABLE result_counts (
    campaign_id  TEXT NOT NULL,
    by_question  TEXT NOT NULL,
    kind         TEXT NOT NULL,
    by_value     TEXT NOT NULL,
    question_id  TEXT NOT NULL,
    value        TEXT NOT NULL,
    shard        INTEGER NOT NULL,
    n            BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, by_question, kind, by_value, question_id, value, shard)
);

CREATE TABLE result_counts_through (
    campaign_id      TEXT PRIMARY KEY,
    counted_through  TIMESTAMP NOT NULL
);

-- A campaign's runs by when they ended: those to count, and the last minute's to read live.
CREATE INDEX participations_campaign_finished ON participations (campaign_id, finished_at);

-- +goose Down
DROP INDEX participations_campaign_finished;
DROP TABLE result_counts_through;
DROP TABLE result_counts;
