-- Per-product history retention (README, "Retention and disk budget"): a product's own number of
-- days its devices' history is kept, instead of the global telemetry retention. No row: the global
-- setting applies. Keyed by the product's id without a foreign key, like the telemetry tables: a
-- deleted product's row is removed when the product.deleted event arrives, and a leftover is harmless.
CREATE TABLE product_retention (
  product_id TEXT PRIMARY KEY,
  retention_days INTEGER NOT NULL
);
