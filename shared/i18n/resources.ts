import deAdmin from '@locales/de/admin.json';
import deSecupass from '@locales/de/secupass.json';
import enAdmin from '@locales/en/admin.json';
import enSecupass from '@locales/en/secupass.json';
import frAdmin from '@locales/fr/admin.json';
import frSecupass from '@locales/fr/secupass.json';
import deAuth from '@locales/de/auth.json';
import deCommon from '@locales/de/common.json';
import deSettings from '@locales/de/settings.json';
import deShell from '@locales/de/shell.json';
import enAuth from '@locales/en/auth.json';
import enCommon from '@locales/en/common.json';
import enSettings from '@locales/en/settings.json';
import enShell from '@locales/en/shell.json';
import frAuth from '@locales/fr/auth.json';
import frCommon from '@locales/fr/common.json';
import frSettings from '@locales/fr/settings.json';
import frShell from '@locales/fr/shell.json';
import deDeliveries from '@locales/de/deliveries.json';
import enDeliveries from '@locales/en/deliveries.json';
import frDeliveries from '@locales/fr/deliveries.json';
import deAddin from '@locales/de/addin.json';
import enAddin from '@locales/en/addin.json';
import frAddin from '@locales/fr/addin.json';
import type { Language } from '@shared/contract/constants';
import type { I18nNamespace } from './namespaces';

/** All bundled resources; small enough (a few kB) to ship in the entry chunk. */
export const I18N_RESOURCES: Record<Language, Record<I18nNamespace, Record<string, unknown>>> = {
  de: { common: deCommon, shell: deShell, auth: deAuth, settings: deSettings, secupass: deSecupass, admin: deAdmin, deliveries: deDeliveries, addin: deAddin },
  en: { common: enCommon, shell: enShell, auth: enAuth, settings: enSettings, secupass: enSecupass, admin: enAdmin, deliveries: enDeliveries, addin: enAddin },
  fr: { common: frCommon, shell: frShell, auth: frAuth, settings: frSettings, secupass: frSecupass, admin: frAdmin, deliveries: frDeliveries, addin: frAddin },
};
