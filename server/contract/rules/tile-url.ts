/**
 * The map tile URL of the system configuration (server/contract/map.ts): an absolute http(s) URL
 * with `{z}`, `{x}` and `{y}` in it, e.g. an on-site tile server's `http://10.0.0.5:8080/{z}/{x}/{y}.png`.
 * Its origin goes into the console's Content-Security-Policy (`img-src`), so the rule admits only
 * characters that cannot end or extend a policy directive: no white space, `;`, `,`, quotes.
 */
import { isBlank, problem, type Problem } from './problem.ts';

export const TILE_URL_MAX = 512;

/** scheme, host (name, IPv4 or bracketed IPv6) and optional port; then a path and query. */
const tileUrl = /^(https?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/[^\s;,'"\\<>`]*)$/i;

/** The origin (`http://host:port`) a valid tile URL loads from; null for anything else. */
export function tileOrigin(url: string): string | null {
  if (url.length > TILE_URL_MAX) return null;
  const m = tileUrl.exec(url);
  if (!m) return null;
  const path = m[4] ?? '';
  if (!path.includes('{z}') || !path.includes('{x}') || !path.includes('{y}')) return null;
  const port = m[3] ? Number(m[3].slice(1)) : null;
  if (port !== null && (port < 1 || port > 65535)) return null;
  return `${m[1]}://${m[2]}${m[3] ?? ''}`.toLowerCase();
}

/** Empty (no map) passes; anything else must be a tile URL `tileOrigin` accepts. */
export function tileUrlProblem(value: unknown): Problem | null {
  if (isBlank(value)) return null;
  return typeof value === 'string' && tileOrigin(value.trim()) !== null ? null : problem('error.map.tileUrl');
}

/** A tile's address: the template with its zoom and column/row filled in. */
export function tileAddress(template: string, z: number, x: number, y: number): string {
  return template.replaceAll('{z}', String(z)).replaceAll('{x}', String(x)).replaceAll('{y}', String(y));
}
