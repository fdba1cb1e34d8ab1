import { reduceLanguage, type Language } from '@shared/contract/constants';
import type { KeyValueStorage } from '../api/storage-adapter';

/** Local-storage key of the interface language (SPEC §7). */
export const LANGUAGE_STORAGE_KEY = 'language';

/** Stored choice first, else the browser's preferred language, reduced to de/en/fr (SPEC §1). */
export function detectLanguage(storage: KeyValueStorage, preferred: readonly string[] = []): Language {
  const stored = storage.getItem(LANGUAGE_STORAGE_KEY);
  if (stored) return reduceLanguage(stored);
  return reduceLanguage(preferred[0]);
}

export function storeLanguage(storage: KeyValueStorage, language: Language): void {
  storage.setItem(LANGUAGE_STORAGE_KEY, language);
}
