/**
 * The durable half of the safe apply: `<data-dir>/network/pending.json` holds an apply awaiting
 * confirmation together with the settings it replaced, written (and fsynced, and renamed into
 * place) BEFORE the applier touches anything. A start that finds it knows the confirmation never
 * came, whatever happened in between (kill -9, power cut), and puts the previous settings back.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fsyncPath, writeFileDurably } from '../../lib/durable-file.ts';
import type { NetworkSettings } from '../../contract/network.ts';

export interface PendingApply {
  applyId: string;
  /** ISO time after which the previous settings come back. */
  confirmBy: string;
  previous: NetworkSettings;
  next: NetworkSettings;
  /** What the applier returned (a NetworkManager checkpoint); absent until apply returned. */
  token?: string;
}

export class ApplyJournal {
  private readonly path: string;

  constructor(readonly dir: string) {
    this.path = join(dir, 'pending.json');
  }

  read(): PendingApply | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return null;
    }
    // A torn write cannot happen (rename), but a hand-edited file can: treat it as no apply rather than refuse to start.
    try {
      return JSON.parse(text) as PendingApply;
    } catch {
      return null;
    }
  }

  write(pending: PendingApply): void {
    writeFileDurably(this.path, JSON.stringify(pending));
  }

  clear(): void {
    rmSync(this.path, { force: true });
    fsyncPath(this.dir, 'r');
  }
}
