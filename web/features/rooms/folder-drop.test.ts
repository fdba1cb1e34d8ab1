import { describe, expect, it } from 'vitest';
import { foldersToCreate, placedFromDrop, placedFromPicker, UnreadableDropError } from './folder-drop';

const file = (name: string, relativePath = '') => {
  const f = new File(['x'], name);
  if (relativePath) Object.defineProperty(f, 'webkitRelativePath', { value: relativePath });
  return f;
};

describe('folder-drop planning', () => {
  it('gives each picked file its folders from the relative path', () => {
    const placed = placedFromPicker([file('a.txt', 'Tree/a.txt'), file('b.txt', 'Tree/Sub/Deep/b.txt'), file('loose.txt')]);
    expect(placed.map((p) => p.dirs)).toEqual([['Tree'], ['Tree', 'Sub', 'Deep'], []]);
  });

  it('lists every folder once, parents before children, empty folders included', () => {
    const paths = foldersToCreate([
      { file: file('b.txt'), dirs: ['Tree', 'Sub', 'Deep'] },
      { file: file('a.txt'), dirs: ['Tree'] },
      { file: null, dirs: ['Tree', 'Empty'] },
      { file: file('c.txt'), dirs: ['Other'] },
      { file: file('d.txt'), dirs: [] },
    ]);
    expect(paths.map((p) => p.join('/'))).toEqual(['Tree', 'Other', 'Tree/Sub', 'Tree/Empty', 'Tree/Sub/Deep']);
  });
});

/** A drop as some file managers hand it over: items without a file-system entry (`webkitGetAsEntry()` null). */
const dropOf = (files: (File | null)[]) => ({ items: files.map((f) => ({ kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => f })) }) as unknown as DataTransfer;
/** A File the browser cannot read: what a folder without its entry is. */
const folderLike = (name: string) => Object.defineProperty(new File([], name), 'slice', { value: () => ({ arrayBuffer: () => Promise.reject(new DOMException('unreadable', 'NotReadableError')) }) });

describe('a drop without file-system entries (issue 32 §1)', () => {
  it('keeps the tree when the relative paths are known', async () => {
    const placed = await placedFromDrop(dropOf([file('a.txt', 'Tree/a.txt'), file('b.txt', 'Tree/Sub/b.txt'), file('loose.txt')]));
    expect(placed.map((p) => [p.file?.name, p.dirs.join('/')])).toEqual([['a.txt', 'Tree'], ['b.txt', 'Tree/Sub'], ['loose.txt', '']]);
  });

  it('refuses, naming them, folders it cannot read instead of flattening or dropping them silently', async () => {
    const refused = await placedFromDrop(dropOf([file('ok.txt'), folderLike('Verträge'), null])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnreadableDropError);
    expect((refused as UnreadableDropError).names).toEqual(['Verträge', '?']);
  });
});
