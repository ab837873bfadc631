-- Device management (issue 3): organizations, product categories, products (device profiles),
-- devices and their credentials. Forward only: a shipped migration is never edited.
-- Foreign keys default to NO ACTION (refuse): the services give the clear refusal first, the
-- keys keep the data whole if a bug slips past them.

CREATE TABLE organization (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,        -- int32
  parent_id TEXT REFERENCES organization(id),
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX organization_parent ON organization(parent_id);
-- Names are unique among siblings; roots are siblings of each other.
CREATE UNIQUE INDEX organization_sibling_name ON organization(ifnull(parent_id, ''), name);

CREATE TABLE product_category (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  domain TEXT,
  status INTEGER NOT NULL DEFAULT 1,      -- 1 enabled, 0 disabled
  type TEXT NOT NULL,                     -- STANDARD | CUSTOM
  description TEXT,
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX product_category_create_time ON product_category(create_time);

CREATE TABLE device_profile (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  category_id TEXT REFERENCES product_category(id),
  device_type TEXT NOT NULL,              -- DIRECT_CONNECTION | GATEWAY | SENSOR
  transport_type TEXT NOT NULL,           -- DEFAULT | TCP | COAP | MQTT
  tcp_protocol_type TEXT,                 -- MODBUS_RTU | CUSTOM, TCP only
  tcp_auth_type TEXT,                     -- REGISTER_SEND | DATA_CARRY | REGISTRATION_PACKAGE, TCP only
  is_default INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'DRAFT',   -- DRAFT | PUBLISHED
  image TEXT,
  description TEXT,
  protocol TEXT,
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX device_profile_category ON device_profile(category_id);
CREATE INDEX device_profile_create_time ON device_profile(create_time);
-- At most one default product (the service keeps it exactly one).
CREATE UNIQUE INDEX device_profile_one_default ON device_profile(is_default) WHERE is_default = 1;

CREATE TABLE device (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  alias TEXT,
  device_type TEXT NOT NULL,
  device_profile_id TEXT NOT NULL REFERENCES device_profile(id),
  organization_id TEXT REFERENCES organization(id),
  gateway_id TEXT REFERENCES device(id),
  address_code TEXT,                      -- two upper-case hex digits
  label TEXT,
  longitude REAL,
  latitude REAL,
  address TEXT,
  is_public INTEGER NOT NULL DEFAULT 0,
  is_collect INTEGER NOT NULL DEFAULT 0,
  description TEXT,
  device_state TEXT NOT NULL DEFAULT 'INACTIVE', -- INACTIVE | ONLINE | OFFLINE
  last_online_time INTEGER,
  last_offline_time INTEGER,
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
-- The list's default order and each filter with that order, so a page of 10 out of 10,000 reads
-- a few index entries instead of sorting the table.
CREATE INDEX device_create_time ON device(create_time);
CREATE INDEX device_profile_time ON device(device_profile_id, create_time);
CREATE INDEX device_organization_time ON device(organization_id, create_time);
CREATE INDEX device_state_time ON device(device_state, create_time);
CREATE INDEX device_type_time ON device(device_type, create_time);
CREATE INDEX device_gateway ON device(gateway_id) WHERE gateway_id IS NOT NULL;
CREATE INDEX device_collect_time ON device(is_collect, create_time);

CREATE TABLE device_credentials (
  id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL UNIQUE REFERENCES device(id) ON DELETE CASCADE,
  credentials_type TEXT NOT NULL,         -- ACCESS_TOKEN | X509_CERTIFICATE | MQTT_BASIC
  -- The token, the public key's sha256, or sha256 of clientId|userName: what the transport looks up.
  credentials_id TEXT NOT NULL UNIQUE,
  credentials_value TEXT,                 -- X509: the public key PEM
  mqtt_client_id TEXT,
  mqtt_user_name TEXT,
  mqtt_password_hash TEXT,                -- scrypt; the password itself is never stored
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE UNIQUE INDEX device_credentials_client_id ON device_credentials(mqtt_client_id) WHERE mqtt_client_id IS NOT NULL;
CREATE UNIQUE INDEX device_credentials_user_name ON device_credentials(mqtt_user_name) WHERE mqtt_user_name IS NOT NULL;
