import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RoomActivityList, RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_LINK_TOKEN_HEADER } from '@shared/contract/link-token';
import {
  ROOM_LINK_ACTOR,
  ROOM_LINK_IP_LIMIT,
  ROOM_LINK_PASSWORD_HEADER,
  ROOM_LINK_PASSWORD_LIMIT,
  ROOM_LINK_PATHS,
  type CreatedRoomLink,
  type RoomLinkInfo,
  type RoomLinkList,
} from '@shared/contract/room-links';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { clamdUnavailable, EICAR, startTestClamd, type TestClamd } from '@tests/support/clamd';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, giveSecuPass } from './e2e-helpers';
import { createE2eRoom, openRoomKey, uploadE2eFile } from './rooms-e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * Public links to a plain room's file (server/rooms/sharing/links.ts, issue 15): OWNER and EDITOR make,
 * list and revoke them; anyone with the URL downloads the current content bit-exact (Range too);
 * expired, revoked, trashed or blocked files are refused; an E2E room refuses links with its
 * reason. The virus-scan case runs against the real test clamd. SQLite, and PostgreSQL with
 * KUVERT_TEST_DATABASE_URL.
 */

const clamdSkip = clamdUnavailable();
const PART_SIZE = 1024;
let server: TestServer;
/** How far the server's links' clock (`startTestServer({ clock })`) runs ahead of real time. */
let clockShift = 0;
let clamd: TestClamd | undefined;
let webRoot: string;
const logLines: string[] = [];
const s: Record<'owner' | 'editor' | 'viewer' | 'previewer' | 'outsider', Session> = {} as never;
type Actor = keyof typeof s | 'anonymous';
const ACTORS: Actor[] = ['owner', 'editor', 'viewer', 'previewer', 'outsider', 'anonymous'];
const sessionOf = (actor: Actor) => (actor === 'anonymous' ? null : s[actor]);
const api = (path: string) => `/api/2${path}`;
const email = (name: string) => `${name}@links.test`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let room: Room;
let folder: RoomFolder;

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}
const req = (actor: Actor, method: string, path: string, body?: unknown) => call(server, sessionOf(actor), method, api(path), body);

async function upload(name: string, bytes: Uint8Array, folderUuid = folder.uuid): Promise<RoomUploadFile> {
  const session = s.editor;
  const file = await json<RoomUploadFile>(await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name, size: bytes.length, mimeType: 'application/octet-stream', folderUuid }), 201);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * PART_SIZE, (i + 1) * PART_SIZE);
    const response = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, file.uuid, i))}`, {
      method: 'PUT',
      headers: { cookie: session.cookie, [ANTI_CSRF_HEADER]: session.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
      body: new Blob([Uint8Array.from(part)]),
    });
    expect(response.status).toBe(200);
  }
  const committed = await json<RoomUploadFile>(await req('editor', 'POST', ROOM_PATHS.fileCommit(room.uuid, file.uuid)), 200);
  return scanned(committed.uuid);
}

/** The file once the scan (if clamd runs) has its verdict. */
async function scanned(fileUuid: string, timeoutMs = 20_000): Promise<RoomUploadFile> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await json<RoomUploadFile>(await req('owner', 'GET', ROOM_PATHS.file(room.uuid, fileUuid)), 200);
    if (file.scanState !== 'scanning') return file;
    if (Date.now() > deadline) throw new Error(`scan of ${fileUuid} still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const createLink = (actor: Actor, fileUuid: string, body: unknown = {}) => req(actor, 'POST', ROOM_LINK_PATHS.links(room.uuid, fileUuid), body);
