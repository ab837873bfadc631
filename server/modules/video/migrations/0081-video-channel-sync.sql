-- ONVIF channel sync (POST /api/yt/video/sync): where a synced channel came from, so a re-sync
-- updates it rather than adding a twin, and a flag for a profile the device no longer lists
-- (the channel is kept: it may be bound to a device or watched on a dashboard).
-- Forward only: a shipped migration is never edited.

ALTER TABLE video_channel ADD COLUMN sync_source TEXT;          -- host:port of the ONVIF device; NULL for a channel added by hand
ALTER TABLE video_channel ADD COLUMN sync_profile TEXT;         -- the device's media profile token
ALTER TABLE video_channel ADD COLUMN sync_missing INTEGER NOT NULL DEFAULT 0;  -- 1: the last sync did not find the profile
CREATE UNIQUE INDEX video_channel_sync ON video_channel(sync_source, sync_profile) WHERE sync_source IS NOT NULL;
