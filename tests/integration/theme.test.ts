import { createHash } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { AuditLogResponse } from '@shared/contract/audit';
import { CONFIG_KEYS } from '@shared/contract/config';
import { THEME_PROFILE_KEYS, type ThemeOverview } from '@shared/contract/theme';
import { addressedTo, waitForMailboxMail } from '@tests/support/mailbox';
import { startTestServer, type TestServer } from '@tests/support/server';
import { LOGO_SVG } from '@server/pages/html';
import { saveThemeAsset } from '@server/theme/theme-assets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

/** Theme (issue 17 §2): logo and favicon uploads, the public images, colours, mails, reset. */
let server: TestServer;
let admin: Session;
let userAdmin: Session;
let plain: Session;
const api = (path: string) => `/api/2${path}`;

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#336699"/></svg>';

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

function upload(session: Session | null, asset: string, bytes: Uint8Array | string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (session) {
    headers.cookie = session.cookie;
    headers[ANTI_CSRF_HEADER] = session.csrf;
  }
  return fetch(`${server.url}${api(`/admin/theme/${asset}`)}`, { method: 'PUT', headers, body: typeof bytes === 'string' ? bytes : Buffer.from(bytes) });
}

async function profile(): Promise<Record<string, unknown>> {
  return (await json<{ config: Record<string, unknown> }>(await fetch(`${server.url}${api('/config/profile')}`), 200)).config;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'ua@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_USER_ADMIN'] });
  userAdmin = await signIn(server, 'ua@example.test', 'Good-Passw0rd');
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
});
afterAll(async () => server?.close());

describe('theme: defaults', () => {
  it('serves the product logo and favicon until one is uploaded; the profile names their URLs', async () => {
    expect(await json<ThemeOverview>(await call(server, admin, 'GET', api('/admin/theme')), 200)).toEqual({ logo: null, favicon: null });
    for (const path of ['/webui/logo', '/webui/logo.svg', '/webui/favicon.ico']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await response.text()).toMatch(/^<svg/);
    }
    const config = await profile();
    expect(config[THEME_PROFILE_KEYS.logoUrl]).toBe('/webui/logo?v=default');
    expect(config[THEME_PROFILE_KEYS.faviconUrl]).toBe('/webui/favicon.ico?v=default');
  });
});

describe('theme: who may change it', () => {
  it('only administrators: user administrators and users 403, anonymous 401 (uploads, reset, colour settings)', async () => {
    await expectBackendError(await upload(userAdmin, 'logo', PNG), 403, 'AccessDeniedException');
    await expectBackendError(await upload(plain, 'logo', PNG), 403, 'AccessDeniedException');
    await expectBackendError(await upload(null, 'logo', PNG), 401, 'AuthenticationRequiredException');
    await expectBackendError(await call(server, userAdmin, 'GET', api('/admin/theme')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, userAdmin, 'DELETE', api('/admin/theme')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, plain, 'DELETE', api('/admin/theme/logo')), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, userAdmin, 'PUT', api('/admin/settings'), { [CONFIG_KEYS.themeColor]: '#336699' }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'DELETE', api('/admin/theme')), 401, 'AuthenticationRequiredException');
    expect((await profile())[CONFIG_KEYS.themeColor]).toBe('#19853F');
  });
});

