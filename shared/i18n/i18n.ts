import { reduceLanguage, type Language } from '@shared/contract/constants';
import type { i18n as I18n } from 'i18next';
import { createI18nWith } from './create-i18n';
import { I18N_RESOURCES } from './resources';

export { reduceLanguage };

/** Native names for the language switcher (SPEC §2). */
export const LANGUAGE_NAMES: Record<Language, string> = { de: 'Deutsch', en: 'English', fr: 'Français' };

/**
 * A fresh i18next instance with de/en/fr, `en` fallback and every namespace loaded.
 * Framework-free: the web client adds react-i18next on top (`instance.use(initReactI18next)` before init).
 */
export function createI18n(language: string, plugins: Parameters<I18n['use']>[0][] = []): { i18n: I18n; ready: Promise<unknown> } {
  return createI18nWith(language, plugins, I18N_RESOURCES);
}
