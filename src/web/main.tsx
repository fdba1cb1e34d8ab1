// First: the browser runs under a CSP without eval (see the module).
import '@shared/contract/zod-jitless';
import { makeStaticStyles } from '@fluentui/react-components';
import { App } from '@web/app/app';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Not a <style> in index.html: the page's Content-Security-Policy allows no inline markup styles we write ourselves.
const useDocumentStyles = makeStaticStyles({ 'html, body': { margin: 0 }, body: { fontFamily: "'Segoe UI', system-ui, -apple-system, sans-serif" } });

function Root() {
  useDocumentStyles();
  return <App />;
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');
createRoot(container).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
