// The plain data room story end to end against the real server (issue 15 §3): an owner creates a
// room and drags a folder tree into it (the tree is recreated, the files go up through the
// transfer engine), uploads a second tree with the keyboard-reachable "Upload folder" button, and
// invites a registered user as EDITOR, who downloads a file with the same SHA-256; a VIEWER gets no
// upload control and the server refuses the upload; a PREVIEWER gets no download and the server
// refuses it too. axe on the screens. A drag from the desktop cannot be made by Playwright: the drop
// carries the same FileSystemEntry interface (directory readers in batches, file entries) built in
// the page around real File objects.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { ROOM_PATHS } from '@shared/contract/rooms';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';
import { apiShareRoom } from './rooms-fixtures';
import { startTestServer, type TestServer } from '../support/server';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
const PART_SIZE = 16 * 1024;
const ctx = {} as { server: TestServer };
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let previewer: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ctx.server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  owner = await createUserInRepository(ctx.server, { username: 'olga', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  editor = await createUserInRepository(ctx.server, { username: 'edgar' });
  viewer = await createUserInRepository(ctx.server, { username: 'vera' });
  previewer = await createUserInRepository(ctx.server, { username: 'pete' });
});

test.afterAll(async () => {
  await ctx.server?.close();
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A tree as the drop's entries see it: a folder is an object of children, a file its bytes (base64). */
type Tree = { [name: string]: Tree | string };

/** Drops `tree` on the drop zone as a desktop drag of folders does (DataTransferItem.webkitGetAsEntry). */
async function dropTree(page: Page, tree: Tree): Promise<void> {
  await page.getByTestId('room-drop-zone').evaluate((zone, spec) => {
    type Spec = { [name: string]: Spec | string };
    const entryOf = (name: string, node: Spec | string): unknown => {
      if (typeof node === 'string') {
        const file = new File([Uint8Array.from(atob(node), (c) => c.charCodeAt(0))], name, { type: 'application/octet-stream' });
        return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(file) };
      }
      const children = Object.entries(node).map(([child, sub]) => entryOf(child, sub));
      return {
        isFile: false,
        isDirectory: true,
        name,
        // Like Chromium: the children in batches, then an empty batch.
        createReader: () => {
          let at = 0;
          return { readEntries: (ok: (batch: unknown[]) => void) => ok(children.slice(at, (at += 2))) };
        },
      };
    };
    const items = Object.entries(spec).map(([name, node]) => ({ kind: 'file', webkitGetAsEntry: () => entryOf(name, node), getAsFile: () => null }));
    const dataTransfer = { items, types: ['Files'], files: [], dropEffect: 'none' };
    for (const type of ['dragover', 'drop']) {
      const event = new Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
      zone.dispatchEvent(event);
    }
  }, tree);
}

test('owner drops a folder tree, invites an EDITOR who downloads the same bytes; VIEWER cannot upload, PREVIEWER cannot download', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const { server } = ctx;
  await signInToInbox(page, server, owner);

  // A plain room, created in the UI.
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  await page.getByRole('button', { name: rooms.create.action }).click();
  await page.getByRole('textbox', { name: rooms.create.nameLabel }).fill('Scenario Room');
  await page.getByRole('button', { name: rooms.create.submit, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scenario Room' })).toBeVisible();
  const roomUuid = /datarooms\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await expect(page.getByText(rooms.drop.hint)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'empty room with upload controls');

  // The tree: 3 parts for big.bin, a nested file, an empty folder.
  const big = Uint8Array.from({ length: 40_000 }, (_, i) => (i * 13 + 5) % 256);
  const small = new TextEncoder().encode('minutes of the kick-off');
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  await dropTree(page, { Project: { 'big.bin': b64(big), Minutes: { 'kickoff.txt': b64(small) }, Empty: {} } });
  await expect(toast(page, rooms.files.toast.uploaded.replace('{{title}}', '2 files into “Scenario Room”'))).toBeVisible();
  const folders = page.getByRole('table', { name: rooms.room.folders });
  await folders.getByRole('link', { name: 'Project' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Project' })).toBeVisible();
  await expect(page.getByRole('table', { name: rooms.room.folders }).getByRole('link')).toHaveText(['Empty', 'Minutes']);
  await expect(page.getByRole('table', { name: rooms.files.title }).getByRole('row', { name: /big\.bin/ })).toContainText('39.1\u00a0KB');
  await page.getByRole('link', { name: 'Minutes' }).click();
  await expect(page.getByRole('table', { name: rooms.files.title }).getByRole('row', { name: /kickoff\.txt/ })).toBeVisible();
  const stored = await server.app.db.selectFrom('room_files').select(['name', 'sha256', 'part_count']).where('room_files.state', '=', 'complete').orderBy('name').execute();
  expect(stored).toEqual([
    { name: 'big.bin', sha256: sha256(big), part_count: 3 },
    { name: 'kickoff.txt', sha256: sha256(small), part_count: 1 },
  ]);

  // A second tree through the "Upload folder" button (a folder picker), reached with the keyboard.
  const dir = mkdtempSync(join(tmpdir(), 'kuvert-room-'));
  mkdirSync(join(dir, 'Scans', '2026'), { recursive: true });
  const scan = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256);
  writeFileSync(join(dir, 'Scans', '2026', 'scan.pdf'), scan);
  await page.getByRole('link', { name: 'Scenario Room' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scenario Room' })).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: rooms.drop.uploadFolder }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(join(dir, 'Scans'));
  await expect(toast(page, rooms.files.toast.uploaded.replace('{{title}}', 'scan.pdf'))).toBeVisible();
  await page.getByRole('link', { name: 'Scans' }).click();
  await page.getByRole('link', { name: '2026' }).click();
  await expect(page.getByRole('table', { name: rooms.files.title }).getByRole('row', { name: /scan\.pdf/ })).toBeVisible();

  // Invite the editor in the share dialog; the others through the API.
  await page.getByRole('link', { name: 'Scenario Room' }).click();
  await page.getByRole('button', { name: rooms.share.action, exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share “Scenario Room”' });
  await share.getByRole('textbox', { name: rooms.share.user }).fill(editor.email);
  await share.getByRole('combobox', { name: rooms.share.role, exact: true }).selectOption('EDITOR');
  await share.getByRole('button', { name: rooms.share.add }).click();
  await expect(toast(page, `${editor.email} is now Editor of “Scenario Room”.`)).toBeVisible();
  await share.getByRole('button', { name: rooms.share.close }).click();
  const session = await apiSignIn(server, owner);
  await apiShareRoom(server, session, roomUuid, viewer.email, 'VIEWER');
  await apiShareRoom(server, session, roomUuid, previewer.email, 'PREVIEWER');

  const projectUuid = (await server.app.db.selectFrom('room_folders').select('uuid').where('name', '=', 'Project').executeTakeFirstOrThrow()).uuid;
  const bigUuid = (await server.app.db.selectFrom('room_files').select('uuid').where('name', '=', 'big.bin').executeTakeFirstOrThrow()).uuid;
  const as = async (user: TestUser) => {
    const context = await browser.newContext({ acceptDownloads: true });
    const other = await context.newPage();
    await signInToInbox(other, server, user);
    await other.goto(`${server.url}/datarooms/${roomUuid}/folders/${projectUuid}`);
    await expect(other.getByRole('heading', { level: 1, name: 'Project' })).toBeVisible();
    return { context, page: other, files: other.getByRole('table', { name: rooms.files.title }) };
  };

  // The editor downloads big.bin: the very bytes.
  const ed = await as(editor);
  await expect(ed.page.getByRole('button', { name: rooms.files.upload })).toBeVisible();
  const download = ed.page.waitForEvent('download');
  await ed.files.getByRole('link', { name: 'Download big.bin' }).click();
  expect(sha256(await readFile(await (await download).path()))).toBe(sha256(big));
  await ed.context.close();

  // The viewer: no upload control at all, and the server refuses the announce.
  const vi = await as(viewer);
  await expect(vi.files.getByRole('row', { name: /big\.bin/ })).toBeVisible();
  for (const name of [rooms.files.upload, rooms.drop.uploadFolder]) await expect(vi.page.getByRole('button', { name })).toHaveCount(0);
  await expect(vi.page.getByText(rooms.drop.hint)).toHaveCount(0);
  await expectNoSeriousA11yViolations(vi.page, 'folder (viewer)');
  const refused = await apiCall(server, await apiSignIn(server, viewer), 'POST', ROOM_PATHS.files(roomUuid), { name: 'sneaky.txt', size: 3, folderUuid: projectUuid });
  expect(refused.status).toBe(403);
  await vi.context.close();

  // The previewer: sees the file, no download link, and the server refuses the bytes.
  const pr = await as(previewer);
  await expect(pr.files.getByRole('row', { name: /big\.bin/ })).toBeVisible();
  await expect(pr.files.getByRole('link', { name: 'Download big.bin' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(pr.page, 'folder (previewer)');
  const bytes = await apiCall(server, await apiSignIn(server, previewer), 'GET', ROOM_PATHS.fileContent(roomUuid, bigUuid));
  expect(bytes.status).toBe(403);
  await pr.context.close();
});