async function newLink(fileUuid: string, body: unknown = {}): Promise<{ link: CreatedRoomLink; token: string }> {
  const link = await json<CreatedRoomLink>(await createLink('owner', fileUuid, body), 201);
  expect(link.url).toMatch(/\/room-link#token=[A-Za-z0-9_-]{43}$/);
  return { link, token: tokenOf(link.url) };
}
/** The token of a handed-out URL: in its fragment, which no browser sends to a server. */
const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
/** An anonymous GET of the public URL (no cookie), optionally "from" another client address. */
const publicGet = (url: string, headers: Record<string, string> = {}) => fetch(url.replace(server.app.config.publicUrl, server.url), { headers });
/** A public token call as the landing page makes it: the token in the x-room-link-token header. */
const linkCall = (path: string, token: string, headers: Record<string, string> = {}) => publicGet(`${server.url}${api(path)}`, { [ROOM_LINK_TOKEN_HEADER]: token, ...headers });
/** The download behind a handed-out URL (the landing page's Download button). */
const download = (url: string, headers: Record<string, string> = {}) => linkCall(ROOM_LINK_PATHS.content, tokenOf(url), headers);

beforeAll(async () => {
  if (!clamdSkip) clamd = await startTestClamd();
  // A stand-in web client: the handed-out URL is the SPA's landing page.
  webRoot = await mkdtemp(join(tmpdir(), 'kuvert-links-client-'));
  mkdirSync(join(webRoot, 'webjars'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head><title>Kuvert</title></head><body><div id="root"></div></body></html>');
  // trustProxy: the rate-limit test calls "from" another client address (X-Forwarded-For).
  server = await startTestServer({
    clock: () => Date.now() + clockShift,
    logStream: { write: (line) => void logLines.push(line) },
    config: { webRoot, uploadPartSize: PART_SIZE, trustProxy: '127.0.0.1', jobPollIntervalMs: 100, ...(clamd ? { clamdAddress: clamd.socket, scanAttempts: 2, scanRetryDelayMs: 500, clamdTimeoutMs: 1500 } : {}) },
  });
  const admin = await signInAdmin(server);
  for (const name of ['owner', 'editor', 'viewer', 'previewer', 'outsider'] as const) {
    await createUserAsAdmin(server, admin, { email: email(name), firstName: name, lastName: 'Linker' });
    s[name] = await signIn(server, email(name), 'Good-Passw0rd');
  }
  room = await json<Room>(await req('owner', 'POST', ROOM_PATHS.rooms, { name: 'Linked room' }), 201);
  for (const [who, role] of [['editor', 'EDITOR'], ['viewer', 'VIEWER'], ['previewer', 'PREVIEWER']] as const) {
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email(who), role }), 200);
  }
  folder = await json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Shared' }), 201);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await clamd?.dispose();
  await rm(webRoot, { recursive: true, force: true });
});

it('runs on the database the environment asks for', () => {
  expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
});

describe('who may make, list and revoke links', () => {
  it('OWNER and EDITOR may; VIEWER and PREVIEWER 403; a non-member 404; anonymous 401', async () => {
    const file = await upload('roles.bin', new Uint8Array(testFileBytes(100)));
    const statuses: Record<string, number[]> = {};
    for (const actor of ACTORS) {
      const created = await createLink(actor, file.uuid, { expiresInDays: 3 });
      const listed = await req(actor, 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid));
      const mine = created.status === 201 ? ((await created.clone().json()) as CreatedRoomLink) : (await newLink(file.uuid)).link;
      const revoked = await req(actor, 'DELETE', ROOM_LINK_PATHS.link(room.uuid, file.uuid, mine.uuid));
      statuses[actor] = [created.status, listed.status, revoked.status];
      if (actor === 'previewer' || actor === 'viewer') {
        expect((await expectBackendError(created, 403, 'AccessDeniedException')).message).toBe("You don't have sufficient rights, please ask your administrator");
      }
      if (actor === 'outsider') expect(JSON.stringify(await expectBackendError(created, 404, 'NotFoundException'))).not.toContain('roles.bin');
      if (actor === 'anonymous') await expectBackendError(created, 401, 'AuthenticationRequiredException');
    }
    expect(statuses).toEqual({
      owner: [201, 200, 204],
      editor: [201, 200, 204],
      viewer: [403, 403, 403],
      previewer: [403, 403, 403],
      outsider: [404, 404, 404],
      anonymous: [401, 401, 401],
    });
    const list = await json<RoomLinkList>(await req('editor', 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid)), 200);
    // OWNER's and EDITOR's own links (revoked by themselves) and the four the others could not revoke.
    expect(list.links).toHaveLength(6);
    expect(list.links.filter((l) => l.state === 'revoked').map((l) => l.createdBy).sort()).toEqual([email('editor'), email('owner')]);
    const editorLink = list.links.find((l) => l.createdBy === email('editor'));
    // "Created by" carries the display name besides the address (issue 32).
    expect(editorLink).toMatchObject({ fileUuid: file.uuid, state: 'revoked', downloads: 0, createdByName: 'editor Linker' });
    expect(editorLink!.expiresAt - editorLink!.createdAt).toBe(3 * 86_400_000);
  });

  it('the expiry defaults to 7 days and may not exceed 90 (400 in the §8 shape)', async () => {
    const file = await upload('expiry.bin', new Uint8Array(testFileBytes(10)));
    const { link } = await newLink(file.uuid);
    expect(link.expiresAt - link.createdAt).toBe(7 * 86_400_000);
    expect(link.state).toBe('active');
    await expectBackendError(await createLink('owner', file.uuid, { expiresInDays: 91 }), 400, 'ValidationException');
    await expectBackendError(await createLink('owner', file.uuid, { expiresInDays: 0 }), 400, 'ValidationException');
  });
});

