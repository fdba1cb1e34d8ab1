// The retention policy editor in the browser (issue 31 §2; SPEC §2, §4, §5): the room's OWNER opens
// it from the room page, a period below the administrator's minimum is refused in the field, the
// preview names the file the period would move at the end of the day, Save stays disabled until
// every confirmation box is ticked (by keyboard), the toast confirms and the room shows the waiting
// change. After the end-of-day job the file is in the room's trash screen and the activity names the
// policy. A VIEWER has no editor; in a Secure room the preview's names are decrypted in the browser. The administrator sets the minimum in Secure rooms › General. axe on the dialog.
import { expect } from '@playwright/test';
import { MS_PER_DAY } from '@shared/contract/constants';
import { ROOM_RETENTION_MIN_DAYS_KEY, ROOM_RETENTION_PATHS, type RoomRetention } from '@shared/contract/room-retention';
import { localDayStart, runRoomRetention } from '@server/rooms/plain/retention';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiCreateAccount, apiSignIn, expectInbox, expectNoSeriousA11yViolations, locale, secuPassFromNode, signIn, signInToInbox, test } from './fixtures';
import { apiCreateRoom, apiShareRoom, apiUploadRoomFile, newE2eRoom, unlockRoomKeys } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const PASSWORD = 'Good-Passw0rd-rooms-retention';
const owner = { email: 'owner.rooms-retention@example.test', password: PASSWORD };
const viewer = { email: 'viewer.rooms-retention@example.test', password: PASSWORD };
const PASSPHRASE = 'Owner-Room-Retention-SecuPass-Granite-58';
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));

let server: TestServer;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const account of [owner, viewer]) await apiCreateAccount(server, admin, account);
  await secuPassFromNode(server, owner, PASSPHRASE);
});
test.afterAll(async () => {
  await server?.close();
});

