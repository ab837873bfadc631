/** Client-side checks of a chosen file before it is sent (type by extension, size ceiling). */

export type FileRefusal = 'type' | 'size';

/** Lower-case extension without the dot, or '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Why `file` is refused, or null when it may be sent. `accept` lists extensions without dots
 * (case-insensitive); an empty list accepts any type. An empty file is refused as a wrong type:
 * no accepted format is empty.
 */
export function checkFile(file: { name: string; size: number }, accept: readonly string[], maxBytes: number): FileRefusal | null {
  if (accept.length > 0 && !accept.some((ext) => ext.toLowerCase() === extensionOf(file.name))) return 'type';
  if (file.size === 0) return 'type';
  if (file.size > maxBytes) return 'size';
  return null;
}

/** The `accept` attribute of a file input for the extensions: ".png,.jpg". */
export function acceptAttribute(accept: readonly string[]): string {
  return accept.map((ext) => `.${ext.toLowerCase()}`).join(',');
}

/** "5 MB", "512 KB", "900 B": sizes in the refusal message. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[unit]}`;
}
