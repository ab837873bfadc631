/** STUB — implemented by the licence work. */
import type { Core } from '../../core.ts';
import type { LicenseStatus } from '../../contract/license.ts';
export class LicenseService {
  constructor(readonly core: Core) {}
  status(): LicenseStatus { return 'MISSING'; }
}
