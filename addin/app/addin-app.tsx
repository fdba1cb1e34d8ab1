import { Button, FluentProvider, Spinner, makeStyles, webLightTheme } from '@fluentui/react-components';
import type { OfficeHost } from '@addin/office/office-host';
import type { AddinClient } from '@addin/session/addin-client';
import { getCurrentUser } from '@shared/api/endpoints/current-user';
import { addinKeys } from '@addin/crypto/addin-crypto';
import { getLogout } from '@shared/api/endpoints/logout';
import type { User } from '@shared/contract/user';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignInScreen } from '../auth/sign-in-screen';
import { ReadScreen } from '../read/read-screen';
import { SendScreen } from '../send/send-screen';

const useStyles = makeStyles({
  main: { padding: '12px', display: 'grid', gap: '12px' },
  bar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center' },
});

/** The task pane: read mode opens deliveries; compose mode is the send screen behind the auth guard. */
export function AddinApp({ host, addin }: { host: OfficeHost; addin: AddinClient }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [user, setUser] = useState<User | null | undefined>(undefined);

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
    <FluentProvider theme={webLightTheme}>
      <main className={styles.main}>
        {user && host.mode !== 'read' && (
          <div className={styles.bar}>
            <span data-testid="addin-user">{user.email}</span>
            <Button size="small" onClick={() => void logout()}>
              {t('addin:signOut')}
            </Button>
          </div>
        )}
        {content}
      </main>
    </FluentProvider>
  );
}
