/**
 * A TSL file on its way in (model files are at most 5 MB): read as JSON,
 * counted for the confirmation, and the server's all-or-nothing refusal turned into one line per
 * broken rule that says which entry of the file it concerns. Pure.
 */
import type { ErrorBody } from '../../../server/contract/errors.ts';
import { functionTypes, type FunctionType, type TslImportBody } from '../../../server/contract/thing-model.ts';

export type ParsedTsl = { ok: true; body: TslImportBody; counts: Record<FunctionType, number> } | { ok: false };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's JSON with the three groups the import reads; not JSON or not an object: refused. */
export function parseTsl(text: string): ParsedTsl {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false };
  }
  if (!isObject(doc)) return { ok: false };
  const body: TslImportBody = {};
  const counts = { properties: 0, services: 0, events: 0 } as Record<FunctionType, number>;
  for (const group of functionTypes) {
    if (doc[group] === undefined) continue;
    body[group] = doc[group] as unknown[];
    counts[group] = Array.isArray(doc[group]) ? doc[group].length : 0;
  }
  return { ok: true, body, counts };
}

/** One broken rule of a refused import. */
export interface ImportProblem {
  /** The group the entry is in (properties/services/events), if the path names one. */
  group: FunctionType | null;
  /** 0-based entry index in its group. */
  index: number | null;
  /** The entry's identifier as written in the file, when it has one. */
  identifier: string | null;
  /** Where inside the entry (`functionJson.dataType.specs.max`), '' for the entry itself. */
  path: string;
  /** errors.json key without the `error.` prefix. */
  key: string;
  /** Values the key's text names, as far as the file tells them. */
  params: Record<string, string | number>;
}

/** The refusal's details located in the file (`body.properties.2.functionJson…` → properties #3). */
export function importProblems(details: ErrorBody['details'], body: TslImportBody): ImportProblem[] {
  return (details ?? []).map((detail) => {
    const parts = detail.field.replace(/^body\.?/, '').split('.').filter(Boolean);
    const group = (functionTypes as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as FunctionType) : null;
    const index = group && parts[1] !== undefined && /^\d+$/.test(parts[1]) ? Number(parts[1]) : null;
    const entry = group && index !== null ? body[group]?.[index] : undefined;
    const identifier = isObject(entry) && typeof entry.identifier === 'string' ? entry.identifier : null;
    const key = (detail.key ?? 'error.validation').replace(/^error\./, '');
    const params: Record<string, string | number> = identifier ? { identifier } : {};
    return { group, index, identifier, path: parts.slice(group ? (index !== null ? 2 : 1) : 0).join('.'), key, params };
  });
}
