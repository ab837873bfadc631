/** Writes docs/PERMISSIONS.md from the permission table (scripts/lib/permissions-doc.ts). */
import { writeFileSync } from 'node:fs';
import { PERMISSIONS_DOC, renderPermissionsDoc } from './lib/permissions-doc.ts';

writeFileSync(PERMISSIONS_DOC, renderPermissionsDoc());
console.log(`wrote ${PERMISSIONS_DOC}`);
