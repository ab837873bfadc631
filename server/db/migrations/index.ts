/**
 * The ordered list of migrations. SQL files are bundled as text (esbuild `text` loader, a vitest
 * transform in tests), so the binary needs no file system for them. Add new files at the end.
 */
import m0001 from './0001-foundation.sql';
import m0003 from './0003-device-management.sql';
import m0004 from './0004-thing-model.sql';
import m0005 from './0005-telemetry.sql';
import m0006 from './0006-command.sql';
import m0007 from './0007-telemetry-history-layout.sql';
import m0008 from './0008-command-delivered.sql';

export const migrations: { name: string; sql: string }[] = [
  { name: '0001-foundation', sql: m0001 },
  { name: '0003-device-management', sql: m0003 },
  { name: '0004-thing-model', sql: m0004 },
  { name: '0005-telemetry', sql: m0005 },
  { name: '0006-command', sql: m0006 },
  { name: '0007-telemetry-history-layout', sql: m0007 },
  { name: '0008-command-delivered', sql: m0008 },
];
