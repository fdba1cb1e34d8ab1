import { describe, expect, it } from 'vitest';
import { NO_LABEL_FILTER } from './room-labels';
import { isSearchQuery, matchSearchEntry, searchQueryOf, searchQueryText, type SearchableEntry } from './room-search-match';

// English words of the labels, as the UI passes them from locales/en/roomComments.json.
const WORDS: Record<string, string> = { confidential: 'Confidential', internal: 'Internal', none: 'None', done: 'Done', toDo: 'To do', inProgress: 'In progress' };
const labelText = (_area: 'classification' | 'status', value: string) => WORDS[value] ?? value;

// Decrypted rows of a Secure room's index: a folder without a labels record, and files with and without labels.
const folder: SearchableEntry = { kind: 'folder', uuid: 'f0', folderUuid: null, path: [], comments: ['Zürich originals'] };
const offer: SearchableEntry = { kind: 'file', uuid: 'f1', folderUuid: 'f0', path: ['Deals'], comments: [], classification: 'confidential', status: 'inProgress' };
const plan: SearchableEntry = { kind: 'file', uuid: 'f2', folderUuid: null, path: [], comments: ['Ask the Zürich notary'], classification: 'internal', status: 'done' };
const bare: SearchableEntry = { kind: 'file', uuid: 'f3', folderUuid: null, path: [], comments: [] };
const names: Record<string, string> = { f0: 'Deals', f1: 'offer.pdf', f2: 'plan.pdf', f3: 'notes.txt' };
const rows = [folder, offer, plan, bare];

const search = (q: string, labels: Partial<typeof NO_LABEL_FILTER> = {}) =>
  rows.flatMap((e) => {
    const hit = matchSearchEntry(e, searchQueryOf(q, { ...NO_LABEL_FILTER, ...labels }), names[e.uuid]!, labelText);
    return hit ? [[names[e.uuid], hit.found]] : [];
  });

describe('matchSearchEntry (a Secure room’s search over decrypted rows, the plain route’s filters)', () => {
  it('a term alone finds names, comments (case and accents folded) and label words, saying which', () => {
    expect(search('ZURICH')).toEqual([
      ['Deals', [{ kind: 'comment', text: 'Zürich originals' }]],
      ['plan.pdf', [{ kind: 'comment', text: 'Ask the Zürich notary' }]],
    ]);
    expect(search('pdf').map(([n]) => n)).toEqual(['offer.pdf', 'plan.pdf']);
    expect(search('confid')).toEqual([['offer.pdf', [{ kind: 'classification', value: 'confidential' }]]]);
    expect(search('done')).toEqual([['plan.pdf', [{ kind: 'status', value: 'done' }]]]);
    // "None" is no label: an unlabelled item is not found by its word.
    expect(search('none')).toEqual([]);
  });

  it('a classification or status alone lists every item so labelled (a folder and an unlabelled file are "none")', () => {
    expect(search('', { classification: 'confidential' })).toEqual([['offer.pdf', [{ kind: 'classification', value: 'confidential' }]]]);
    expect(search('', { status: 'done' })).toEqual([['plan.pdf', [{ kind: 'status', value: 'done' }]]]);
    expect(search('', { classification: 'none' }).map(([n]) => n)).toEqual(['Deals', 'notes.txt']);
    expect(search('', { classification: 'internal', status: 'done' })).toEqual([
      ['plan.pdf', [{ kind: 'classification', value: 'internal' }, { kind: 'status', value: 'done' }]],
    ]);
    expect(search('', { classification: 'internal', status: 'inProgress' })).toEqual([]);
  });

  it('a term and a label: both must hold (as on the server), the term narrowed by the label', () => {
    expect(search('zurich', { classification: 'internal' })).toEqual([
      ['plan.pdf', [{ kind: 'comment', text: 'Ask the Zürich notary' }, { kind: 'classification', value: 'internal' }]],
    ]);
    expect(search('zurich', { classification: 'confidential' })).toEqual([]);
    expect(search('offer', { status: 'done' })).toEqual([]);
    // The term matching the chosen label's word names it once.
    expect(search('confidential', { classification: 'confidential' })).toEqual([['offer.pdf', [{ kind: 'classification', value: 'confidential' }]]]);
  });

  it('a Secure folder with a signed record is found by its labels and their words like a file (README section 7 "Folder labels")', () => {
    const labelled: SearchableEntry = { ...folder, uuid: 'f4', comments: [], classification: 'confidential', status: 'toDo' };
    const hit = (q: string, labels: Partial<typeof NO_LABEL_FILTER> = {}) => matchSearchEntry(labelled, searchQueryOf(q, { ...NO_LABEL_FILTER, ...labels }), 'Board', labelText);
    expect(hit('', { classification: 'confidential' })).toMatchObject({ kind: 'folder', uuid: 'f4', found: [{ kind: 'classification', value: 'confidential' }] });
    expect(hit('', { classification: 'confidential', status: 'toDo' })?.found).toEqual([{ kind: 'classification', value: 'confidential' }, { kind: 'status', value: 'toDo' }]);
    expect(hit('confid')?.found).toEqual([{ kind: 'classification', value: 'confidential' }]);
    expect(hit('', { classification: 'internal' })).toBeNull();
    expect(hit('', { classification: 'none' })).toBeNull();
  });

  it('neither a term nor a label: no search, no hits; the count line names what was asked', () => {
    expect(isSearchQuery(searchQueryOf('   ', NO_LABEL_FILTER))).toBe(false);
    expect(search('  ')).toEqual([]);
    expect(searchQueryOf(' a ', { classification: 'all', status: 'done' })).toEqual({ q: 'a', status: 'done' });
    expect(searchQueryText(searchQueryOf('zurich', { classification: 'confidential', status: 'done' }), labelText)).toBe('zurich, Confidential, Done');
    expect(searchQueryText(searchQueryOf('', { classification: 'all', status: 'toDo' }), labelText)).toBe('To do');
  });
});
