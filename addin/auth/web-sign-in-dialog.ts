import { messageParent } from '@addin/office/office-host';
import { ADDIN_SESSION_EXCHANGE_PATH } from '@shared/contract/auth';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { API_BASE } from '@shared/contract/constants';

/**
 * Runs in the Office dialog (dialog.html) the pane opens for the web sign-in. Without a web
 * session it goes to the web sign-in (captcha, SSO, registration steps all live there) and comes
 * back here; with one, it trades the cookie session for an add-in bearer token and hands the
 * token to the pane (`messageParent`). Answers are JSON: `{ token }` or `{ error }`.
 */
export async function handOverWebSession(): Promise<void> {
  const me = await fetch(`${API_BASE}/user`, { credentials: 'include', headers: { accept: 'application/json' } });
  if (me.status === 401 || me.status === 403) {
    window.location.replace(`/auth/login?continue=${encodeURIComponent(window.location.pathname)}`);
    return;
  }
  const csrf = me.headers.get(ANTI_CSRF_HEADER) ?? '';
  const exchange = await fetch(`${API_BASE}${ADDIN_SESSION_EXCHANGE_PATH}`, {
    method: 'POST',
    credentials: 'include',
    headers: { accept: 'application/json', [ANTI_CSRF_HEADER]: csrf },
  });
  if (exchange.ok) {
    const { sessionToken } = (await exchange.json()) as { sessionToken: string };
    await messageParent(JSON.stringify({ token: sessionToken }));
  } else {
    await messageParent(JSON.stringify({ error: exchange.status === 403 ? 'forbidden' : 'unknown' }));
  }
}
