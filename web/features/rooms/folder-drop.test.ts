import { describe, expect, it } from 'vitest';
import { foldersToCreate, placedFromPicker } from './folder-drop';

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
