/*
 * The browser's part of the treasurer's CSV files (/debts, the season's accounts): the file is built
 * by the shared CSV writer (shared/src/rules/csv.ts, with its formula guard) and offered here as a
 * download.
 */

/** Offers a text as a file download (built in the browser, no server round trip). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(filename, new Blob([text], { type }));
}

/** Offers a file the app holds (built here or fetched, e.g. the member's data as a ZIP) as a download. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
