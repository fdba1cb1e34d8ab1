// The Outlook add-in's server side: the manifest (valid offline, served for the server's own
// host) and the bearer sessions (DESIGN §2, SPEC §6 ROLE_OUTLOOK), against a real server.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADDIN_CLIENT_HEADER, ADDIN_CLIENT_VALUE, ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { AUTHORIZATION_ERROR, AUTHORIZATION_ERRORS_HEADER } from '@shared/contract/errors';
import { MANIFEST_TEMPLATE_PATH, rewriteManifestUrls } from '@server/outlook/manifest';
import { startTestServer, type TestServer } from '@tests/support/server';
import officeAddinManifest from 'office-addin-manifest';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectBackendError, forgetFailures, signIn } from './core-helpers';
import { basic, createUser } from './escalation-helpers';

const { OfficeAddinManifest } = officeAddinManifest;

// ---------------------------------------------------------------- manifest

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A small XML reader for the manifest's checks (elements, attributes, text; no DTDs, no CDATA). */
function parseXml(xml: string): XmlElement {
  const body = xml.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(\/?)>|([^<]+)/g;
  for (const m of body.matchAll(tag)) {
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      top.text += m[5].trim();
      continue;
    }
    if (m[1]) {
      if (top.name !== m[2]) throw new Error(`mismatched </${m[2]}> in <${top.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of (m[3] ?? '').matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)) attributes[a[1]!] = a[2]!;
    const element: XmlElement = { name: m[2]!, attributes, children: [], text: '' };
    top.children.push(element);
    if (!m[4]) stack.push(element);
  }
  if (stack.length !== 1) throw new Error('unclosed elements');
  return root.children[0]!;
}

const child = (e: XmlElement, name: string) => e.children.find((c) => c.name === name);
const all = (e: XmlElement): XmlElement[] => [e, ...e.children.flatMap(all)];

/** Every URL the manifest names (attribute values and element texts). */
function urlsOf(root: XmlElement): string[] {
  return all(root).flatMap((e) => [...Object.values(e.attributes), e.text].filter((v) => /^[a-z]+:\/\//i.test(v)));
}

/** The checks Outlook makes on an XML mail add-in manifest, as far as they can be made offline. */
function checkManifest(xml: string): XmlElement {
  const root = parseXml(xml);
  expect(root.name).toBe('OfficeApp');
  expect(root.attributes['xsi:type']).toBe('MailApp');
  // The schema's order of the MailApp elements (OfficeApp v1.1 XSD).
  const order = ['Id', 'Version', 'ProviderName', 'DefaultLocale', 'DisplayName', 'Description', 'IconUrl', 'HighResolutionIconUrl',
    'SupportUrl', 'AppDomains', 'Hosts', 'Requirements', 'FormSettings', 'Permissions', 'Rule', 'DisableEntityHighlighting', 'VersionOverrides'];
  expect(root.children.map((c) => c.name)).toEqual(order);
  expect(child(root, 'Id')!.text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(child(root, 'Version')!.text).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  // Localized names and descriptions (de, en default, fr).
  for (const name of ['DisplayName', 'Description']) {
    const element = child(root, name)!;
    expect(element.attributes.DefaultValue).toBeTruthy();
    expect(element.children.map((c) => c.attributes.Locale).sort()).toEqual(['de-DE', 'fr-FR']);
  }
  expect(child(root, 'DefaultLocale')!.text).toBe('en-US');
  expect(child(child(root, 'Hosts')!, 'Host')!.attributes.Name).toBe('Mailbox');
  const set = all(child(root, 'Requirements')!).find((e) => e.name === 'Set')!;
  expect(set.attributes).toMatchObject({ Name: 'Mailbox', MinVersion: '1.8' });
  expect(child(root, 'Permissions')!.text).toBe('ReadWriteItem');
  const forms = child(root, 'FormSettings')!.children.map((f) => f.attributes['xsi:type']);
  expect(forms.sort()).toEqual(['ItemEdit', 'ItemRead']);

  // Command surfaces: compose "Send with Kuvert" → task pane, and a read-mode entry.
  const overrides = child(root, 'VersionOverrides')!;
  const points = all(overrides).filter((e) => e.name === 'ExtensionPoint').map((e) => e.attributes['xsi:type']);
  expect(points.sort()).toEqual(['MessageComposeCommandSurface', 'MessageReadCommandSurface']);
  const resources = child(overrides, 'Resources')!;
  const ids = new Set(all(resources).map((e) => e.attributes.id).filter(Boolean));
  for (const e of all(overrides)) if (e.attributes.resid) expect(ids, `resid ${e.attributes.resid}`).toContain(e.attributes.resid);
  const strings = all(resources).filter((e) => e.name === 'bt:String');
  const sendLabel = strings.find((s) => s.attributes.id === 'SendButton.Label')!;
  expect(sendLabel.attributes.DefaultValue).toBe('Send with Kuvert');
  for (const s of strings) expect(s.children.map((c) => c.attributes.Locale).sort(), s.attributes.id).toEqual(['de-DE', 'fr-FR']);
  // Short strings ≤ 125 characters, long strings ≤ 250 (Office's limits).
  for (const s of all(child(resources, 'bt:ShortStrings')!)) if (s.attributes.DefaultValue) expect(s.attributes.DefaultValue.length).toBeLessThanOrEqual(125);
  for (const s of all(child(resources, 'bt:LongStrings')!)) if (s.attributes.DefaultValue) expect(s.attributes.DefaultValue.length).toBeLessThanOrEqual(250);
  // Button icons 16/32/80 and the add-in icons 64/128.
  const images = all(child(resources, 'bt:Images')!).filter((e) => e.name === 'bt:Image').map((e) => e.attributes.DefaultValue!);
  expect(images.map((u) => /icon-(\d+)\.png$/.exec(u)?.[1])).toEqual(['16', '32', '80']);
  expect(child(root, 'IconUrl')!.attributes.DefaultValue).toMatch(/icon-64\.png$/);
  expect(child(root, 'HighResolutionIconUrl')!.attributes.DefaultValue).toMatch(/icon-128\.png$/);

  // Every URL https and on one of the AppDomains.
  const domains = child(root, 'AppDomains')!.children.map((d) => d.text);
  expect(domains.length).toBeGreaterThan(0);
  const urls = urlsOf(root).filter((u) => !u.startsWith('http://schemas.microsoft.com/') && !u.startsWith('http://www.w3.org/'));
  expect(urls.length).toBeGreaterThan(10);
  for (const url of urls) {
    expect(url, url).toMatch(/^https:\/\//);
    expect(domains, url).toContain(new URL(url).origin);
  }
  return root;
}

describe('manifest.xml', () => {
  it('is read by office-addin-manifest and has every element Outlook requires', async () => {
    const info = await OfficeAddinManifest.readManifestFile(MANIFEST_TEMPLATE_PATH);
    expect(info).toMatchObject({ officeAppType: 'MailApp', hosts: ['Mailbox'], permissions: 'ReadWriteItem', defaultLocale: 'en-US' });
    checkManifest(readFileSync(MANIFEST_TEMPLATE_PATH, 'utf8'));
  });

  it('has every icon at its size', () => {
    for (const size of [16, 32, 64, 80, 128]) {
      const png = readFileSync(join(MANIFEST_TEMPLATE_PATH, '..', 'addin', 'assets', `icon-${size}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
  });

  it('rewrites every URL to the public URL, with a path prefix too, and stays valid', async () => {
    const rewritten = rewriteManifestUrls(readFileSync(MANIFEST_TEMPLATE_PATH, 'utf8'), 'https://kuvert.example.org/sub/');
    expect(rewritten.replace(/<!--[\s\S]*?-->/g, '')).not.toContain('localhost');
    const root = checkManifest(rewritten);
    expect(child(root, 'AppDomains')!.children.map((d) => d.text)).toEqual(['https://kuvert.example.org']);
    expect(child(root, 'SupportUrl')!.attributes.DefaultValue).toBe('https://kuvert.example.org/sub/addin/support.html');
    const dir = await mkdtemp(join(tmpdir(), 'kuvert-manifest-'));
    try {
      await writeFile(join(dir, 'manifest.xml'), rewritten);
      const info = await OfficeAddinManifest.readManifestFile(join(dir, 'manifest.xml'));
      expect(info.appDomains).toEqual(['https://kuvert.example.org']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- served by the server

describe('the server serves the add-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { publicUrl: 'https://mail.example.org' } });
  });
  afterAll(async () => server.close());

  it('answers the manifest for its own public URL at /addin/manifest.xml', async () => {
    const response = await fetch(`${server.url}/addin/manifest.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    const root = checkManifest(await response.text());
    expect(child(root, 'AppDomains')!.children.map((d) => d.text)).toEqual(['https://mail.example.org']);
  });

  it('serves the support page in the asked language and 404s unknown add-in files', async () => {
    const page = await fetch(`${server.url}/addin/support.html`, { headers: { 'accept-language': 'fr-CH,fr;q=0.9' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Kuvert pour Outlook');
    await expectBackendError(await fetch(`${server.url}/addin/nothing-here.js`), 404);
    await expectBackendError(await fetch(`${server.url}/addin/%00x`), 404);
  });
});

// ---------------------------------------------------------------- bearer sessions

const addinLogin = (server: TestServer, login: string, password: string, query: Record<string, string> = {}) =>
  fetch(`${server.url}/api/2/auth?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { authorization: basic(login, password), 'content-type': 'application/json', [ADDIN_CLIENT_HEADER]: ADDIN_CLIENT_VALUE },
  });

const withBearer = (server: TestServer, token: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });

async function tokenOf(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('set-cookie')).toBeNull();
  const body = (await response.json()) as { data: { sessionToken?: string } };
  expect(body.data.sessionToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  return body.data.sessionToken!;
}

describe('add-in bearer sessions (ROLE_OUTLOOK)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());
  beforeEach(async () => forgetFailures(server));

  const outlookRoles = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_OUTLOOK'] as const;

  it('issues a token instead of a cookie; the token signs requests in, without an anti-forgery value', async () => {
    const ada = await createUser(server, { username: 'ada', roles: [...outlookRoles] });
    const token = await tokenOf(await addinLogin(server, ada.username, ada.password));
    const me = await withBearer(server, token, '/api/2/user');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { username: 'ada' } });
    // State-changing call with the bearer token alone (no cookie could be forged into it).
    const update = await withBearer(server, token, '/api/2/user/updateLoggedInUser', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { language: 'fr' } }),
    });
    expect(update.status, await update.clone().text()).toBe(200);
  });

  it('refuses the add-in sign-in without ROLE_OUTLOOK (403, no session made)', async () => {
    const bob = await createUser(server, { username: 'bob' });
    const before = await server.app.db.selectFrom('sessions').select('id').execute();
    const refused = await expectBackendError(await addinLogin(server, bob.username, bob.password), 403, 'AccessDeniedException');
    expect(refused.metadata).toMatchObject({ reason: 'addinNotAllowed' });
    expect(await server.app.db.selectFrom('sessions').select('id').execute()).toHaveLength(before.length);
    // The web sign-in still works for bob.
    await signIn(server, bob.username, bob.password);
  });

  it('goes through the same escalations: wrong password, TOTP code', async () => {
    const cleo = await createUser(server, { username: 'cleo', roles: [...outlookRoles] });
    const wrong = await addinLogin(server, cleo.username, 'nope');
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.headers.get(AUTHORIZATION_ERRORS_HEADER)!)).toEqual([{ authorizationError: AUTHORIZATION_ERROR.WRONG_CREDENTIALS }]);

    const secret = new Secret({ size: 20 });
    await server.app.users.update(cleo.id, { totp_secret: server.app.secretBox.seal(cleo.id, 'totp_secret', secret.base32) });
    const missing = await addinLogin(server, cleo.username, cleo.password);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.headers.get(AUTHORIZATION_ERRORS_HEADER)!)[0].authorizationError).toBe(AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED);
    const code = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    const token = await tokenOf(await addinLogin(server, cleo.username, cleo.password, { j_auth_app_code: code }));
    expect((await withBearer(server, token, '/api/2/user')).status).toBe(200);
  });

  it('is revoked by logout, by taking ROLE_OUTLOOK away and by disabling the account', async () => {
    const dora = await createUser(server, { username: 'dora', roles: [...outlookRoles] });
    const first = await tokenOf(await addinLogin(server, dora.username, dora.password));
    const second = await tokenOf(await addinLogin(server, dora.username, dora.password));
    const logout = await withBearer(server, first, '/j_spring_security_logout');
    expect(logout.status).toBe(200);
    await expectBackendError(await withBearer(server, first, '/api/2/user'), 401, 'AuthenticationRequiredException');
    // Only that token: the other add-in session lives on.
    expect((await withBearer(server, second, '/api/2/user')).status).toBe(200);

    await server.app.users.update(dora.id, { roles: JSON.stringify(['ROLE_UI_USER', 'ROLE_SENDER']) });
    await expectBackendError(await withBearer(server, second, '/api/2/user'), 401);
    await server.app.users.update(dora.id, { roles: JSON.stringify([...outlookRoles]) });
    expect((await withBearer(server, second, '/api/2/user')).status).toBe(200);
    await server.app.users.update(dora.id, { disabled: 1 });
    await expectBackendError(await withBearer(server, second, '/api/2/user'), 401);
  });

  it('never mixes the two kinds: a bearer token is no cookie, a cookie token is no bearer', async () => {
    const emil = await createUser(server, { username: 'emil', roles: [...outlookRoles] });
    const token = await tokenOf(await addinLogin(server, emil.username, emil.password));
    await expectBackendError(await fetch(`${server.url}/api/2/user`, { headers: { cookie: `KUVERT_SESSION=${token}` } }), 401);
    const web = await signIn(server, emil.username, emil.password);
    const cookieToken = web.cookie.split('=')[1]!;
    await expectBackendError(await withBearer(server, cookieToken, '/api/2/user'), 401);
    // A bearer header wins over a cookie: a broken token is not rescued by a live cookie.
    const both = await fetch(`${server.url}/api/2/user`, { headers: { cookie: web.cookie, authorization: 'Bearer nope' } });
    await expectBackendError(both, 401);
    // Cookie sessions keep their anti-forgery rule.
    const noCsrf = await fetch(`${server.url}/api/2/user/updateLoggedInUser`, {
      method: 'POST',
      headers: { cookie: web.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ user: { language: 'de' } }),
    });
    await expectBackendError(noCsrf, 403, 'CsrfTokenException');
    expect(web.csrf).toBeTruthy();
    expect(ANTI_CSRF_HEADER).toBe('anticsrfattr');
  });

  it('answers malformed bearer headers as signed out, never 5xx', async () => {
    for (const value of ['Bearer', 'Bearer ' + 'a'.repeat(500), 'Bearer a b', 'Bearer ÿÿ', 'bearer %00']) {
      const response = await fetch(`${server.url}/api/2/user`, { headers: { authorization: value } });
      expect(response.status, value).toBe(401);
    }
  });

  it('trades a web session for an add-in token (the sign-in dialog), only with ROLE_OUTLOOK and only from a cookie session', async () => {
    const fay = await createUser(server, { username: 'fay', roles: [...outlookRoles] });
    const web = await signIn(server, fay.username, fay.password);
    const path = '/api/2/auth/addin-session';
    await expectBackendError(await fetch(`${server.url}${path}`, { method: 'POST' }), 401);
    await expectBackendError(await fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie: web.cookie } }), 403, 'CsrfTokenException');
    const traded = await fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie: web.cookie, [ANTI_CSRF_HEADER]: web.csrf } });
    expect(traded.status, await traded.clone().text()).toBe(200);
    const { sessionToken } = (await traded.json()) as { sessionToken: string };
    expect((await withBearer(server, sessionToken, '/api/2/user')).status).toBe(200);
    // The web session lives on; an add-in token mints no further tokens.
    expect((await fetch(`${server.url}/api/2/user`, { headers: { cookie: web.cookie } })).status).toBe(200);
    await expectBackendError(await withBearer(server, sessionToken, path, { method: 'POST' }), 403, 'AccessDeniedException');

    const gus = await createUser(server, { username: 'gus' });
    const gusWeb = await signIn(server, gus.username, gus.password);
    await expectBackendError(await fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie: gusWeb.cookie, [ANTI_CSRF_HEADER]: gusWeb.csrf } }), 403, 'AccessDeniedException');
  });
});