describe('the public download', () => {
  it('anyone with the URL gets the current content bit-exact, by Range too; a complete download is logged as "public link"', async () => {
    const bytes = new Uint8Array(testFileBytes(3 * PART_SIZE + 17));
    const file = await upload('Quarterly report.pdf', bytes);
    const { link, token } = await newLink(file.uuid);
    expect(link.url).toBe(`${server.app.config.publicUrl}/room-link#token=${token}`);
    // A browser opening the URL gets the web client (its landing page asks the info call below);
    // the fragment never leaves the browser, so the server sees `/room-link` only.
    const page = await publicGet(link.url, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    expect(logLines.join('\n')).toContain('"url":"/room-link"');
    // A link handed out before issue 28 (token as the path's last segment) still opens the page; the log redacts it.
    const old = await publicGet(`${server.url}/room-link/${token}`, { accept: 'text/html' });
    expect(await old.text()).toContain('<div id="root">');
    expect(logLines.join('\n')).toContain('/room-link/[redacted]');
    expect(logLines.join('\n')).not.toContain(token);

    const info = await json<RoomLinkInfo>(await linkCall(ROOM_LINK_PATHS.info, token), 200);
    expect(info).toEqual({ name: 'Quarterly report.pdf', size: bytes.length, mimeType: 'application/octet-stream', expiresAt: link.expiresAt, downloadsLeft: null });

    const whole = await download(link.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-disposition')).toContain('attachment');
    expect(whole.headers.get('content-disposition')).toContain('Quarterly report.pdf');
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bytes));
    for (const [range, start, end] of [['bytes=1000-2100', 1000, 2100], ['bytes=3000-', 3000, bytes.length - 1], ['bytes=-20', bytes.length - 20, bytes.length - 1]] as const) {
      const partial = await download(link.url, { range });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await partial.arrayBuffer()).equals(Buffer.from(bytes.subarray(start, end + 1)))).toBe(true);
    }

    // A new version: the link serves the file's current content.
    const next = new Uint8Array(testFileBytes(PART_SIZE + 3));
    const announced = await json<RoomUploadFile>(
      await req('editor', 'POST', ROOM_PATHS.files(room.uuid), { name: 'Quarterly report.pdf', size: next.length, mimeType: 'application/octet-stream', folderUuid: folder.uuid, replace: true }),
      201,
    );
    for (let i = 0; i < announced.partCount; i++) {
      const part = next.subarray(i * PART_SIZE, (i + 1) * PART_SIZE);
      const put = await fetch(`${server.url}${api(ROOM_PATHS.filePart(room.uuid, announced.uuid, i))}`, {
        method: 'PUT',
        headers: { cookie: s.editor.cookie, [ANTI_CSRF_HEADER]: s.editor.csrf, 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part) },
        body: new Blob([Uint8Array.from(part)]),
      });
      expect(put.status).toBe(200);
    }
    await json(await req('editor', 'POST', ROOM_PATHS.fileCommit(room.uuid, announced.uuid)), 200);
    await scanned(file.uuid);
    const current = await download(link.url);
    expect(current.status).toBe(200);
    expect(sha256(new Uint8Array(await current.arrayBuffer()))).toBe(sha256(next));

    // The log: four complete downloads by "public link" — the whole file twice and the two Ranges
    // that reach the last byte; the one that stops short is none.
    const deadline = Date.now() + 5000;
    let entries: RoomActivityList['entries'] = [];
    while (Date.now() < deadline) {
      entries = (await json<RoomActivityList>(await req('owner', 'GET', `${ROOM_PATHS.activity(room.uuid)}?fileUuid=${file.uuid}`), 200)).entries;
      if (entries.filter((e) => e.kind === 'download').length >= 4) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(entries.filter((e) => e.kind === 'download').map((e) => e.actor)).toEqual(Array(4).fill(ROOM_LINK_ACTOR));
    const listed = await json<RoomLinkList>(await req('owner', 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid)), 200);
    expect(listed.links[0]!.downloads).toBe(4);
  });

  it('a revoked link answers 410 linkRevoked, an expired one 410 linkExpired, an unknown token 404', async () => {
    const file = await upload('gone.bin', new Uint8Array(testFileBytes(50)));
    const revoked = await newLink(file.uuid);
    expect((await download(revoked.link.url)).status).toBe(200);
    await json(await req('owner', 'DELETE', ROOM_LINK_PATHS.link(room.uuid, file.uuid, revoked.link.uuid)), 204);
    const refused = await expectBackendError(await download(revoked.link.url), 410, 'NotFoundException');
    expect(refused).toMatchObject({ message: 'This link was revoked', metadata: { reason: 'linkRevoked' } });
    await expectBackendError(await linkCall(ROOM_LINK_PATHS.info, revoked.token), 410, 'NotFoundException');

    const expired = await newLink(file.uuid, { expiresInDays: 1 });
    // A day later (the clock of the row; the server compares with its own now).
    await server.app.db.updateTable('room_links').set({ expires_at: Date.now() - 1 }).where('uuid', '=', expired.link.uuid).execute();
    const late = await expectBackendError(await download(expired.link.url), 410, 'NotFoundException');
    expect(late).toMatchObject({ message: 'This link has expired', metadata: { reason: 'linkExpired' } });
    const states = (await json<RoomLinkList>(await req('owner', 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid)), 200)).links.map((l) => l.state);
    expect(states).toEqual(['expired', 'revoked']);

    const unknown = await expectBackendError(await linkCall(ROOM_LINK_PATHS.content, 'A'.repeat(43)), 404, 'NotFoundException');
    expect(unknown.metadata).toMatchObject({ reason: 'linkInvalid' });
    await expectBackendError(await linkCall(ROOM_LINK_PATHS.content, 'not a token'), 400, 'ValidationException');
  });

  it('a file in the trash (or below a trashed folder) answers 410 fileDeleted; restored, the link works again', async () => {
    const inner = await json<RoomFolder>(await req('owner', 'POST', ROOM_PATHS.folders(room.uuid), { name: 'Inner', parentUuid: folder.uuid }), 201);
    const bytes = new Uint8Array(testFileBytes(70));
    const file = await upload('trashed.bin', bytes, inner.uuid);
    const { link } = await newLink(file.uuid);
    await json(await req('editor', 'DELETE', ROOM_PATHS.file(room.uuid, file.uuid)), 204);
    expect((await expectBackendError(await download(link.url), 410, 'NotFoundException')).metadata).toMatchObject({ reason: 'fileDeleted' });
    await json(await req('owner', 'POST', ROOM_PATHS.trashRestore(room.uuid, file.uuid)), 204);
    expect(sha256(new Uint8Array(await (await download(link.url)).arrayBuffer()))).toBe(sha256(bytes));
    await json(await req('owner', 'DELETE', ROOM_PATHS.folder(room.uuid, inner.uuid)), 204);
    expect((await expectBackendError(await download(link.url), 410, 'NotFoundException')).metadata).toMatchObject({ reason: 'fileDeleted' });
  });

  it('a link stops working once its maker may no longer share the file (410 creatorLostAccess), and works again with the role back', async () => {
    const bytes = new Uint8Array(testFileBytes(30));
    const file = await upload('maker.bin', bytes);
    const made = await json<CreatedRoomLink>(await createLink('editor', file.uuid), 201);
    expect((await download(made.url)).status).toBe(200);
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'VIEWER' }), 200);
    const refused = await expectBackendError(await download(made.url), 410, 'NotFoundException');
    expect(refused.metadata).toMatchObject({ reason: 'creatorLostAccess' });
    await json(await req('owner', 'PUT', ROOM_PATHS.access(room.uuid), { user: email('editor'), role: 'EDITOR' }), 200);
    expect(sha256(new Uint8Array(await (await download(made.url)).arrayBuffer()))).toBe(sha256(bytes));
  });

  it.skipIf(clamdSkip !== null)('a file the scan blocked is refused (403 virusDetected), for info and download', async () => {
    const infected = Buffer.concat([testFileBytes(PART_SIZE - 20), EICAR, randomBytes(30)]);
    const file = await upload('invoice.txt', new Uint8Array(infected));
    expect(file.scanState).toBe('virusDetected');
    const { link, token } = await newLink(file.uuid);
    const refused = await expectBackendError(await download(link.url), 403, 'FileNotAllowedException');
    expect(refused.metadata).toMatchObject({ name: 'invoice.txt', scanState: 'virusDetected', reason: 'virusDetected' });
    await expectBackendError(await linkCall(ROOM_LINK_PATHS.info, token), 403, 'FileNotAllowedException');
  });

  it('the token is stored only as its SHA-256: no column of the table holds it', async () => {
    const file = await upload('hashed.bin', new Uint8Array(testFileBytes(10)));
    const { link, token } = await newLink(file.uuid);
    const rows = await server.app.db.selectFrom('room_links').selectAll().execute();
    const row = rows.find((r) => r.uuid === link.uuid)!;
    expect(row.token_hash).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(Buffer.from(token, 'base64url').toString('hex'));
  });
});

