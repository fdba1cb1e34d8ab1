import { FALLBACK_LANGUAGE, LANGUAGES, reduceLanguage, type Language } from '@shared/contract/constants';
import { createInstance, type i18n as I18n } from 'i18next';
import { DEFAULT_NAMESPACE } from './namespaces';

/**
 * A fresh i18next instance with de/en/fr and the `en` fallback over the given texts. Apart from
 * `i18n.ts` (which passes every namespace), so a client needing a few namespaces — the add-in's
 * task pane — does not bundle the whole catalogue.
 */
export function createI18nWith(language: string, plugins: Parameters<I18n['use']>[0][], resources: Record<Language, Record<string, unknown>>): { i18n: I18n; ready: Promise<unknown> } {
  const i18n = createInstance();
  for (const plugin of plugins) i18n.use(plugin);
  const ready = i18n.init({
    lng: reduceLanguage(language),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(resources[FALLBACK_LANGUAGE]),
    defaultNS: DEFAULT_NAMESPACE,
    resources: resources as Record<Language, Record<string, Record<string, unknown>>>,
    interpolation: { escapeValue: false }, // React escapes already.
    returnNull: false,
    initAsync: false,
  });
  return { i18n, ready };
}
