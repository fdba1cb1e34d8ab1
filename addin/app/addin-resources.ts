import deAddin from '@locales/de/addin.json';
import enAddin from '@locales/en/addin.json';
import frAddin from '@locales/fr/addin.json';
import deCommon from '@locales/de/common.json';
import enCommon from '@locales/en/common.json';
import frCommon from '@locales/fr/common.json';

/**
 * The texts the task pane uses (its own namespace, and common): not the web client's whole
 * catalogue of every language, which alone would overrun the pane's initial-script budget
 * (tests/bench/addin.ts, 300 KiB gzip).
 */
export const ADDIN_I18N_RESOURCES = {
  de: { addin: deAddin, common: deCommon },
  en: { addin: enAddin, common: enCommon },
  fr: { addin: frAddin, common: frCommon },
};
