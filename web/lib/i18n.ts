import { getKeepAlive } from '@shared/api/endpoints/keep-alive';
import { postUpdateLoggedInUser } from '@shared/api/endpoints/update-logged-in-user';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import { createI18n } from '@shared/i18n/i18n';
import { detectLanguage, storeLanguage } from '@shared/i18n/language-storage';
import { initReactI18next } from 'react-i18next';
import { apiClient, browserStorage } from './api-client';
import { authStore } from './auth';

const initial = detectLanguage(browserStorage, typeof navigator === 'undefined' ? [] : navigator.languages);

/** The app's i18next instance (resources bundled, initialised synchronously). */
export const { i18n } = createI18n(initial, [initReactI18next]);

function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}
applyDocumentLanguage(initial);

// Legacy /webui pages learn the language through keep-alive with ?lang= (SPEC §2, §7).
i18n.on('languageChanged', (code) => {
  const language = reduceLanguage(code);
  applyDocumentLanguage(language);
  getKeepAlive(apiClient, language).catch((error: unknown) => console.warn('language sync with /webui failed', error));
});

export function currentLanguage(): Language {
  return reduceLanguage(i18n.language);
}

/**
 * Switches the interface language, keeps it in localStorage and, when signed in, on the user
 * (POST /user/updateLoggedInUser; failure only logged, SPEC §7).
 */
export async function changeLanguage(code: string, options: { persistOnUser?: boolean } = {}): Promise<void> {
  const language = reduceLanguage(code);
  storeLanguage(browserStorage, language);
  if (reduceLanguage(i18n.language) !== language) await i18n.changeLanguage(language);
  const user = authStore.getState().user;
  if ((options.persistOnUser ?? true) && user && user.language !== language) {
    try {
      await postUpdateLoggedInUser(apiClient, language);
      authStore.setUser({ ...user, language });
    } catch (error) {
      console.warn('persisting the language failed', error);
    }
  }
}