describe('theme: bad input', () => {
  it('refuses a colour that is not #RRGGBB with the §8 error naming the key (SPEC §5)', async () => {
    for (const bad of ['green', '#12345', '#GGGGGG', '336699']) {
      const error = await expectBackendError(await call(server, admin, 'PUT', api('/admin/settings'), { [CONFIG_KEYS.themeHoverColor]: bad }), 400, 'ValidationException');
      expect(error.metadata.problems).toEqual([{ key: CONFIG_KEYS.themeHoverColor, problem: expect.stringContaining('hex colour') }]);
    }
  });

  it('refuses what is not an image of an allowed type (415), too large (413 with the limit), empty, or an SVG with scripts (400)', async () => {
    const text = await expectBackendError(await upload(admin, 'logo', 'just some text, not an image'), 415, 'UnsupportedMediaTypeException');
    expect(text.metadata).toMatchObject({ allowed: ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml'], detected: null });
    // An icon file is a favicon, not a logo.
    const ico = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(40)]);
    expect((await expectBackendError(await upload(admin, 'logo', ico), 415)).metadata).toMatchObject({ detected: 'image/x-icon' });
    const big = Buffer.concat([PNG, Buffer.alloc(512 * 1024)]);
    expect((await expectBackendError(await upload(admin, 'logo', big), 413, 'PayloadTooLargeException')).metadata).toEqual({ maxBytes: 512 * 1024, size: big.length });
    const bigIcon = Buffer.concat([PNG, Buffer.alloc(128 * 1024)]);
    expect((await expectBackendError(await upload(admin, 'favicon', bigIcon), 413)).metadata).toMatchObject({ maxBytes: 128 * 1024 });
    await expectBackendError(await upload(admin, 'logo', Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)])), 413, 'PayloadTooLargeException');
    await expectBackendError(await upload(admin, 'logo', new Uint8Array()), 400, 'ValidationException');
    const scripted = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    expect((await expectBackendError(await upload(admin, 'logo', scripted), 400, 'ValidationException')).metadata).toEqual({ reason: 'activeContent', removed: ['script'] });
    // Issue 28: what the former block-list let through, refused by the allow-list (server/theme/svg-sanitiser.ts).
    const ns = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
    for (const [bypass, removed] of [
      [`<svg ${ns}><a xlink:href="&#106;avascript:alert(1)"><rect width="1" height="1"/></a></svg>`, 'xlink:href'],
      [`<svg ${ns}><rect width="9" height="9"><set attributeName="onmouseover" to="alert(1)"/></rect></svg>`, 'set'],
      [`<svg ${ns} xmlns:html="http://www.w3.org/1999/xhtml"><html:script>alert(1)</html:script></svg>`, 'html:script'],
      [`<svg ${ns}><use href="https://evil.test/sprite.svg#a"/></svg>`, 'href'],
      [`<svg ${ns}><style>@import url(https://evil.test/x.css);</style></svg>`, 'style'],
    ] as const) {
      const refused = await expectBackendError(await upload(admin, 'logo', bypass), 400, 'ValidationException');
      expect(refused.metadata, bypass).toMatchObject({ reason: 'activeContent', removed: expect.arrayContaining([removed]) });
    }
    await expectBackendError(await upload(admin, 'banner', PNG), 400, 'ValidationException');
    expect(await json<ThemeOverview>(await call(server, admin, 'GET', api('/admin/theme')), 200)).toEqual({ logo: null, favicon: null });
  });
});

