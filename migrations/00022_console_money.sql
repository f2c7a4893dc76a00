-- The operator console's money part (issue 21, part 4) reads by panel and time: the
-- redemption queue newest first in any status, the paid redemptions of a period (their
-- "paid" events), and a panel's ledger credits of a period for the daily summary. Without
-- these, each read scans every panel's rows.

-- +goose Up
CREATE INDEX redemptions_panel_time ON redemptions (panel_id, created_at);
CREATE INDEX redemption_events_status_time ON redemption_events (to_status, created_at);
CREATE INDEX ledger_entries_panel_time ON ledger_entries (panel_id, created_at);

-- +goose Down
DROP INDEX ledger_entries_panel_time;
DROP INDEX redemption_events_status_time;
DROP INDEX redemptions_panel_time;
