-- Login and join widgets (modules/accounts): where a session and an account began. app_name is
-- the app that asked (X-App-Name: web, widget, ...), parent_frame_url the address of the page
-- that framed the widget (the register and login payloads' parentFrameUrl). The widgets' hand-off
-- codes are account_tokens of their own purpose; the panel's widget_after is in app_settings.

-- +goose Up
ALTER TABLE sessions ADD COLUMN app_name TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN parent_frame_url TEXT NOT NULL DEFAULT '';
-- Kept for good on the account holder: sessions end, where a member joined from does not.
ALTER TABLE account_holders ADD COLUMN join_app_name TEXT NOT NULL DEFAULT '';
ALTER TABLE account_holders ADD COLUMN join_parent_frame_url TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE account_holders DROP COLUMN join_parent_frame_url;
ALTER TABLE account_holders DROP COLUMN join_app_name;
ALTER TABLE sessions DROP COLUMN parent_frame_url;
ALTER TABLE sessions DROP COLUMN app_name;
