/**
 * The edge-* palette's files (server/modules/node-red/palette/: plain Node-RED node files, no build
 * step, no dependency), written into each instance's user dir before its runtime starts. The binary
 * carries them as strings (scripts/build.ts defines EDGE_BUILD_NODE_RED_PALETTE: it has no file
 * system of its own); from source they are read where they lie. The runtime process only finds
 * them on disk, so it never needs the gateway's bundle for them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

declare const EDGE_BUILD_NODE_RED_PALETTE: Record<string, string> | undefined;

/** Where the palette's sources lie in the repository. */
export const PALETTE_SOURCE_DIR = join('server', 'modules', 'node-red', 'palette');

/** Every file of a palette directory by name (the build embeds this). */
export function readPaletteDir(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

function paletteFiles(): Record<string, string> {
  return typeof EDGE_BUILD_NODE_RED_PALETTE !== 'undefined' ? EDGE_BUILD_NODE_RED_PALETTE : readPaletteDir(resolve(PALETTE_SOURCE_DIR));
}

/**
 * Writes the palette under `<userDir>/nodes/edge-console/`, which Node-RED scans for nodes by
 * itself. Written at every start, so a new binary's palette replaces the old one.
 */
export function installPalette(userDir: string): void {
  const dir = join(userDir, 'nodes', 'edge-console');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(paletteFiles())) writeFileSync(join(dir, name), text);
}
