import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_KEYS } from '@shared/contract/config';
import { SETTING_KEYS } from '@shared/contract/settings';
import { WIZARD_TEXTS } from '@server/pages/wizard-texts';
import { ensureFirstAdmin } from '@server/setup/first-admin';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterEach, describe, expect, it } from 'vitest';
import { call, postAuth, signIn } from './core-helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const profile = async (s: TestServer) => (await (await fetch(`${s.url}/api/2/config/profile`)).json()).config;
/** What the start command does and prints: the wizard's setup code. */
async function setupCodeOf(s: TestServer): Promise<string> {
  const first = await ensureFirstAdmin(s.app, {});
  if (!('setupCode' in first)) throw new Error('expected the wizard to run');
  return first.setupCode;
}
const wizardForm = (setupCode: string, fields: Record<string, string>) =>
  new URLSearchParams({ setupCode, organisation: 'Acme', email: 'boss@acme.test', password: 'Wizard-Passw0rd', passwordRepeat: 'Wizard-Passw0rd', mailTransport: 'mailbox', ...fields });

describe('installation wizard', () => {
  it('runs on an empty database: wizard unfinished, form in de/en/fr', async () => {
    server = await startTestServer({ admin: false });
    expect((await profile(server))[CONFIG_KEYS.wizardFinished]).toBe(false);
    const en = await fetch(`${server.url}/webui/wizard`);
    expect(en.status).toBe(200);
    expect(await en.text()).toContain('First administrator');
    const de = await fetch(`${server.url}/webui/wizard`, { headers: { 'accept-language': 'de-AT,de;q=0.9' } });
    expect(await de.text()).toContain('lang="de"');
    const fr = await fetch(`${server.url}/webui/wizard?lang=fr`);
    expect(await fr.text()).toContain('Premier administrateur');
  });

  it('refuses a weak password, mismatching passwords and a bad SMTP URL, with the form again', async () => {
    server = await startTestServer({ admin: false });
    const setupCode = await setupCodeOf(server);
    const attempts: Record<string, string>[] = [{ password: 'weak', passwordRepeat: 'weak' }, { passwordRepeat: 'Other-Passw0rd' }, { mailTransport: 'smtp', smtpUrl: 'not a url' }, { email: 'nope' }];
    for (const fields of attempts) {
      const response = await fetch(`${server.url}/webui/wizard`, { method: 'POST', body: wizardForm(setupCode, fields), redirect: 'manual' });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.text()).toContain('role="alert"');
    }
    expect((await profile(server))[CONFIG_KEYS.wizardFinished]).toBe(false);
  });

  it('lists every problem at once and keeps what was typed, a wrong code and mismatching passwords excepted', async () => {
    server = await startTestServer({ admin: false });
    const setupCode = await setupCodeOf(server);
    // Empty organisation, bad address, bad SMTP URL, and a right code and password: all named, the right ones kept.
    const several = await fetch(`${server.url}/webui/wizard`, {
      method: 'POST',
      body: wizardForm(setupCode, { organisation: '', email: 'nope', mailTransport: 'smtp', smtpUrl: 'not a url' }),
      redirect: 'manual',
    });
    expect(several.status).toBe(400);
    expect(several.headers.get('cache-control')).toBe('no-store');
    const page = await several.text();
    for (const text of [WIZARD_TEXTS.en.errFieldRequired!, WIZARD_TEXTS.en.errEmail!, WIZARD_TEXTS.en.errSmtp!]) expect(page).toContain(text);
    expect(page).not.toContain(WIZARD_TEXTS.en.errSetupCode!);
    expect(page).toMatch(new RegExp(`id="setupCode"[^>]*value="${setupCode}"`));
    expect(page).toMatch(/id="password"[^>]*value="Wizard-Passw0rd"/);
    expect(page).toMatch(/id="email"[^>]*value="nope"[^>]*aria-invalid="true"/);
    expect(page).toMatch(/id="organisation"[^>]*aria-describedby="organisation-error"/);
    // A wrong code and mismatching passwords: both named; those fields are typed anew, the others kept.
    const wrong = await fetch(`${server.url}/webui/wizard`, { method: 'POST', body: wizardForm('AAAA-BBBB-CCCC', { passwordRepeat: 'Other-Passw0rd' }), redirect: 'manual' });
    expect(wrong.status).toBe(403);
    const again = await wrong.text();
    expect(again).toContain(WIZARD_TEXTS.en.errSetupCode!);
    expect(again).toContain(WIZARD_TEXTS.en.errMismatch!);
    expect(again).toMatch(/id="setupCode"[^>]*value=""/);
    expect(again).toMatch(/id="password"[^>]*value=""/);
    expect(again).toMatch(/id="organisation"[^>]*value="Acme"/);
    expect(await server.app.users.countAdmins()).toBe(0);
  });

  it('creates the first admin, stores organisation and mail, finishes with a next-steps page', async () => {
    server = await startTestServer({ admin: false });
    const setupCode = await setupCodeOf(server);
    const response = await fetch(`${server.url}/webui/wizard`, {
      method: 'POST',
      body: wizardForm(setupCode.toLowerCase().replaceAll('-', ' '), { mailTransport: 'smtp', smtpUrl: 'smtp://relay.acme.test:587' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    // The success step says what to do next and links to the sign-in.
    const done = await response.text();
    expect(done).toContain(WIZARD_TEXTS.en.doneTitle!);
    expect(done).toContain(WIZARD_TEXTS.en.doneIntro!.replace('{email}', 'boss@acme.test'));
    expect(done).toContain(WIZARD_TEXTS.en.doneSmtp!);
    expect(done).toContain('href="/auth/login"');
    expect((await profile(server))[CONFIG_KEYS.wizardFinished]).toBe(true);
    expect(await server.app.settings.get(SETTING_KEYS.organisationName)).toBe('Acme');
    expect(await server.app.settings.get(SETTING_KEYS.mailTransport)).toBe('smtp');
    const admin = await signIn(server, 'boss@acme.test', 'Wizard-Passw0rd');
    expect((await call(server, admin, 'GET', '/api/2/admin/settings')).status).toBe(200);
    // Once finished, the wizard only points at the login page.
    const again = await fetch(`${server.url}/webui/wizard`, { redirect: 'manual' });
    expect(again.status).toBe(303);
    const replay = await fetch(`${server.url}/webui/wizard`, { method: 'POST', body: wizardForm(setupCode, { email: 'evil@acme.test' }), redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect((await postAuth(server, 'evil@acme.test', 'Wizard-Passw0rd')).response.status).toBe(401);
  });

  it('the wizard needs the setup code the start printed: none, a wrong one or an older one creates nothing', async () => {
    server = await startTestServer({ admin: false });
    // Before any start made a code (or after it was cleared), no code is right.
    const noneYet = await fetch(`${server.url}/webui/wizard`, { method: 'POST', body: wizardForm('AAAA-BBBB-CCCC', {}), redirect: 'manual' });
    expect(noneYet.status).toBe(403);
    const older = await setupCodeOf(server);
    const current = await setupCodeOf(server); // a restart prints a new code
    expect(current).not.toBe(older);
    for (const code of ['', 'AAAA-BBBB-CCCC', older]) {
      const response = await fetch(`${server.url}/webui/wizard`, { method: 'POST', body: wizardForm(code, {}), redirect: 'manual' });
      expect([400, 403], code).toContain(response.status);
      expect(await response.text()).toContain('role="alert"');
    }
    expect(await server.app.users.countAdmins()).toBe(0);
    expect((await profile(server))[CONFIG_KEYS.wizardFinished]).toBe(false);
    const ok = await fetch(`${server.url}/webui/wizard`, { method: 'POST', body: wizardForm(current, {}), redirect: 'manual' });
    expect(ok.status).toBe(200);
    expect(await server.app.users.countAdmins()).toBe(1);
  });

  it('first start without KUVERT_ADMIN_*: no password is generated, the wizard runs at /webui/wizard', async () => {
    server = await startTestServer({ admin: false });
    expect(await ensureFirstAdmin(server.app, {})).toEqual({ wizardPath: '/webui/wizard', setupCode: expect.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/) });
    expect(await server.app.users.countAdmins()).toBe(0);
    expect((await profile(server))[CONFIG_KEYS.wizardFinished]).toBe(false);
    expect((await fetch(`${server.url}/webui/wizard`)).status).toBe(200);
    // The legacy welcome page leads there too.
    const welcome = await fetch(`${server.url}/webui/welcome`, { redirect: 'manual' });
    expect(welcome.headers.get('location')).toBe('/webui/wizard');
    // Half the credentials is no credentials.
    expect(await ensureFirstAdmin(server.app, { email: 'half@acme.test' })).toMatchObject({ wizardPath: '/webui/wizard' });
    expect(await server.app.users.countAdmins()).toBe(0);
  });

  it('the non-interactive path (KUVERT_ADMIN_*) creates the admin and finishes the wizard', async () => {
    server = await startTestServer({ admin: false });
    const result = await ensureFirstAdmin(server.app, { email: 'ops@acme.test', password: 'Scripted-Passw0rd' });
    expect(result).toEqual({ created: { email: 'ops@acme.test' } });
    expect((await profile(server))[CONFIG_KEYS.wizardFinished]).toBe(true);
    expect((await postAuth(server, 'ops@acme.test', 'Scripted-Passw0rd')).response.status).toBe(200);
    expect((await fetch(`${server.url}/webui/wizard`, { redirect: 'manual' })).status).toBe(303);
    // A second start creates nobody.
    expect(await ensureFirstAdmin(server.app, { email: 'other@acme.test', password: 'Scripted-Passw0rd' })).toEqual({});
  });
});

describe('legacy pages and the web client', () => {
  it('serves keepAlive, logo and favicon; other /webui pages redirect, none 404s', async () => {
    server = await startTestServer();
    expect((await fetch(`${server.url}/webui/keepAlive.html`)).status).toBe(200);
    const logo = await fetch(`${server.url}/webui/logo.svg`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect((await fetch(`${server.url}/webui/favicon.ico`)).status).toBe(200);
    for (const path of ['/webui/settings', '/webui/admin/users', '/webui/sso', '/webui/signup', '/webui/twoFactor', '/webui/whatever/else', '/webui']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect([301, 302, 303], path).toContain(response.status);
    }
  });

  it('/webjars/secumails/:locale is an alias of /secumails/:locale (query kept), for de|en|fr only; /webui/inbox keeps its query', async () => {
    server = await startTestServer();
    for (const [path, target] of [
      ['/webjars/secumails/de/download?x=1&y=2', '/secumails/de/download?x=1&y=2'],
      ['/webjars/secumails/fr/email-prompt/0b3c9f4e-1d2a-4c5b-8e7f-123456789abc', '/secumails/fr/email-prompt/0b3c9f4e-1d2a-4c5b-8e7f-123456789abc'],
      ['/webjars/secumails/en', '/secumails/en'],
      ['/webui/inbox?settings=true', '/secumails/inbox?settings=true'],
      ['/webui/inbox', '/secumails/inbox'],
    ]) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(target);
    }
    for (const path of ['/webjars/secumails/xx/download', '/webjars/secumails/', '/webjars/secumails/english/inbox']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/json/);
    }
  });

  it('serves the built client: /, SPA routes, /webjars assets; API paths stay JSON 404', async () => {
    const webRoot = join(process.env.TMPDIR ?? '/tmp', `kuvert-web-${Date.now()}`);
    await mkdir(join(webRoot, 'webjars'), { recursive: true });
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Kuvert SPA</title>');
    await writeFile(join(webRoot, 'webjars', 'main.0123abcd.js'), 'console.log(1)');
    server = await startTestServer({ config: { webRoot } });
    for (const path of ['/', '/secumails/inbox', '/auth/login?continue=%2Fsettings']) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('Kuvert SPA');
    }
    const asset = await fetch(`${server.url}/webjars/main.0123abcd.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${server.url}/webjars/missing.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/webjars/../index.html`)).status).not.toBe(500);
    const api = await fetch(`${server.url}/api/2/nothing`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/json/);
  });
});
