/*
 * CSV for the treasurer (issue 8): semicolon-separated, UTF-8 with a byte order mark, so spreadsheet
 * programs open umlauts and euro amounts correctly; amounts with a decimal comma (`18,50`).
 */

const BOM = '\uFEFF';

/** Cents as a CSV amount: `1850` → `18,50`. */
export function csvAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** One field: quoted when it holds a separator, a quote or a line break (quotes doubled). */
export function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: BOM, header, rows, CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return BOM + [header, ...rows].map((row) => row.map(csvField).join(';')).join('\r\n') + '\r\n';
}

/** Offers a text as a file download (built in the browser, no server round trip). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
