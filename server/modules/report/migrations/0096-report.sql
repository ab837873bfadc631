-- Scheduled reports and their runs (server/contract/report.ts); a run's files are
-- <data-dir>/reports/<run id>.xlsx and .csv.
CREATE TABLE report (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  organization_id TEXT,             -- null: the tenant's own (unscoped callers only)
  definition TEXT NOT NULL,         -- JSON { series, aggregation, interval?, schedule }
  enabled INTEGER NOT NULL,
  next_run_ts INTEGER,              -- null while disabled
  last_due_ts INTEGER,              -- the scheduled time of the last scheduled run
  language TEXT NOT NULL,           -- zh_CN | en_US: the files' texts, as the report was last saved
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
);
CREATE INDEX report_next_run ON report(next_run_ts);

CREATE TABLE report_run (
  id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES report(id) ON DELETE CASCADE,
  trigger TEXT NOT NULL,            -- SCHEDULE | MISSED | MANUAL
  start_ts INTEGER NOT NULL,
  end_ts INTEGER NOT NULL,
  create_time INTEGER NOT NULL,
  rows INTEGER NOT NULL,
  truncated INTEGER NOT NULL,
  xlsx_bytes INTEGER NOT NULL,
  csv_bytes INTEGER NOT NULL
);
CREATE INDEX report_run_report ON report_run(report_id, create_time);
CREATE INDEX report_run_created ON report_run(create_time);
