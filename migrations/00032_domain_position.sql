-- A panel's domains keep the order its tenant file gives them (issue 31): the first is the
-- panel's canonical host, where mailed links and a move to the panel point, whatever Host a
-- request named. Domains stored before this change keep 0 and fall back to their names' order
-- until the tenant is applied again.

-- +goose Up
ALTER TABLE domains ADD COLUMN position INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE domains DROP COLUMN position;
