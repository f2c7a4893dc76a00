-- The survey engine: where each member is in a campaign, their answers, and their rating of
-- a finished campaign.

-- +goose Up
ALTER TABLE participations ADD COLUMN current_question TEXT NULL;
ALTER TABLE participations ADD COLUMN answered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE participations ADD COLUMN quota_id TEXT NULL;
ALTER TABLE participations ADD COLUMN rating INTEGER NULL;
ALTER TABLE participations ADD COLUMN rating_comment TEXT NULL;
ALTER TABLE participations ADD COLUMN rated_at TIMESTAMP NULL;

-- One answer per member and question; seq is the order they were given in (the path a
-- member took, for Back in preview and for resuming).
CREATE TABLE answers (
    participation_id  TEXT NOT NULL REFERENCES participations (id) ON DELETE CASCADE,
    question_id       TEXT NOT NULL,
    seq               INTEGER NOT NULL,
    value             TEXT NOT NULL,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL,
    PRIMARY KEY (participation_id, question_id)
);

-- +goose Down
DROP TABLE answers;
ALTER TABLE participations DROP COLUMN rated_at;
ALTER TABLE participations DROP COLUMN rating_comment;
ALTER TABLE participations DROP COLUMN rating;
ALTER TABLE participations DROP COLUMN quota_id;
ALTER TABLE participations DROP COLUMN answered;
ALTER TABLE participations DROP COLUMN current_question;
