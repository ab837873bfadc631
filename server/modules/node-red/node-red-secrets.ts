/**
 * Each instance's credentialSecret, kept with the gateway's secrets (`<data-dir>/node-red-secrets.json`,
 * mode 0600) and never in the database: a copied or restored database alone cannot decrypt the
 * flows' credentials, and the secret is generated once per instance and never replaced (a changed
 * secret is how Node-RED users lose their credentials: node-red #3596).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivate } from '../../lib/secrets.ts';

export class NodeRedSecrets {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'node-red-secrets.json');
  }

  private read(): Record<string, string> {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>) : {};
  }

  /** The instance's secret, generated on first use. */
  credentialSecret(id: string): string {
    const all = this.read();
    const found = all[id];
    if (found) return found;
    const made = randomBytes(32).toString('base64url');
    writePrivate(this.file, JSON.stringify({ ...all, [id]: made }));
    return made;
  }

  forget(id: string): void {
    const all = this.read();
    if (!(id in all)) return;
    delete all[id];
    writePrivate(this.file, JSON.stringify(all));
  }
}
