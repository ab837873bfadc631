/**
 * The "column type" step of the import wizard: which CSV column feeds each device field. The
 * server suggests columns whose header is exactly a known spelling; the console adds columns whose
 * header merely contains one ("设备名称(必填)", "Device name *") and checks the choice before commit.
 */
import {
  importFields,
  importHeaderHints,
  normalizeImportHeader,
  type ImportField,
  type ImportMapping,
  type ImportPreview,
} from '../../../server/contract/device-import.ts';

/** A target of a column: a device field or the access-token column. */
export type MappingTarget = ImportField | 'token';
export const mappingTargets: readonly MappingTarget[] = [...importFields, 'token'];

/** Column index per target; null leaves the field unset (the token then is generated). */
export type MappingChoice = Record<MappingTarget, number | null>;

export interface MappingProblem {
  target: MappingTarget;
  /** Key in the deviceImport namespace. */
  key: 'mapping.nameRequired' | 'mapping.columnTwice';
}

/**
 * Short ASCII spellings ("lat", "lon", "lng") are only trusted as the whole header: inside longer
 * words ("platform", "along") they would be wrong more often than right.
 */
function containsHint(header: string, hint: string): boolean {
  const cjk = /[^\p{ASCII}]/u.test(hint);
  return (cjk || hint.length >= 4) && header.includes(hint);
}

/**
 * The initial mapping: the server's exact suggestions first, then the first unused column whose
 * header contains a spelling of the field. A column feeds at most one target.
 */
export function suggestMapping(preview: Pick<ImportPreview, 'columns' | 'suggestedMapping' | 'suggestedCredentialsColumn'>): MappingChoice {
  const headers = preview.columns.map(normalizeImportHeader);
  const choice = Object.fromEntries(mappingTargets.map((t) => [t, null])) as MappingChoice;
  const used = new Set<number>();
  const take = (target: MappingTarget, index: number | null | undefined): void => {
    if (index === null || index === undefined || index < 0 || index >= headers.length || used.has(index)) return;
    choice[target] = index;
    used.add(index);
  };
  for (const field of importFields) take(field, preview.suggestedMapping[field]);
  take('token', preview.suggestedCredentialsColumn);
  for (const target of mappingTargets) {
    if (choice[target] !== null) continue;
    const index = headers.findIndex((h, i) => !used.has(i) && importHeaderHints[target].some((hint) => containsHint(h, hint)));
    take(target, index);
  }
  return choice;
}

/** What stops the commit: no name column, or a column chosen for two targets. */
export function mappingProblems(choice: MappingChoice): MappingProblem[] {
  const problems: MappingProblem[] = [];
  if (choice.name === null) problems.push({ target: 'name', key: 'mapping.nameRequired' });
  const firstUse = new Map<number, MappingTarget>();
  for (const target of mappingTargets) {
    const index = choice[target];
    if (index === null) continue;
    if (firstUse.has(index)) problems.push({ target, key: 'mapping.columnTwice' });
    else firstUse.set(index, target);
  }
  return problems;
}

/** The commit's `mapping` and `credentialsColumn`; call only when `mappingProblems` is empty. */
export function commitMapping(choice: MappingChoice): { mapping: ImportMapping; credentialsColumn: number | null } {
  if (choice.name === null) throw new Error('the name column is required');
  const mapping: ImportMapping = { name: choice.name };
  for (const field of importFields) {
    if (field !== 'name' && choice[field] !== null) mapping[field] = choice[field];
  }
  return { mapping, credentialsColumn: choice.token };
}
