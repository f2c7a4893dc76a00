-- Webhooks per panel (issue 34, point 5; modules/webhooks). A panel's owners register https
-- URLs that are sent each completed, screened or quota-full participation as signed JSON.
--
-- webhooks: the URL, the signing secret sealed at rest (AES-GCM, bound to the webhook's id),
-- the events it wants (space-separated: participation.completed participation.screened
-- participation.quota_full) and whether it is on. The survey engine's finish hook reads a
-- panel's active webhooks by panel_id once per finished run.
--
-- webhook_deliveries: one row per event and webhook, its id the event id the receiver sees
-- (Canvass-Event-Id). Written in the transaction that ends the run, with its River job; the job
-- records each attempt (HTTP status, latency, a short error) and marks it delivered once, or
-- failed when retry_until has passed. seq is the delivery's current job: "Send again" bumps it
-- and queues a new job, and a job of an older seq does nothing. One delivery per webhook,
-- participation and event.

-- +goose Up
CREATE TABLE webhooks (
    id             TEXT PRIMARY KEY,
    panel_id       TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    url            TEXT NOT NULL,
    secret_sealed  TEXT NOT NULL,
    events         TEXT NOT NULL,
    active         BOOLEAN NOT NULL DEFAULT TRUE,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL
);
CREATE INDEX webhooks_panel ON webhooks (panel_id, created_at);

CREATE TABLE webhook_deliveries (
    id                TEXT PRIMARY KEY,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    panel_id          TEXT NOT NULL,
    event             TEXT NOT NULL,
    participation_id  TEXT NOT NULL,
    campaign_id       TEXT NOT NULL,
    status            TEXT NOT NULL,
    seq               INTEGER NOT NULL DEFAULT 1,
    attempts          INTEGER NOT NULL DEFAULT 0,
    last_status       INTEGER,
    last_latency_ms   INTEGER,
    last_error        TEXT NOT NULL DEFAULT '',
    last_attempt_at   TIMESTAMP,
    retry_until       TIMESTAMP NOT NULL,
    created_at        TIMESTAMP NOT NULL,
    delivered_at      TIMESTAMP
);
CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_id, participation_id, event);
CREATE INDEX webhook_deliveries_webhook_time ON webhook_deliveries (webhook_id, created_at, id);

-- +goose Down
DROP INDEX webhook_deliveries_webhook_time;
DROP INDEX webhook_deliveries_event;
DROP TABLE webhook_deliveries;
DROP INDEX webhooks_panel;
DROP TABLE webhooks;
