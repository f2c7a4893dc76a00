-- The feed reads one panel's campaigns by priority, then newest, then id:
-- ORDER BY priority DESC, published_at DESC, id. The index of 00002 holds those columns
-- ascending, so both engines had to sort what they read (PostgreSQL an incremental sort,
-- SQLite a temporary b-tree); this one is in feed order and replaces it, so the feed stops
-- reading as soon as it has a page.

-- +goose Up
CREATE INDEX campaigns_feed_order ON campaigns (panel_id, is_welcome, priority DESC, published_at DESC, id);
DROP INDEX campaigns_feed;

-- +goose Down
CREATE INDEX campaigns_feed ON campaigns (panel_id, is_welcome, priority, published_at, id);
DROP INDEX campaigns_feed_order;
