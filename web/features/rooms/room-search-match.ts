import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import { foldedIncludes, foldForSearch } from '@shared/contract/search-fold';
import type { LabelFilterValue } from './room-labels';
import type { RoomSearchEntry, RoomSearchFound } from './room-search-hits';

/**
 * What one room's search asks for, as the plain room's search route takes it (GET /rooms/{room}/search:
 * `q`, `classification`, `status`): a term and/or a classification and/or a file status. Neither: no search.
 */
export interface RoomSearchQuery {
  q: string;
  classification?: RoomClassification | undefined;
  status?: RoomFileStatus | undefined;
}

/** The search box's label selects (`all`: not narrowed) as the route's query. */
export const searchQueryOf = (q: string, labels: LabelFilterValue): RoomSearchQuery => ({
  q: q.trim(),
  ...(labels.classification === 'all' ? {} : { classification: labels.classification }),
  ...(labels.status === 'all' ? {} : { status: labels.status }),
});

/** Whether the query asks for anything (a term or a label). */
export const isSearchQuery = (query: RoomSearchQuery): boolean => query.q !== '' || query.classification !== undefined || query.status !== undefined;

/** The query as the hits' count line names it: the term, then the chosen labels' words. */
export const searchQueryText = (query: RoomSearchQuery, labelText: (area: 'classification' | 'status', value: string) => string): string =>
  [query.q, query.classification && labelText('classification', query.classification), query.status && labelText('status', query.status)].filter(Boolean).join(', ');

/** One item of a Secure room's index (e2e-search-walk.ts): decrypted name, opened comments, signed labels (none: `none`). */
export interface SearchableEntry extends Omit<RoomSearchEntry, 'name' | 'found'> {
  comments: string[];
  classification?: RoomClassification | undefined;
  status?: RoomFileStatus | undefined;
}

/**
 * The entry as a hit of `query` in a Secure room's browser search, or null, by the plain route's rule
 * (server/rooms/plain/search.ts): the term is in the name or a comment — here also in the
 * classification's or status's word in the user's language (`labelText`) — and the chosen
 * classification and status are the entry's (a file's signed metadata, a folder's signed record;
 * absent: `none`). Each hit
 * says what matched; a chosen label is named as found.
 */
export function matchSearchEntry(
  entry: SearchableEntry,
  query: RoomSearchQuery,
  name: string,
  labelText: (area: 'classification' | 'status', value: string) => string,
): RoomSearchEntry | null {
  if (!isSearchQuery(query)) return null;
  const classification = entry.classification ?? 'none';
  const status = entry.status ?? 'none';
  if (query.classification !== undefined && classification !== query.classification) return null;
  if (query.status !== undefined && status !== query.status) return null;
  const found: RoomSearchFound[] = [];
  const needle = foldForSearch(query.q);
  if (needle !== '') {
    if (foldedIncludes(name, needle)) found.push({ kind: 'name' });
    for (const text of entry.comments) if (foldedIncludes(text, needle)) found.push({ kind: 'comment', text });
    if (classification !== 'none' && foldedIncludes(labelText('classification', classification), needle)) found.push({ kind: 'classification', value: classification });
    if (status !== 'none' && foldedIncludes(labelText('status', status), needle)) found.push({ kind: 'status', value: status });
    if (found.length === 0) return null;
  }
  if (query.classification !== undefined && !found.some((f) => f.kind === 'classification')) found.push({ kind: 'classification', value: query.classification });
  if (query.status !== undefined && !found.some((f) => f.kind === 'status')) found.push({ kind: 'status', value: query.status });
  return { kind: entry.kind, uuid: entry.uuid, name, folderUuid: entry.folderUuid, path: entry.path, found };
}
