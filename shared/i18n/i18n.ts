import { FALLBACK_LANGUAGE, LANGUAGES, reduceLanguage, type Language } from '@shared/contract/constants';
import { createInstance, type i18n as I18n } from 'i18next';
import { DEFAULT_NAMESPACE, I18N_NAMESPACES } from './namespaces';
import { I18N_RESOURCES } from './resources';

export { reduceLanguage };

/** Native names for the language switcher (SPEC §2). */
export const LANGUAGE_NAMES: Record<Language, string> = { de: 'Deutsch', en: 'English', fr: 'Français' };

/**
 * A fresh i18next instance with de/en/fr, `en` fallback and every namespace loaded.
 * Framework-free: the web client adds react-i18next on top (`instance.use(initReactI18next)` before init).
 */
export function createI18n(language: string, plugins: Parameters<I18n['use']>[0][] = []): { i18n: I18n; ready: Promise<unknown> } {
  const i18n = createInstance();
  for (const plugin of plugins) i18n.use(plugin);
  const ready = i18n.init({
    lng: reduceLanguage(language),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: [...I18N_NAMESPACES],
    defaultNS: DEFAULT_NAMESPACE,
    resources: I18N_RESOURCES,
    interpolation: { escapeValue: false }, // React escapes already.
    returnNull: false,
    initAsync: false,
  });
  return { i18n, ready };
}
