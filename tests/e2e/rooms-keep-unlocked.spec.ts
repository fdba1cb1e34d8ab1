// "Keep unlocked in this browser session" (issue 32 §2; shared/crypto/README.md "Keeping keys
// unlocked across a reload"): ticked, a reload of the Secure room shows its decrypted file names
// without the passphrase, and the page's IndexedDB holds neither the passphrase nor key bytes in
// the clear; a sign-out locks again; unticked, a reload locks.
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass } from '@tests/integration/e2e-helpers';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { createE2eRoom, openRoomKey, uploadE2eFile } from '@tests/integration/rooms-e2e-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';

const en = { secupass: locale<typeof import('@locales/en/secupass.json')>('en', 'secupass') };
const PASSPHRASE = 'Keep-Unlocked-SecuPass-Birch-77';
const ROOM = 'Kept keys room';
const FILE = 'budget-2027.xlsx';

let server: TestServer;
let owner: TestUser;
let roomUuid: string;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: 1024 } });
  owner = await createUserInRepository(server, { username: 'kira', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  const actor = await e2eActor(server, await apiSessionOf(server, owner.email, owner.password));
  await giveSecuPass(actor, PASSPHRASE);
  const { room } = await createE2eRoom(server, actor, ROOM);
  roomUuid = room.uuid;
  const { handle } = await openRoomKey(server, actor, roomUuid);
  await uploadE2eFile(server, actor, roomUuid, handle, { name: FILE, bytes: new Uint8Array(randomBytes(1500)), partSize: 1024 });
});
test.afterAll(async () => {
  await server?.close();
});

const fileName = (page: Page) => page.getByText(FILE, { exact: true }).first();
const lockedButton = (page: Page) => page.getByRole('button', { name: 'Enter passphrase' }).first();

async function unlock(page: Page, keep: boolean): Promise<void> {
  await lockedButton(page).click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  const box = dialog.getByRole('checkbox', { name: en.secupass.unlock.keep });
  await expect(box).not.toBeChecked();
  if (keep) {
    await box.check();
    await expectNoSeriousA11yViolations(page, 'unlock dialog with the keep box ticked');
  }
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
}

/** Every value stored in the kept-keys database, as JSON-ish text (CryptoKeys print as objects). */
async function keptRecordsText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('kuvert-kept-keys');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    if (!db.objectStoreNames.contains('records')) return '';
    const all = await new Promise<unknown[]>((resolve, reject) => {
      const read = db.transaction('records').objectStore('records').getAll();
      read.onsuccess = () => resolve(read.result);
      read.onerror = () => reject(read.error);
    });
    db.close();
    const seen = (value: unknown): unknown => {
      if (value instanceof CryptoKey) return { cryptoKey: value.algorithm.name, extractable: value.extractable };
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return `bytes:${(value as ArrayBuffer).byteLength}`;
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, seen(v)]));
      return value;
    };
    return JSON.stringify(all.map(seen));
  });
}

test('ticked, a reload keeps the Secure room readable; the store holds no passphrase and a non-extractable key; sign-out locks', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(page, true);
  await expect(fileName(page)).toBeVisible({ timeout: 60_000 });

  const stored = await keptRecordsText(page);
  expect(stored).not.toBe('[]');
  expect(stored).not.toContain(PASSPHRASE);
  expect(stored).toContain('"extractable":false');
  expect(stored).not.toContain('"extractable":true');

  await page.reload();
  await expect(fileName(page)).toBeVisible({ timeout: 60_000 });
  await expect(lockedButton(page)).toBeHidden();

  await page.getByRole('button', { name: /^User menu of / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  expect(await keptRecordsText(page)).toBe('[]');
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await expect(lockedButton(page)).toBeVisible({ timeout: 60_000 });
});

test('unticked, a reload locks the keys again', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms/${roomUuid}`);
  await unlock(page, false);
  await expect(fileName(page)).toBeVisible({ timeout: 60_000 });
  expect(await keptRecordsText(page)).toBe('[]');
  await page.reload();
  await expect(lockedButton(page)).toBeVisible({ timeout: 60_000 });
});
