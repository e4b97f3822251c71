/*
 * The browser's part of the treasurer's CSV files (/debts, the season's accounts): the file is built
 * by the shared CSV writer (shared/src/rules/csv.ts, with its formula guard) and offered here as a
 * download.
 */

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
