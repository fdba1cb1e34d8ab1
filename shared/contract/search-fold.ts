/**
 * Name search that ignores case and accents (issue 32 §1: "Überblick" is found by "überblick" and
 * "uberblick"): both sides NFD-decomposed, combining marks dropped, lower-cased. One rule for the
 * server's search over plain rooms and the browser's search over a Secure room's decrypted names.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Whether `name` contains the query `q` (already folded with foldForSearch) as a search match. */
export const foldedIncludes = (name: string, foldedQuery: string): boolean => foldForSearch(name).includes(foldedQuery);
