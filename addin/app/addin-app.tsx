import { Button, FluentProvider, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import type { OfficeHost } from '@addin/office/office-host';
import type { AddinClient } from '@addin/session/addin-client';
import { getConfigProfile, type ConfigProfile } from '@shared/api/endpoints/config-profile';
import { getCurrentUser } from '@shared/api/endpoints/current-user';
import { CONFIG_KEYS } from '@shared/contract/config';
import { THEME_ASSET_PATHS, THEME_PROFILE_KEYS } from '@shared/contract/theme';
import { addinKeys } from '@addin/crypto/addin-crypto';
import { getLogout } from '@shared/api/endpoints/logout';
import type { User } from '@shared/contract/user';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { createAddinTheme } from './addin-theme';
import { useTranslation } from 'react-i18next';
import { SignInScreen } from '../auth/sign-in-screen';

// The first screen is the sign-in (or a spinner): the send screen (transfer engine, E2E) and the
// read screen load behind it, which keeps the pane's initial script within its budget (tests/bench/addin.ts).
const SendScreen = lazy(() => import(/* webpackChunkName: "addin-send" */ '../send/send-screen').then((m) => ({ default: m.SendScreen })));
const ReadScreen = lazy(() => import(/* webpackChunkName: "addin-read" */ '../read/read-screen').then((m) => ({ default: m.ReadScreen })));

const useStyles = makeStyles({
  main: { padding: '12px', display: 'grid', gap: '12px' },
  bar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center' },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '8px 12px',
    fontWeight: 600,
    background: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  logo: { height: '24px', maxWidth: '96px', objectFit: 'contain' },
});

/** The task pane: read mode opens deliveries; compose mode is the send screen behind the auth guard. */
export function AddinApp({ host, addin }: { host: OfficeHost; addin: AddinClient }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [user, setUser] = useState<User | null | undefined>(undefined);
  // The installation's colours, title and logo (public profile), as the web client shows them.
  const [config, setConfig] = useState<ConfigProfile>({});
  const theme = useMemo(() => createAddinTheme(config), [config]);

  useEffect(() => {
    getConfigProfile(addin.client).then(setConfig, (error: unknown) => console.error('Loading the configuration profile failed', error));
  }, [addin]);

  useEffect(() => {
    if (!addin.getToken()) {
      setUser(null);
      return;
    }
    getCurrentUser(addin.client)
      .then(({ user: current }) => {
        if (!current) addin.setToken(null);
        setUser(current);
      })
      .catch(() => setUser(null));
  }, [addin]);

  const signedOut = useCallback(() => {
    addin.setToken(null);
    // Signing out (or a lost session) forgets the unlocked SecuPass keys.
    void addinKeys.lock();
    setUser(null);
  }, [addin]);

  async function logout() {
    // Revokes the token on the server, then forgets it here whatever the answer.
    await getLogout(addin.client).catch(() => undefined);
    signedOut();
  }

  let content;
  if (host.mode === 'read') content = <ReadScreen host={host} />;
  else if (user === undefined) content = <Spinner label={t('addin:loading')} />;
  else if (user === null) content = <SignInScreen addin={addin} host={host} onSignedIn={setUser} />;
  else content = <SendScreen addin={addin} host={host} userUuid={user.uuid} onSignedOut={signedOut} />;

  return (
    <FluentProvider theme={theme}>
      <header className={styles.brand} data-testid="addin-brand">
        <img src={typeof config[THEME_PROFILE_KEYS.logoUrl] === 'string' ? String(config[THEME_PROFILE_KEYS.logoUrl]) : THEME_ASSET_PATHS.logo} alt="" className={styles.logo} data-testid="addin-logo" />
        <span>{typeof config[CONFIG_KEYS.webUiTitle] === 'string' && config[CONFIG_KEYS.webUiTitle] !== '' ? String(config[CONFIG_KEYS.webUiTitle]) : 'Kuvert'}</span>
      </header>
      <main className={styles.main}>
        {user && host.mode !== 'read' && (
          <div className={styles.bar}>
            <span data-testid="addin-user">{user.email}</span>
            <Button size="small" onClick={() => void logout()}>
              {t('addin:signOut')}
            </Button>
          </div>
        )}
        <Suspense fallback={<Spinner label={t('addin:loading')} />}>{content}</Suspense>
      </main>
    </FluentProvider>
  );
}
