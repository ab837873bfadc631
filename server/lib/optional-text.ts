/** Free text from a body, trimmed as every string value is; empty or left out means "unset". */
export function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}
