/**
 * How deep parsed JSON nests. Values nested thousands of levels deep parse fine (JSON.parse does
 * not recurse) but make every recursive consumer after it throw (JSON.stringify, structuredClone,
 * schema checks), so input from outside is held to a depth before anything else touches it.
 */

/**
 * Whether `value` nests objects and arrays more than `max` levels deep: `1` and `"a"` are 0 levels,
 * `{"a":1}` is 1, `{"a":[1]}` is 2. The walk recurses at most `max + 1` frames whatever the input,
 * visits each container and value once (so at most as many steps as the text had bytes) and
 * allocates nothing, so it is cheap enough for every device message.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeperThan(value[i], max - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], max - 1)) return true;
  return false;
}
