-- The device-event cursor (cloud_progress.event_seq) may point past the newest event record still
-- stored (the newest were deleted with their device): event records now number on from the cursor
-- (migration 0040's sequence), so every record stored from here on is after it and is sent.
-- Records stored before this upgrade under a reused number cannot be told from acknowledged ones.
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT event_seq FROM cloud_progress WHERE id = 1), 0))
  WHERE name = 'event_record';
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'event_record', event_seq FROM cloud_progress
  WHERE id = 1 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'event_record');
