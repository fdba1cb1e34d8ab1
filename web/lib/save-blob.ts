/**
 * Hands a blob built in the page to the browser's download (an object URL on a clicked link, freed
 * a minute later): in-memory E2E downloads and exports built in the browser.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