describe('the token travels in the x-room-link-token header, never in the URL (issue 28)', () => {
  it('a missing or malformed header is refused (400 ValidationException naming the header), a wrong token 404, an expired one 410', async () => {
    const file = await upload('header.bin', new Uint8Array(testFileBytes(20)));
    const { link, token } = await newLink(file.uuid);
    for (const path of [ROOM_LINK_PATHS.info, ROOM_LINK_PATHS.content]) {
      const missing = await expectBackendError(await publicGet(`${server.url}${api(path)}`), 400, 'ValidationException');
      expect(JSON.stringify(missing.metadata)).toContain(ROOM_LINK_TOKEN_HEADER);
      await expectBackendError(await linkCall(path, `${token.slice(0, 40)}%%%`), 400, 'ValidationException');
      expect((await expectBackendError(await linkCall(path, 'C'.repeat(43)), 404, 'NotFoundException')).metadata).toMatchObject({ reason: 'linkInvalid' });
    }
    expect((await linkCall(ROOM_LINK_PATHS.info, token)).status).toBe(200);
    await server.app.db.updateTable('room_links').set({ expires_at: Date.now() - 1 }).where('uuid', '=', link.uuid).execute();
    for (const path of [ROOM_LINK_PATHS.info, ROOM_LINK_PATHS.content]) {
      expect((await expectBackendError(await linkCall(path, token), 410, 'NotFoundException')).metadata).toMatchObject({ reason: 'linkExpired' });
    }
  });

  it('the path form of before is retired: 404, and neither it nor the header calls put the token in a log line', async () => {
    const bytes = new Uint8Array(testFileBytes(40));
    const file = await upload('retired.bin', bytes);
    const { link, token } = await newLink(file.uuid);
    const before = logLines.length;
    for (const path of [`/room-links/${token}`, `/room-links/${token}/content`]) {
      const body = await expectBackendError(await publicGet(`${server.url}${api(path)}`), 404, 'NotFoundException');
      // The error body names the path as the log does: the token segment redacted.
      expect(body.requestUri).toBe(api(path).replace(token, '[redacted]'));
      expect(JSON.stringify(body)).not.toContain(token);
    }
    expect(sha256(new Uint8Array(await (await download(link.url)).arrayBuffer()))).toBe(sha256(bytes));
    expect((await linkCall(ROOM_LINK_PATHS.info, token)).status).toBe(200);
    const log = logLines.slice(before).join('\n');
    // The requests are in the log (so the check below looks at real lines), the token is not.
    expect(log).toContain('"url":"/api/2/room-links/[redacted]/content"');
    expect(log).toContain('"url":"/api/2/room-links/by-token/content"');
    expect(log).toContain('"url":"/api/2/room-links/by-token"');
    expect(logLines.join('\n')).not.toContain(token);
  });

  it('OpenAPI names the header as a required parameter of both calls, and no path has a token parameter', async () => {
    const document = (await (await fetch(`${server.url}/api/2/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; required?: boolean }> }>> };
    for (const path of [ROOM_LINK_PATHS.info, ROOM_LINK_PATHS.content]) {
      const operation = document.paths[api(path)]?.get;
      expect(operation?.parameters, path).toContainEqual(expect.objectContaining({ in: 'header', name: ROOM_LINK_TOKEN_HEADER, required: true }));
    }
    expect(Object.keys(document.paths).filter((path) => path.includes('{token}'))).toEqual([]);
  });
});

describe('password, expiry date and download limit (issue 32 §2)', () => {
  // Their own client address: the address budget of the other tests stays untouched.
  const from = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
  const withPassword = (password: string, n: number) => ({ ...from(n), [ROOM_LINK_PASSWORD_HEADER]: encodeURIComponent(password) });
  /** The link's count once it reaches `n`: a download counts after its last byte is sent, just after the response ends. */
  async function counted(linkUuid: string, n: number): Promise<number> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const row = await server.app.db.selectFrom('room_links').select('downloads').where('uuid', '=', linkUuid).executeTakeFirstOrThrow();
      if (Number(row.downloads) >= n || Date.now() > deadline) return Number(row.downloads);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a protected link asks for its password (403 passwordRequired), refuses a wrong one (403 passwordWrong) and serves the file with the right one', async () => {
    const bytes = new Uint8Array(testFileBytes(2 * PART_SIZE + 5));
    const file = await upload('protected.bin', bytes);
    const password = 'Sesam-öffne-dich 7';
    const { link, token } = await newLink(file.uuid, { password, maxDownloads: 5 });
    expect(link).toMatchObject({ passwordProtected: true, maxDownloads: 5, state: 'active' });
    for (const path of [ROOM_LINK_PATHS.info, ROOM_LINK_PATHS.content]) {
      const asked = await expectBackendError(await linkCall(path, token, from(1)), 403, 'AccessDeniedException');
      expect(asked).toMatchObject({ message: 'This link is protected by a password', metadata: { reason: 'passwordRequired' } });
      expect(JSON.stringify(asked)).not.toContain('protected.bin');
      const wrong = await expectBackendError(await linkCall(path, token, withPassword('Sesam-oeffne-dich 7', 1)), 403, 'AccessDeniedException');
      expect(wrong).toMatchObject({ message: 'The password is wrong', metadata: { reason: 'passwordWrong' } });
    }
    const info = await json<RoomLinkInfo>(await linkCall(ROOM_LINK_PATHS.info, token, withPassword(password, 1)), 200);
    expect(info).toMatchObject({ name: 'protected.bin', size: bytes.length, downloadsLeft: 5 });
    const got = await linkCall(ROOM_LINK_PATHS.content, token, withPassword(password, 1));
    expect(got.status).toBe(200);
    expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(bytes));
    // Kept as its Argon2id hash only; an unprotected link has none.
    const row = await server.app.db.selectFrom('room_links').selectAll().where('uuid', '=', link.uuid).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain(password);
    expect(await counted(link.uuid, 1)).toBe(1);
    const plain = await newLink(file.uuid);
    expect(plain.link).toMatchObject({ passwordProtected: false, maxDownloads: null });
    // Too short a password is bad input (the §8 shape).
    await expectBackendError(await createLink('owner', file.uuid, { password: 'abc' }), 400, 'ValidationException');
  });

  it('wrong passwords are counted per link: beyond the limit the link answers 429, even to the right password, from any address', async () => {
    const file = await upload('guessed.bin', new Uint8Array(testFileBytes(20)));
    const { token } = await newLink(file.uuid, { password: 'Right-Passw0rd' });
    for (let i = 0; i < ROOM_LINK_PASSWORD_LIMIT.limit; i++) {
      await expectBackendError(await linkCall(ROOM_LINK_PATHS.info, token, withPassword(`guess-${i}-xyz`, 2)), 403, 'AccessDeniedException');
    }
    const blocked = await linkCall(ROOM_LINK_PATHS.content, token, withPassword('Right-Passw0rd', 3));
    await expectBackendError(blocked.clone(), 429, 'RateLimitExceededException');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another link is not affected.
    const other = await newLink(file.uuid, { password: 'Right-Passw0rd' });
    expect((await linkCall(ROOM_LINK_PATHS.info, other.token, withPassword('Right-Passw0rd', 3))).status).toBe(200);
  });

  it('a download limit: complete downloads count (a Range that stops short does not); reached, the link is used up (410 linkUsedUp)', async () => {
    const bytes = new Uint8Array(testFileBytes(PART_SIZE + 100));
    const file = await upload('limited-downloads.bin', bytes);
    const { link, token } = await newLink(file.uuid, { maxDownloads: 2 });
    expect((await linkCall(ROOM_LINK_PATHS.content, token, { ...from(4), range: 'bytes=0-9' })).status).toBe(206);
    for (let i = 0; i < 2; i++) {
      expect((await json<RoomLinkInfo>(await linkCall(ROOM_LINK_PATHS.info, token, from(4)), 200)).downloadsLeft).toBe(2 - i);
      const whole = await linkCall(ROOM_LINK_PATHS.content, token, from(4));
      expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bytes));
      expect(await counted(link.uuid, i + 1)).toBe(i + 1);
    }
    for (const path of [ROOM_LINK_PATHS.info, ROOM_LINK_PATHS.content]) {
      const used = await expectBackendError(await linkCall(path, token, from(4)), 410, 'NotFoundException');
      expect(used).toMatchObject({ message: 'This link is used up: its download limit is reached', metadata: { reason: 'linkUsedUp' } });
    }
    const listed = (await json<RoomLinkList>(await req('owner', 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid)), 200)).links.find((l) => l.uuid === link.uuid);
    expect(listed).toMatchObject({ state: 'usedUp', downloads: 2, maxDownloads: 2 });
    for (const maxDownloads of [0, -1, 1.5, 10_001, '3']) {
      await expectBackendError(await createLink('owner', file.uuid, { maxDownloads }), 400, 'ValidationException');
    }
  });

  it('an expiry date from the calendar: the link works until then and answers 410 linkExpired once the server clock passes it', async () => {
    const bytes = new Uint8Array(testFileBytes(64));
    const file = await upload('dated.bin', bytes);
    const expiresAt = Date.now() + 3 * 86_400_000;
    const { link, token } = await newLink(file.uuid, { expiresAt, password: 'Dated-Passw0rd' });
    expect(link.expiresAt).toBe(expiresAt);
    expect((await json<RoomLinkInfo>(await linkCall(ROOM_LINK_PATHS.info, token, withPassword('Dated-Passw0rd', 5)), 200)).expiresAt).toBe(expiresAt);
    // The server's links' clock is moved to just before the date, then past it (the process's own time is left alone).
    try {
      clockShift = expiresAt - 60_000 - Date.now();
      expect((await linkCall(ROOM_LINK_PATHS.content, token, withPassword('Dated-Passw0rd', 5))).status).toBe(200);
      clockShift = expiresAt + 1 - Date.now();
      for (const path of [ROOM_LINK_PATHS.info, ROOM_LINK_PATHS.content]) {
        const late = await expectBackendError(await linkCall(path, token, withPassword('Dated-Passw0rd', 5)), 410, 'NotFoundException');
        expect(late).toMatchObject({ message: 'This link has expired', metadata: { reason: 'linkExpired' } });
      }
      // The owner's list says so too.
      expect((await json<RoomLinkList>(await req('owner', 'GET', ROOM_LINK_PATHS.links(room.uuid, file.uuid)), 200)).links.find((l) => l.uuid === link.uuid)).toMatchObject({ state: 'expired' });
    } finally {
      clockShift = 0;
    }
    // A date in the past or beyond the longest expiry is bad input, named in the §8 shape.
    for (const [at, code] of [[Date.now() - 1000, 'too_small'], [Date.now() + 100 * 86_400_000, 'too_big']] as const) {
      const refused = await expectBackendError(await createLink('owner', file.uuid, { expiresAt: at }), 400, 'ValidationException');
      expect(refused.metadata).toMatchObject({ issues: [expect.objectContaining({ path: '/expiresAt', code })] });
    }
    await expectBackendError(await createLink('owner', file.uuid, { expiresAt: 'tomorrow' }), 400, 'ValidationException');
  });
});

describe('end-to-end encrypted rooms', () => {
  it('refuse a link with 409 encryptedRoom and say why', async () => {
    const owner = await e2eActor(server, s.owner);
    await giveSecuPass(owner, 'Owner-SecuPass-links-Granite-4');
    const { room: sealed, response } = await createE2eRoom(server, owner, 'Sealed');
    expect(response.status).toBe(201);
    const { handle } = await openRoomKey(server, owner, sealed.uuid);
    const uploaded = await uploadE2eFile(server, owner, sealed.uuid, handle, { name: 'secret.txt', bytes: new Uint8Array(randomBytes(40)), partSize: PART_SIZE });
    expect(uploaded.file).toBeDefined();
    const refused = await expectBackendError(await call(server, s.owner, 'POST', api(ROOM_LINK_PATHS.links(sealed.uuid, uploaded.uuid)), {}), 409, 'ConflictException');
    expect(refused.metadata).toMatchObject({ reason: 'encryptedRoom' });
    expect(refused.message).toContain('end-to-end encrypted');
    expect(refused.message).toContain('cannot decrypt');
    expect(await server.app.db.selectFrom('room_links').select('id').where('room_id', '=', (await server.app.db.selectFrom('data_rooms').select('id').where('uuid', '=', sealed.uuid).executeTakeFirstOrThrow()).id).execute()).toEqual([]);
  });
});

describe('rate limit of the public calls', () => {
  it('counts every call per client address, wrong tokens too; beyond the limit 429 with Retry-After', async () => {
    const file = await upload('limited.bin', new Uint8Array(testFileBytes(10)));
    const { link } = await newLink(file.uuid);
    const from = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < ROOM_LINK_IP_LIMIT.limit; i++) {
      const wrong = await linkCall(ROOM_LINK_PATHS.content, `${'B'.repeat(40)}${String(i).padStart(3, '0')}`, from);
      expect(wrong.status).toBe(404);
    }
    const blocked = await download(link.url, from);
    await expectBackendError(blocked.clone(), 429, 'RateLimitExceededException');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await download(link.url, { 'x-forwarded-for': '203.0.113.78' })).status).toBe(200);
  });
});
