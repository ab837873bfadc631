/**
 * Saves a blob the console fetched itself (downloads behind the bearer token cannot be plain
 * links: a link would go without the Authorization header).
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** A CSV file as spreadsheet programs open it correctly: UTF-8 with a BOM, CRLF lines, quoted cells. */
export function csvBlob(rows: readonly (readonly string[])[]): Blob {
  const cell = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const text = rows.map((row) => row.map(cell).join(',')).join('\r\n');
  return new Blob(['\uFEFF', text, '\r\n'], { type: 'text/csv;charset=utf-8' });
}
