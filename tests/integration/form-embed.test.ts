// Embedding public forms (issue 16 §2, SPEC §6 embed settings) against the real server: the two
// admin settings really set the headers — frame-ancestors on /form/* (default 'none'), CORS on
// the public form endpoints only (and their preflight), never on other API paths — bad lists are
// refused, and the embed script is served for other sites.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { FORM_EMBED_MESSAGE, FORM_EMBED_SCRIPT_PATH, FORM_EMBED_SETTING_KEYS } from '@shared/contract/form-embed';
import type { Form } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectBackendError, signInAdmin, type Session } from './core-helpers';

const api = (path: string) => `/api/2${path}`;
const PARTNER = 'https://partner.example.org';
const OTHER = 'https://evil.example.net';

let server: TestServer;
let webRoot: string;
let admin: Session;
let form: Form;

async function setEmbed(values: Partial<Record<keyof typeof FORM_EMBED_SETTING_KEYS, string>>): Promise<Response> {
  const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [FORM_EMBED_SETTING_KEYS[k as keyof typeof FORM_EMBED_SETTING_KEYS], v]));
  return call(server, admin, 'PUT', api('/admin/settings'), body);
}

const frameAncestors = (response: Response) => /frame-ancestors ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'kuvert-embed-client-'));
  mkdirSync(join(webRoot, 'webjars'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head><title>Kuvert</title></head><body><div id="root"></div></body></html>');
  server = await startTestServer({ config: { webRoot } });
  admin = await signInAdmin(server);
  const created = await call(server, admin, 'POST', api('/forms'), {
    name: 'Embedded',
    url: 'embedded',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['admin@example.test'],
    customFields: [{ name: 'Name', type: 'text', textAreaSize: 1 }],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  form = (await created.json()) as Form;
});
afterAll(async () => {
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('form embed settings', () => {
  it('default: nobody may frame the form page or call the public form API across origins', async () => {
    const page = await fetch(`${server.url}/form/${form.formUuid}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(frameAncestors(page)).toBe("'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');

    const json = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}`)}`, { headers: { origin: PARTNER } });
    expect(json.status).toBe(200);
    expect(json.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}/submissions`)}`, {
      method: 'OPTIONS',
      headers: { origin: PARTNER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('listed origins may frame /form/* (and only that page) and call the public form endpoints (and only those)', async () => {
    const saved = await setEmbed({ frameAncestors: `${PARTNER}, https://*.example.com`, corsOrigins: `${PARTNER}\nhttp://127.0.0.1:5555` });
    expect(saved.status, await saved.clone().text()).toBe(200);

    for (const path of [`/form/${form.formUuid}`, '/form/embedded?plain=1']) {
      const page = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(frameAncestors(page)).toBe(`${PARTNER} https://*.example.com`);
      expect(page.headers.get('x-frame-options')).toBeNull();
      // The rest of the policy stays as it is.
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    // Every other page keeps 'none'.
    const home = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(frameAncestors(home)).toBe("'none'");
    expect(home.headers.get('x-frame-options')).toBe('DENY');

    const json = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}`)}`, { headers: { origin: PARTNER } });
    expect(json.status).toBe(200);
    expect(json.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(json.headers.get('access-control-allow-credentials')).toBeNull();
    expect(json.headers.get('vary')).toMatch(/origin/i);
    // Errors of those endpoints are readable too (the §8 shape).
    const missing = await fetch(`${server.url}${api('/public-forms/no-such-form')}`, { headers: { origin: PARTNER } });
    expect(missing.headers.get('access-control-allow-origin')).toBe(PARTNER);
    await expectBackendError(missing, 404, 'FormNotFoundException');

    const preflight = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}/submissions`)}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5555', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5555');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');

    // An origin not on the list, and any other API path, get no CORS header.
    const other = await fetch(`${server.url}${api(`/public-forms/${form.formUuid}`)}`, { headers: { origin: OTHER } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const config = await fetch(`${server.url}${api('/config/profile')}`, { headers: { origin: PARTNER } });
    expect(config.headers.get('access-control-allow-origin')).toBeNull();
    const otherPreflight = await fetch(`${server.url}${api('/forms')}`, { method: 'OPTIONS', headers: { origin: PARTNER, 'access-control-request-method': 'POST' } });
    expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();

    // Emptied again: back to not embeddable.
    expect((await setEmbed({ frameAncestors: '', corsOrigins: '' })).status).toBe(200);
    const again = await fetch(`${server.url}/form/${form.formUuid}`, { headers: { accept: 'text/html' } });
    expect(frameAncestors(again)).toBe("'none'");
  });

  it('refuses lists that are not origins (400 ValidationException naming the key); nothing is stored', async () => {
    for (const [key, value] of [
      ['frameAncestors', 'partner.example.org'],
      ['frameAncestors', "https://ok.example.org 'self'"],
      ['frameAncestors', 'https://example.org/path'],
      ['corsOrigins', 'https://*.example.org'],
      ['corsOrigins', 'javascript:alert(1)'],
    ] as const) {
      const body = await expectBackendError(await setEmbed({ [key]: value }), 400, 'ValidationException');
      expect(JSON.stringify(body.metadata)).toContain(FORM_EMBED_SETTING_KEYS[key]);
    }
    expect(await server.app.settings.get(FORM_EMBED_SETTING_KEYS.frameAncestors)).toBe('');
    expect(await server.app.settings.get(FORM_EMBED_SETTING_KEYS.corsOrigins)).toBe('');
  });

  it('serves the embed script to other sites', async () => {
    const script = await fetch(`${server.url}${FORM_EMBED_SCRIPT_PATH}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const text = await script.text();
    expect(text).toContain(FORM_EMBED_MESSAGE);
    expect(text).toContain("document.createElement('iframe')");
  });
});