test('Secure rooms › General sets the smallest retention period a room may have', async ({ page }) => {
  const admin = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
  await signIn(page, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/admin/secure-rooms`);
  await expect(page.getByRole('heading', { level: 1, name: admin.roomsAdmin.settings.title })).toBeVisible();
  const minimum = page.locator(`[data-setting="${ROOM_RETENTION_MIN_DAYS_KEY}"]`);
  await expect(minimum).toHaveValue('7');
  await expect(page.getByText(admin.roomsAdmin.settings.retentionMinDays)).toBeVisible();
  await minimum.fill('0');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(page.getByText('Enter a whole number from 1 to 3650.')).toBeVisible();
  await minimum.fill('5');
  await page.getByRole('button', { name: admin.settingsForm.save }).click();
  await expect(page.getByText(admin.settingsForm.saved).first()).toBeVisible({ timeout: 30_000 });
  const stored = await server.app.db.selectFrom('settings').select('value').where('key', '=', ROOM_RETENTION_MIN_DAYS_KEY).executeTakeFirstOrThrow();
  expect(JSON.parse(stored.value)).toBe(5);
});

test('the OWNER sets a retention period: minimum, preview, every box ticked before Save; the moved file shows in the trash', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Archive room');
  await apiShareRoom(server, session, room.uuid, viewer.email, 'VIEWER');
  const old = await apiUploadRoomFile(server, session, room.uuid, null, 'Jahresbericht 2019.pdf', new Uint8Array([1, 2, 3]));
  await apiUploadRoomFile(server, session, room.uuid, null, 'current.txt', new Uint8Array([4, 5, 6]));
  // Its last change 40 days ago (the data's clock; the server's stays real).
  await server.app.db.updateTable('room_files').set({ updated_at: Date.now() - 40 * MS_PER_DAY }).where('uuid', '=', old.uuid).execute();

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Archive room' })).toBeVisible();
  await page.getByRole('toolbar', { name: rooms.room.toolbar }).getByRole('button', { name: rooms.retention.action }).click();
  const dialog = page.getByRole('dialog', { name: rooms.retention.title });
  await expect(dialog.getByTestId('retention-summary')).toHaveText(fill(rooms.retention.inForce, { period: rooms.retention.none }));

  await dialog.getByRole('switch', { name: rooms.retention.enable }).check();
  const period = dialog.getByRole('spinbutton', { name: rooms.retention.period });
  const save = dialog.getByRole('button', { name: rooms.retention.save });
  // Below the administrator's minimum: the field says so and Save stays off.
  await period.fill('3');
  await expect(dialog.getByText(fill(rooms.retention.belowMinimum_other, { count: 5 }))).toBeVisible();
  await expect(save).toBeDisabled();

  await period.fill('30');
  const preview = dialog.getByTestId('retention-preview');
  await expect(preview).toContainText(fill(rooms.retention.previewCount_one, { count: 1 }));
  await expect(preview.getByRole('list', { name: rooms.retention.previewListLabel }).getByRole('listitem')).toHaveText(['Jahresbericht 2019.pdf']);
  await expectNoSeriousA11yViolations(page, 'retention policy editor');

  // Every box, by keyboard; Save only once the last one is ticked (SPEC §5).
  const boxes = dialog.getByRole('checkbox');
  await expect(boxes).toHaveCount(3);
  await expect(dialog.getByTestId('retention-accept-all')).toHaveText('You must accept all information to be able to continue');
  for (let i = 0; i < 3; i++) {
    await expect(save).toBeDisabled();
    await boxes.nth(i).focus();
    await page.keyboard.press('Space');
    await expect(boxes.nth(i)).toBeChecked();
  }
  await expect(dialog.getByTestId('retention-accept-all')).toHaveCount(0);
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText(rooms.retention.saved, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toHaveCount(0);

  const stored = (await (await apiCall(server, session, 'GET', ROOM_RETENTION_PATHS.policy(room.uuid))).json()) as RoomRetention;
  expect(stored).toMatchObject({ periodDays: null, pending: { periodDays: 30 } });
  // The room page shows the period in force and the one waiting for the end of the day, and so does the editor opened again.
  await expect(page.getByTestId('retention-summary')).toContainText(rooms.retention.days_other.replace('{{count}}', '30'));
  await page.getByRole('toolbar', { name: rooms.room.toolbar }).getByRole('button', { name: rooms.retention.action }).click();
  await expect(dialog.getByTestId('retention-summary')).toContainText(rooms.retention.days_other.replace('{{count}}', '30'));
  await expect(save).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The end-of-day run (its clock set to the first minutes of tomorrow): the old file is in the room's trash.
  expect((await runRoomRetention(server.app, localDayStart(Date.now(), 1) + 60_000)).moved).toBe(1);
  await page.goto(`${server.url}/datarooms/${room.uuid}/trash`);
  const trash = page.getByRole('table', { name: rooms.trash.tableLabel });
  await expect(trash.getByRole('row', { name: /Jahresbericht 2019\.pdf/ })).toBeVisible();
  await expect(trash.getByRole('row', { name: /current\.txt/ })).toHaveCount(0);
  // The room's activity names the policy as who moved it.
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await page.getByRole('button', { name: rooms.activity.show }).click();
  await expect(page.getByRole('row', { name: /Jahresbericht 2019\.pdf/ }).filter({ hasText: rooms.retention.activityActor })).toBeVisible();

  // A VIEWER has no editor (and the server refuses the change: tests/integration/rooms-retention.test.ts).
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInToInbox(other, server, viewer);
  await other.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(other.getByRole('heading', { level: 1, name: 'Archive room' })).toBeVisible();
  await expect(other.getByRole('button', { name: rooms.retention.action })).toHaveCount(0);
  // …but sees the policy (every member may read it): in force since the end-of-day run.
  await expect(other.getByTestId('retention-summary')).toHaveText(fill(rooms.retention.inForce, { period: rooms.retention.days_other.replace('{{count}}', '30') }));
  await context.close();

  // The administrators' trash bin says who moved it: the policy, not a person (issue 31).
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, server, { username: server.admin.email, password: server.admin.password });
  await expectInbox(adminPage, server);
  await adminPage.goto(`${server.url}/admin/trash-bin`);
  const adminTexts = locale<typeof import('@locales/en/admin.json')>('en', 'admin');
  const bin = adminPage.getByRole('table', { name: adminTexts.roomsAdmin.trash.tableLabel });
  await expect(bin.getByRole('row', { name: /Jahresbericht 2019\.pdf/ })).toContainText(rooms.trash.byRetention);
  await expectNoSeriousA11yViolations(adminPage, 'admin trash bin with a retention move');
  await adminContext.close();
});

test('in a Secure room the editor lists the decrypted names of the files the period would move', async ({ page }) => {
  test.setTimeout(240_000);
  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/secure-rooms`);
  await unlockRoomKeys(page, PASSPHRASE);
  await newE2eRoom(page, 'Sealed archive');
  const roomUuid = /secure-rooms\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  await page.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'Notizen 2020.txt', mimeType: 'text/plain', buffer: Buffer.from('alt') });
  await expect(page.getByRole('row').filter({ hasText: 'Notizen 2020.txt' }).filter({ hasText: owner.email })).toBeVisible({ timeout: 60_000 });
  const room = await server.app.db.selectFrom('data_rooms').select('id').where('uuid', '=', roomUuid).executeTakeFirstOrThrow();
  await server.app.db.updateTable('room_files').set({ updated_at: Date.now() - 60 * MS_PER_DAY }).where('room_id', '=', room.id).execute();

  await page.getByRole('button', { name: rooms.retention.action }).click();
  const dialog = page.getByRole('dialog', { name: rooms.retention.title });
  await dialog.getByRole('switch', { name: rooms.retention.enable }).check();
  await dialog.getByRole('spinbutton', { name: rooms.retention.period }).fill('30');
  const list = dialog.getByRole('list', { name: rooms.retention.previewListLabel });
  await expect(list.getByRole('listitem')).toHaveText(['Notizen 2020.txt'], { timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'Secure room retention policy editor');
  const save = dialog.getByRole('button', { name: rooms.retention.save });
  for (const box of await dialog.getByRole('checkbox').all()) {
    await expect(save).toBeDisabled();
    await box.check();
  }
  await save.click();
  await expect(page.getByText(rooms.retention.saved, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  const stored = (await (await apiCall(server, await apiSignIn(server, owner), 'GET', ROOM_RETENTION_PATHS.policy(roomUuid))).json()) as RoomRetention;
  expect(stored.pending?.periodDays).toBe(30);
});