describe('theme: logo, favicon, colours, mails, reset', () => {
  it('serves an uploaded logo and favicon (type from the bytes), versioned in the profile', async () => {
    const overview = await json<ThemeOverview>(await upload(admin, 'logo', PNG), 200);
    const sha = createHash('sha256').update(PNG).digest('hex');
    expect(overview.logo).toMatchObject({ contentType: 'image/png', size: PNG.length, sha256: sha });
    const logo = await fetch(`${server.url}/webui/logo`);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe('no-cache');
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true);
    const url = (await profile())[THEME_PROFILE_KEYS.logoUrl];
    expect(url).toBe(`/webui/logo?v=${sha.slice(0, 16)}`);
    expect((await fetch(`${server.url}${String(url)}`)).headers.get('cache-control')).toContain('immutable');
    // The legacy name follows it too.
    expect((await fetch(`${server.url}/webui/logo.svg`)).headers.get('content-type')).toBe('image/png');

    await json<ThemeOverview>(await upload(admin, 'favicon', SVG), 200);
    const favicon = await fetch(`${server.url}/webui/favicon.ico`);
    expect(favicon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(favicon.headers.get('content-security-policy')).toContain('sandbox');
    // Stored as the allow-list sanitiser serialised it (no XML declaration), the drawing unchanged.
    expect(await favicon.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#336699"/></svg>');
  });

  it('an SVG stored before the sanitiser is served sanitised, or not at all when it holds active content (issue 28 §1)', async () => {
    // Stored directly, as an upload before the allow-list was: never through checkThemeAsset.
    const active = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="8" height="8"/></svg>';
    await saveThemeAsset(server.app.db, 'logo', 'image/svg+xml', new TextEncoder().encode(active));
    for (const path of ['/webui/logo', '/webui/logo.svg']) {
      const served = await (await fetch(`${server.url}${path}`)).text();
      expect(served, path).not.toMatch(/alert|onload|<script/);
      // The product's image stands in.
      expect(served).toBe(LOGO_SVG);
    }
    const oldClean = `<?xml version="1.0"?>\n<!-- made with an editor --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#663399"/></svg>`;
    await saveThemeAsset(server.app.db, 'favicon', 'image/svg+xml', new TextEncoder().encode(oldClean));
    expect(await (await fetch(`${server.url}/webui/favicon.ico`)).text()).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#663399"/></svg>');
    // The images the tests after this one use.
    await json<ThemeOverview>(await upload(admin, 'logo', PNG), 200);
    await json<ThemeOverview>(await upload(admin, 'favicon', SVG), 200);
  });

  it('mails carry the theme colour (button text by the luminance rule) and the logo inline', async () => {
    const response = await call(server, admin, 'PUT', api('/admin/settings'), { [CONFIG_KEYS.themeColor]: '#336699', [CONFIG_KEYS.webUiTitle]: 'Acme Secure' });
    expect(response.status).toBe(200);
    expect(await profile()).toMatchObject({ [CONFIG_KEYS.themeColor]: '#336699', [CONFIG_KEYS.webUiTitle]: 'Acme Secure' });
    await json(await call(server, admin, 'POST', api('/admin/users'), { email: 'dark@example.test' }), 201);
    const mail = await waitForMailboxMail(server.mailboxDir, addressedTo('dark@example.test'));
    expect(mail.html).toContain('background:#336699');
    expect(mail.html).toContain('color:#FFFFFF;text-decoration:none');
    const logo = mail.parsed.attachments.find((a) => a.cid === 'logo@kuvert');
    expect(logo?.contentType).toBe('image/png');
    expect(logo && Buffer.from(logo.content).equals(PNG)).toBe(true);

    // A light theme colour gets dark button text (luminance above 186, SPEC §9).
    await json(await call(server, admin, 'PUT', api('/admin/settings'), { [CONFIG_KEYS.themeColor]: '#EEDD88' }), 200);
    await json(await call(server, admin, 'POST', api('/admin/users'), { email: 'light@example.test' }), 201);
    const light = await waitForMailboxMail(server.mailboxDir, addressedTo('light@example.test'));
    expect(light.html).toContain('background:#EEDD88;color:#000000;text-decoration:none');
  });

  it('removes one image, then resets title, colours and images to the defaults (audited)', async () => {
    expect((await json<ThemeOverview>(await call(server, admin, 'DELETE', api('/admin/theme/favicon')), 200)).favicon).toBeNull();
    expect((await fetch(`${server.url}/webui/favicon.ico`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await json<ThemeOverview>(await call(server, admin, 'DELETE', api('/admin/theme')), 200)).toEqual({ logo: null, favicon: null });
    expect(await profile()).toMatchObject({
      [CONFIG_KEYS.themeColor]: '#19853F',
      [CONFIG_KEYS.webUiTitle]: 'Kuvert',
      [THEME_PROFILE_KEYS.logoUrl]: '/webui/logo?v=default',
    });
    expect(await (await fetch(`${server.url}/webui/logo`)).text()).toMatch(/^<svg/);
    const log = await json<AuditLogResponse>(await call(server, admin, 'GET', api('/admin/audit-log?pageSize=200')), 200);
    expect(log.entries.map((e) => e.action)).toEqual(expect.arrayContaining(['theme.asset', 'theme.reset']));
  });
});
