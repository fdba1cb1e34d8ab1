import { FluentProvider, Toaster } from '@fluentui/react-components';
import { TOAST } from '@shared/theme/constants';
import { useConfigState } from '@web/lib/config-store';
import { i18n } from '@web/lib/i18n';
import { TOASTER_ID } from '@web/lib/toasts';
import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { createAppRouter } from './router';
import { createAppTheme } from './theme';

const router = createAppRouter();

/** Composition root: i18n, theme from the config profile, SWR, toasts, router. */
export function App() {
  const { config } = useConfigState();
  const theme = useMemo(() => createAppTheme(config), [config]);
  return (
    <I18nextProvider i18n={i18n}>
      <FluentProvider theme={theme.fluent} style={{ ...theme.cssVariables, minHeight: '100vh' }}>
        <SWRConfig value={{ revalidateOnFocus: false }}>
          <RouterProvider router={router} />
        </SWRConfig>
        <Toaster
          toasterId={TOASTER_ID}
          position="top-end"
          limit={TOAST.limit}
          timeout={TOAST.durationMs}
          pauseOnHover
          pauseOnWindowBlur
          shortcuts={{ focus: (event) => event.key === TOAST.hotkey }}
        />
      </FluentProvider>
    </I18nextProvider>
  );
}
