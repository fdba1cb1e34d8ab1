import { AUTHORIZATION_ERROR, AUTHORIZATION_ERRORS_HEADER, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { readMailbox } from './mailbox';
import type { TestServer } from './server';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`;

async function signInAttempt(server: TestServer, email: string, password: string, code?: string): Promise<{ status: number; errors: AuthorizationErrorEntry[] }> {
  const query = code ? `?j_verification_code=${code}` : '';
  const response = await fetch(`${server.url}/api/2/auth${query}`, { method: 'POST', headers: { authorization: basic(email, password), 'content-type': 'application/json' } });
  await response.arrayBuffer();
  const header = response.headers.get(AUTHORIZATION_ERRORS_HEADER);
  return { status: response.status, errors: header ? (JSON.parse(header) as AuthorizationErrorEntry[]) : [] };
}

/**
 * What the owner of an account an administrator made does at the first sign-in: the server mails a
 * code to the address (read from the server's mailbox folder, like a person reads their mail) and
 * the owner signs in with it. Afterwards the address counts as proven. `codeMailText` reads the
 * newest code mail's text where mail goes elsewhere (a test SMTP server); default: the mailbox folder.
 */
export async function proveAddress(server: TestServer, email: string, password: string, codeMailText?: () => Promise<string>): Promise<void> {
  const first = await signInAttempt(server, email, password);
  if (first.status === 200 || !first.errors.some((e) => e.authorizationError === AUTHORIZATION_ERROR.ACCOUNT_VERIFICATION_REQUIRED)) return;
  // The newest code mail to the address (a code is not mailed again within a minute, so it may be older than this attempt).
  const text = codeMailText
    ? await codeMailText()
    : (await readMailbox(server.mailboxDir)).filter((m) => m.to.toLowerCase().includes(email.toLowerCase()) && /^\s*\d{6}\s*$/m.test(m.text)).at(-1)?.text;
  if (!text) throw new Error(`no verification mail for ${email}`);
  const code = /^\s*(\d{6})\s*$/m.exec(text)?.[1];
  if (!code) throw new Error(`no verification code in the mail to ${email}`);
  const second = await signInAttempt(server, email, password, code);
  if (second.errors.some((e) => e.authorizationError === AUTHORIZATION_ERROR.WRONG_ACCOUNT_VERIFICATION_CODE)) {
    throw new Error(`the verification code for ${email} was refused: ${JSON.stringify(second.errors)}`);
  }
}
