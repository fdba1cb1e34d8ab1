// First: the browser runs under a CSP without eval (see the module).
import '@shared/contract/zod-jitless';
import { AddinApp } from '@addin/app/addin-app';
import { ADDIN_I18N_RESOURCES } from '@addin/app/addin-resources';
import { onOfficeReady } from '@addin/office/office-host';
import { createAddinClient } from '@addin/session/addin-client';
import { createBrowserStorageAdapter } from '@shared/api/storage-adapter';
import { createI18nWith } from '@shared/i18n/create-i18n';
import { makeStaticStyles } from '@fluentui/react-components';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';

// Not a <style> in taskpane.html: the pane's Content-Security-Policy is written without inline markup.
const useDocumentStyles = makeStaticStyles({ 'html, body': { margin: 0 }, body: { fontFamily: "'Segoe UI', system-ui, -apple-system, sans-serif" } });

function DocumentStyles() {
  useDocumentStyles();
  return null;
}

// Render only after Office.onReady (office.js must have initialised the mailbox).
void onOfficeReady().then((host) => {
  const container = document.getElementById('root');
  if (!container) throw new Error('taskpane.html lacks #root');
  // The pane speaks Outlook's display language (reduced to de/en/fr).
  const { i18n } = createI18nWith(host.displayLanguage, [initReactI18next], ADDIN_I18N_RESOURCES);
  document.documentElement.lang = i18n.language;
  const addin = createAddinClient(createBrowserStorageAdapter());
  createRoot(container).render(
    <StrictMode>
      <DocumentStyles />
      <I18nextProvider i18n={i18n}>
        <AddinApp host={host} addin={addin} />
      </I18nextProvider>
    </StrictMode>,
  );
});
