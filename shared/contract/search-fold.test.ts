import { describe, expect, it } from 'vitest';
import { foldedIncludes, foldForSearch } from './search-fold';

describe('foldForSearch', () => {
  it('finds upper-case accented names by any case and with or without the accent', () => {
    for (const q of ['Überblick', 'überblick', 'uberblick', 'UBERBLICK', 'blick']) expect(foldedIncludes('Überblick Q3.pdf', foldForSearch(q))).toBe(true);
    expect(foldedIncludes('Projekt Ä', foldForSearch('projekt a'))).toBe(true);
    expect(foldedIncludes('Élysée', foldForSearch('elysee'))).toBe(true);
  });

  it('folds a decomposed name (NFD, as macOS writes file names) like a composed one', () => {
    expect(foldForSearch('U\u0308berblick')).toBe(foldForSearch('\u00dcberblick'));
  });

  it('does not match what is not there', () => {
    expect(foldedIncludes('Überblick', foldForSearch('oberblick'))).toBe(false);
    expect(foldedIncludes('Vertrag', foldForSearch('verträge'))).toBe(false);
  });
});
