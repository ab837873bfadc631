/** Free text from a body: trimmed, with empty or left out meaning "unset" (spec: values are trimmed). */
export function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}
