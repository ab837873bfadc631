/**
 * Each instance's credentialSecret, and its palette secret (the credential its edge-* nodes present
 * to the gateway: node-red-palette.ts), each kept with the gateway's secrets (`<data-dir>/node-red-secrets.json`,
 * mode 0600) and never in the database: a copied or restored database alone cannot decrypt the
 * flows' credentials, and the secret is generated once per instance and never replaced (a changed
 * secret is how Node-RED users lose their credentials: node-red #3596).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivate } from '../../lib/secrets.ts';

const PALETTE_SUFFIX = ':palette';

export class NodeRedSecrets {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'node-red-secrets.json');
  }

  private read(): Record<string, string> {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>) : {};
  }

  private secret(key: string): string {
    const all = this.read();
    const found = all[key];
    if (found) return found;
    const made = randomBytes(32).toString('base64url');
    writePrivate(this.file, JSON.stringify({ ...all, [key]: made }));
    return made;
  }

  /** The instance's secret, generated on first use. */
  credentialSecret(id: string): string {
    return this.secret(id);
  }

  /**
   * The instance's palette secret, generated on first use, under its own key beside the
   * credentialSecret (whose key stays the bare id, so files written before it still read). Kept,
   * not made per start, so a rollback or restart changes nothing a flow relies on.
   */
  paletteSecret(id: string): string {
    return this.secret(`${id}${PALETTE_SUFFIX}`);
  }

  forget(id: string): void {
    const all = this.read();
    const keys = [id, `${id}${PALETTE_SUFFIX}`].filter((key) => key in all);
    if (!keys.length) return;
    for (const key of keys) delete all[key];
    writePrivate(this.file, JSON.stringify(all));
  }
}
