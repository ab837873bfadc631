-- Thing models (issue 4): the draft items of each product and its published versions.
-- Forward only: a shipped migration is never edited.

-- The draft: what the thing-model tab edits. An item's status (DRAFT or PUBLISHED) is not stored:
-- it is whether the item equals its copy in the latest version.
CREATE TABLE thing_model_item (
  id TEXT PRIMARY KEY,
  device_profile_id TEXT NOT NULL REFERENCES device_profile(id) ON DELETE CASCADE,
  function_type TEXT NOT NULL,            -- properties | services | events
  function_name TEXT NOT NULL,
  identifier TEXT NOT NULL,
  access_mode TEXT,                       -- r | rw, properties only
  event_type TEXT,                        -- INFO | ALERT | ERROR, events only
  call_type TEXT,                         -- ASYNC | SYNC, services only
  function_json TEXT NOT NULL,            -- JSON: { dataType } | { inputData, outputData } | { outputData }
  extension_desc TEXT,                    -- JSON: Modbus extension descriptor, Modbus properties only
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
-- Identifiers are unique per product across function types (the service says so first).
CREATE UNIQUE INDEX thing_model_item_identifier ON thing_model_item(device_profile_id, identifier);
CREATE INDEX thing_model_item_list ON thing_model_item(device_profile_id, function_type, create_time);

-- Each publication that changed the model: a snapshot of every draft item, what devices are held to.
CREATE TABLE thing_model_version (
  id TEXT PRIMARY KEY,
  device_profile_id TEXT NOT NULL REFERENCES device_profile(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,               -- 1, 2, … per product
  model_json TEXT NOT NULL,               -- JSON: the items as the API answers them, without status
  item_count INTEGER NOT NULL,
  published_time INTEGER NOT NULL
);
CREATE UNIQUE INDEX thing_model_version_number ON thing_model_version(device_profile_id, version);
