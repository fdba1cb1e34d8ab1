// Issue 12 §3, browser and transport hardening, against a real server: the security headers on
// every kind of answer (JSON and errors with the API policy, HTML, static files, downloads, the add-in pane), HSTS only for an
// https public URL, Cache-Control on authenticated JSON and downloads, MIME types and file names
// checked on the way in, and the data folder readable by the server's account only.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { DELIVERY_SETTING_KEYS, type DeliveryDetail, type DeliveryUploadFile } from '@shared/contract/deliveries';
import { API_POLICY, OFFICE_JS_ORIGIN } from '@server/core/security-headers';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

const PART_SIZE = 1024;
const api = (path: string) => `/api/2${path}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const modeOf = (path: string) => statSync(path).mode & 0o777;

let server: TestServer;
let webRoot: string;
let admin: Session;
let alice: Session;

/** A built client in miniature: index.html, a hashed bundle, the add-in's pane beside it (dist/web, dist/addin). */
async function writeClientFiles(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kuvert-headers-client-'));
  mkdirSync(join(root, 'web', 'webjars'), { recursive: true });
  mkdirSync(join(root, 'addin'), { recursive: true });
  writeFileSync(join(root, 'web', 'index.html'), '<!doctype html><html><head><title>Kuvert</title></head><body><div id="root"></div><script defer src="/webjars/main.0123456789.js"></script></body></html>');
  writeFileSync(join(root, 'web', 'webjars', 'main.0123456789.js'), 'document.title = "Kuvert";');
  writeFileSync(join(root, 'addin', 'taskpane.html'), `<!doctype html><html><head><script src="${OFFICE_JS_ORIGIN}/lib/1/hosted/office.js"></script></head><body></body></html>`);
  return root;
}

beforeAll(async () => {
  webRoot = await writeClientFiles();
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE, webRoot: join(webRoot, 'web') } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
});
afterAll(async () => {
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const createDraft = async (subject: string) =>
  json<DeliveryDetail>(await call(server, alice, 'POST', api('/deliveries'), { recipients: ['bob@example.test'], subject, body: 'Hello', securityLevel: 0 }), 201);
const addFile = (deliveryUuid: string, name: string, mimeType: string, size = 10) =>
  call(server, alice, 'POST', api(`/deliveries/${deliveryUuid}/files`), { name, size, mimeType });

async function uploadFile(deliveryUuid: string, name: string, bytes: Uint8Array, mimeType = 'text/plain'): Promise<DeliveryUploadFile> {
  const file = await json<DeliveryUploadFile>(await addFile(deliveryUuid, name, mimeType, bytes.length), 201);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * file.partSize, (i + 1) * file.partSize);
    const response = await fetch(`${server.url}${api(`/deliveries/${deliveryUuid}/files/${file.fileId}/parts/${i}`)}`, {
      method: 'PUT',
      headers: { cookie: alice.cookie, [ANTI_CSRF_HEADER]: alice.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
      body: new Blob([Uint8Array.from(part)]),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  return json<DeliveryUploadFile>(await call(server, alice, 'POST', api(`/deliveries/${deliveryUuid}/files/${file.fileId}/commit`)), 200);
}

/** The CSP as directive → sources. */
function cspOf(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy');
  expect(header, `${response.url} has no Content-Security-Policy`).toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What every answer carries, whatever it is. */
function expectBaseHeaders(response: Response): void {
  expect(response.headers.get('referrer-policy'), response.url).toBe('no-referrer');
  expect(response.headers.get('x-content-type-options'), response.url).toBe('nosniff');
  expect(response.headers.get('strict-transport-security'), 'no HSTS over http').toBeNull();
}

/** The policy of the web client, the legacy pages, the wizard and every answer that is not an API answer. */
function expectWebPolicy(response: Response): void {
  expectBaseHeaders(response);
  const csp = cspOf(response);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  expect(csp.has('upgrade-insecure-requests'), 'no upgrade over http').toBe(false);
  for (const sources of csp.values()) expect(sources).not.toContain("'unsafe-eval'");
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(response.headers.get('x-frame-options')).toBe('DENY');
}

/** helmet's headers besides the policy, the same on API answers and on the web client's pages. */
const HELMET_HEADERS = ['referrer-policy', 'x-content-type-options', 'x-frame-options', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

/** An API answer (JSON under /api/2, errors included): OWASP's minimal policy, every other header as on the web client's pages. */
function expectApiPolicy(response: Response): void {
  expectBaseHeaders(response);
  expect(response.headers.get('content-security-policy'), response.url).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(response.headers.get('x-frame-options'), response.url).toBe('DENY');
  expect(response.headers.get('cross-origin-opener-policy'), response.url).toBe('same-origin');
  expect(response.headers.get('cross-origin-resource-policy'), response.url).toBe('same-origin');
}

describe('security headers', () => {
  it('JSON answers: the API policy; authenticated ones are never stored', async () => {
    const config = await fetch(`${server.url}${api('/config/profile')}`);
    expect(config.status).toBe(200);
    expectApiPolicy(config);

    const user = await call(server, alice, 'GET', api('/user'));
    expect(user.status).toBe(200);
    expectApiPolicy(user);
    expect(user.headers.get('cache-control')).toBe('no-store');
    // An authenticated answer of a route that sets no cache policy itself, and an error answer.
    const inbox = await call(server, alice, 'GET', api('/deliveries/inbox'));
    expect(inbox.status).toBe(200);
    expect(inbox.headers.get('cache-control')).toBe('no-store');
    const missing = await call(server, alice, 'GET', api('/deliveries/00000000-0000-4000-8000-000000000000'));
    await expectBackendError(missing.clone(), 404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expectApiPolicy(missing);
    // Refusals of the access control carry the headers too.
    const refused = await fetch(`${server.url}${api('/deliveries/inbox')}`);
    await expectBackendError(refused.clone(), 401, 'AuthenticationRequiredException');
    expectApiPolicy(refused);
  });

  it('each kind of answer carries the policy server/README promises: JSON, errors and 204 the API policy, file bodies and HTML theirs', async () => {
    const page = await fetch(`${server.url}/secumails/inbox`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expectWebPolicy(page);
    const user = await call(server, alice, 'GET', api('/user'));
    expect(user.status).toBe(200);
    expectApiPolicy(user);
    // Only the policy differs: every other header helmet sets is the web page's, value for value.
    for (const name of HELMET_HEADERS) expect(user.headers.get(name), name).toBe(page.headers.get(name));

    // Errors: a validation failure, an unknown API path, a refused role.
    const draft = await createDraft('Headers per kind');
    const invalid = await addFile(draft.deliveryUuid, 'bad.txt', 'text');
    await expectBackendError(invalid.clone(), 400, 'ValidationException');
    expectApiPolicy(invalid);
    const unknown = await call(server, alice, 'GET', api('/no-such-route'));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/json/);
    expectApiPolicy(unknown);
    const forbidden = await call(server, alice, 'GET', api('/admin/audit-log'));
    await expectBackendError(forbidden.clone(), 403);
    expectApiPolicy(forbidden);
    // An empty answer.
    const file = await json<DeliveryUploadFile>(await addFile(draft.deliveryUuid, 'gone.txt', 'text/plain'), 201);
    const removed = await call(server, alice, 'DELETE', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}`));
    expect(removed.status, await removed.clone().text()).toBe(204);
    expectApiPolicy(removed);

    // File bodies under /api/2 are not API answers: a download keeps its sandbox, a CSV export the web policy.
    const stored = await uploadFile(draft.deliveryUuid, 'kept.txt', new TextEncoder().encode('kept bytes'));
    const download = await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}/files/${stored.fileId}/content`));
    expect(download.status, await download.clone().text()).toBe(200);
    expect(download.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(download.headers.get('x-frame-options')).toBe('DENY');
    const csv = await call(server, admin, 'GET', api('/admin/audit-log/csv'));
    expect(csv.status, await csv.clone().text()).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expectWebPolicy(csv);
    expect(csv.headers.get('content-security-policy')).toBe(page.headers.get('content-security-policy'));
  });

  it('HTML: the web client, the SPA fallback, the wizard and legacy pages, without inline script or style', async () => {
    for (const path of ['/', '/secumails/inbox', '/webui/keepAlive.html', '/webui/wizard', '/addin/support.html']) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect([200, 303], path).toContain(response.status);
      expectBaseHeaders(response);
      const html = await response.text();
      expect(html, path).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(html, path).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      if (!path.startsWith('/addin/')) expectWebPolicy(response);
    }
    const css = await fetch(`${server.url}/webui/page.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expectWebPolicy(css);
  });

  it('the installation wizard sends its page without inline style (an empty database)', async () => {
    const fresh = await startTestServer({ admin: false });
    try {
      const response = await fetch(`${fresh.url}/webui/wizard?lang=de`);
      expect(response.status).toBe(200);
      expectWebPolicy(response);
      const html = await response.text();
      expect(html).toContain('/webui/page.css');
      expect(html).not.toMatch(/<style|\sstyle=|<script/i);
    } finally {
      await fresh.close();
    }
  });

  it('static assets: the same headers, cached as before', async () => {
    const bundle = await fetch(`${server.url}/webjars/main.0123456789.js`);
    expect(bundle.status).toBe(200);
    expectWebPolicy(bundle);
    expect(bundle.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(bundle.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    // An SVG logo is a document of its own: served with a policy stricter still (nothing loads, sandboxed).
    const logo = await fetch(`${server.url}/webui/logo.svg`);
    expectBaseHeaders(logo);
    expect(cspOf(logo).get('default-src')).toEqual(["'none'"]);
    expect(cspOf(logo).has('sandbox')).toBe(true);
  });

  it('the add-in pane: office.js from Microsoft, framed by Outlook only, no X-Frame-Options', async () => {
    for (const path of ['/addin/taskpane.html', '/addin/manifest.xml', '/addin/support.html']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expectBaseHeaders(response);
      const csp = cspOf(response);
      expect(csp.get('script-src'), path).toEqual(["'self'", "'wasm-unsafe-eval'", OFFICE_JS_ORIGIN]);
      const ancestors = csp.get('frame-ancestors')!;
      expect(ancestors).toContain("'self'");
      expect(ancestors).toContain('https://outlook.office.com');
      expect(ancestors).toContain('https://outlook.office365.com');
      expect(ancestors).not.toContain('*');
      expect(ancestors.every((a) => a === "'self'" || /^https:\/\/(?:[\w*-]+\.)*(?:office|office365|outlook|live|microsoft|cloud\.microsoft)\.com$|^https:\/\/outlook\.cloud\.microsoft$/.test(a)), ancestors.join(' ')).toBe(true);
      expect(response.headers.get('x-frame-options'), path).toBeNull();
      expect(response.headers.get('cross-origin-opener-policy'), path).toBeNull();
    }
    // The web client stays unframeable.
    expect(cspOf(await fetch(`${server.url}/`)).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('downloads: no-store, nosniff, no referrer, a sandbox policy', async () => {
    const draft = await createDraft('Headers download');
    const bytes = new TextEncoder().encode('downloaded bytes '.repeat(100));
    const file = await uploadFile(draft.deliveryUuid, 'notes.txt', bytes);
    const response = await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/content`));
    expect(response.status, await response.clone().text()).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(response.headers.get('cache-control')).toMatch(/(?:^|[\s,])no-store(?:$|[\s,])/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    // The manifest download too.
    expect((await fetch(`${server.url}/addin/manifest.xml`)).headers.get('cache-control')).toBe('no-store');
  });
});

describe('HSTS', () => {
  it('only when the public URL is https, then with upgrade-insecure-requests', async () => {
    const https = await startTestServer({ config: { publicUrl: 'https://kuvert.example.test' } });
    try {
      for (const path of ['/api/2/config/profile', '/webui/keepAlive.html', '/addin/manifest.xml']) {
        const response = await fetch(`${https.url}${path}`);
        expect(response.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
        // An API answer loads nothing, so it has nothing to upgrade: the minimal policy as over http.
        if (path.startsWith('/api/')) expect(response.headers.get('content-security-policy'), path).toBe(API_POLICY);
        else expect(cspOf(response).has('upgrade-insecure-requests'), path).toBe(true);
      }
    } finally {
      await https.close();
    }
    // The http server of this file sends none (expectBaseHeaders checks it on every answer).
    expect((await fetch(`${server.url}/api/2/config/profile`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('MIME types', () => {
  it('refuses anything but type/subtype tokens, a CR/LF above all (ValidationException)', async () => {
    const draft = await createDraft('MIME rules');
    const bad = ['text/plain\r\nX-Injected: 1', 'text/plain\n', 'text/plain\r', 'text', 'text/', '/plain', 'text/pl ain', 'text/plain; charset', 'tëxt/plain', ' text/plain', 'text/plain\u0000'];
    for (const [i, mimeType] of bad.entries()) {
      const error = await expectBackendError(await addFile(draft.deliveryUuid, `file-${i}.txt`, mimeType), 400, 'ValidationException');
      expect(error.metadata, JSON.stringify(mimeType)).toMatchObject({ field: 'mimeType', reason: 'invalidMimeType' });
      expect(error.message).toMatch(/MIME type/);
    }
    for (const [i, mimeType] of ['text/plain', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/plain; charset=utf-8', 'text/plain;charset="utf-8"', 'image/svg+xml', ''].entries()) {
      await json(await addFile(draft.deliveryUuid, `good-${i}.txt`, mimeType), 201);
    }
    const listed = await json<DeliveryDetail>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}`)), 200);
    expect(listed.files.find((f) => f.name === 'good-5.txt')?.mimeType).toBe('application/octet-stream');
  });

  it('a malformed type stored before the check is never put into the download headers', async () => {
    const draft = await createDraft('Old MIME type');
    const bytes = new TextEncoder().encode('old file');
    const file = await uploadFile(draft.deliveryUuid, 'old.txt', bytes);
    await server.app.db.updateTable('delivery_files').set({ mime_type: 'text/plain\r\nx-injected: 1' }).where('uuid', '=', file.fileId).execute();
    const response = await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/content`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('x-injected')).toBeNull();
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('the blocked MIME types setting takes type/subtype or type/* only', async () => {
    const refused = await call(server, admin, 'PUT', api('/admin/settings'), { [DELIVERY_SETTING_KEYS.blockedMimeTypes]: 'video/*,text/html\r\nx' });
    const error = await expectBackendError(refused, 400, 'ValidationException');
    expect(JSON.stringify(error.metadata)).toContain(DELIVERY_SETTING_KEYS.blockedMimeTypes);
    const accepted = await call(server, admin, 'PUT', api('/admin/settings'), { [DELIVERY_SETTING_KEYS.blockedMimeTypes]: 'video/*, application/x-msdownload' });
    expect(accepted.status, await accepted.text()).toBe(200);
  });
});

describe('file names', () => {
  it('refuses each forbidden class with "Invalid file name" and its reason', async () => {
    const draft = await createDraft('Name rules');
    const cases: [string, string][] = [
      ['invoice\u202Efdp.exe', 'bidiControl'],
      ['report\u2066.pdf', 'bidiControl'],
      ['a\u200Fb.txt', 'bidiControl'],
      ['pay\u200Bment.pdf', 'zeroWidth'],
      ['\uFEFFreport.pdf', 'zeroWidth'],
      ['soft\u00ADhyphen.txt', 'zeroWidth'],
      ['bell\u0007.txt', 'invalidCharacters'],
      ['line\nbreak.txt', 'invalidCharacters'],
      ['c1\u0085control.txt', 'invalidCharacters'],
      ['CON', 'reservedName'],
      ['con.txt', 'reservedName'],
      ['Nul.tar.gz', 'reservedName'],
      ['COM1.log', 'reservedName'],
      ['lpt9', 'reservedName'],
      ['aux.', 'trailingDotOrSpace'],
      ['report.pdf.', 'trailingDotOrSpace'],
      ['report.pdf ', 'surroundingBlanks'],
    ];
    for (const [name, nameProblem] of cases) {
      const error = await expectBackendError(await addFile(draft.deliveryUuid, name, 'application/pdf'), 400, 'ValidationException');
      expect(error.message, JSON.stringify(name)).toBe('Invalid file name');
      expect(error.metadata, JSON.stringify(name)).toMatchObject({ field: 'name', reason: 'invalidFileName', nameProblem });
    }
    // Names that only look like the reserved ones are fine.
    for (const name of ['console.txt', 'COM10.txt', 'auxiliary.pdf', 'LPT.txt']) await json(await addFile(draft.deliveryUuid, name, 'text/plain'), 201);
  });

  it('stores names in NFC, so the NFD spelling of the same name is a duplicate', async () => {
    const draft = await createDraft('NFC names');
    const nfd = 'Cafe\u0301 menu.pdf';
    const created = await json<DeliveryUploadFile>(await addFile(draft.deliveryUuid, nfd, 'application/pdf'), 201);
    expect(created.name).toBe('Caf\u00e9 menu.pdf');
    const detail = await json<DeliveryDetail>(await call(server, alice, 'GET', api(`/deliveries/${draft.deliveryUuid}`)), 200);
    expect(detail.files.map((f) => f.name)).toEqual(['Caf\u00e9 menu.pdf']);
    const duplicate = await expectBackendError(await addFile(draft.deliveryUuid, 'Caf\u00e9 menu.pdf', 'application/pdf'), 400, 'ValidationException');
    expect(duplicate.metadata.reason).toBe('duplicateFileName');
  });
});

describe('data folder', () => {
  it('folders 0700 and files 0600 where the server creates them', async () => {
    const draft = await createDraft('Private files');
    await uploadFile(draft.deliveryUuid, 'private.txt', new TextEncoder().encode('private bytes'));
    const send = await call(server, alice, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`));
    expect(send.status, await send.clone().text()).toBe(200);

    expect(modeOf(server.dataDir)).toBe(0o700);
    const blobs = join(server.dataDir, 'blobs');
    expect(modeOf(blobs)).toBe(0o700);
    const entries = await readdir(blobs, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name);
      expect(modeOf(path), path).toBe(entry.isDirectory() ? 0o700 : 0o600);
    }
    expect(modeOf(server.mailboxDir)).toBe(0o700);
    const mails = await readdir(server.mailboxDir);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(modeOf(join(server.mailboxDir, mail)), mail).toBe(0o600);
    if (!process.env.KUVERT_TEST_DATABASE_URL) {
      expect(modeOf(join(server.dataDir, 'kuvert.sqlite'))).toBe(0o600);
      expect(modeOf(join(server.dataDir, 'kuvert.sqlite-wal'))).toBe(0o600);
    }
  });

  it('tightens a data folder an older start left open', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kuvert-open-data-'));
    mkdirSync(join(dataDir, 'blobs'));
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'blobs'), 0o755);
    const open = await startTestServer({ config: { dataDir } });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(dataDir, 'blobs'))).toBe(0o700);
    } finally {
      await open.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
