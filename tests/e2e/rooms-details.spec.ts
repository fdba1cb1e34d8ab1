// The details sidebar and the breadcrumb context menu of plain data rooms against the real server
// (issue 15): the breadcrumb menu's entries each open their dialog (share, new folder, upload,
// request files, details, rename, delete; no folder download yet); the sidebar's Details tab, the Access tab where
// an OWNER changes and revokes a role after a confirmation naming item, role and person, the
// Activity tab; a file's details from the file menu; a VIEWER's menu and sidebar. axe on each.
import { expect, type Page } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { apiSignIn, en as enBase, expectNoSeriousA11yViolations, locale, serverPerFile, signInToInbox, test } from './fixtures';
import { apiCreateFolder, apiCreateRoom, apiShareRoom, apiUploadRoomFile } from './rooms-fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const roomRequests = locale<typeof import('@locales/en/roomRequests.json')>('en', 'roomRequests');
const en = { ...enBase, rooms };
const ctx = serverPerFile();
let owner: TestUser;
let colleague: TestUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  owner = await createUserInRepository(ctx.server, { username: 'dora', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  colleague = await createUserInRepository(ctx.server, { username: 'carl' });
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const crumbMenu = (page: Page, name: string) => page.getByRole('navigation', { name: rooms.room.breadcrumb }).getByRole('button', { name: fill(rooms.crumbMenu.label, { name }) });

test('breadcrumb menu entries, details sidebar with Access (change and revoke confirmed), Activity and Details', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { server } = ctx;
  const session = await apiSignIn(server, owner);
  const room = await apiCreateRoom(server, session, 'Audit Room');
  const folder = await apiCreateFolder(server, session, room.uuid, 'Reports');
  await apiUploadRoomFile(server, session, room.uuid, folder.uuid, 'q1.csv', new TextEncoder().encode('a,b\n1,2\n'));
  await apiShareRoom(server, session, room.uuid, colleague.email, 'EDITOR');

  await signInToInbox(page, server, owner);
  await page.goto(`${server.url}/datarooms/${room.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Room' })).toBeVisible();

  // Each breadcrumb menu entry opens what it says (closed again with Cancel / Escape).
  const entries = [rooms.share.action, rooms.folder.createAction, rooms.files.upload, roomRequests.request.action, rooms.files.zip, rooms.details.action, rooms.rename.action, rooms.delete.action];
  await crumbMenu(page, 'Audit Room').click();
  await expect(page.getByRole('menuitem')).toHaveText(entries);
  await expectNoSeriousA11yViolations(page, 'breadcrumb context menu');
  await page.getByRole('menuitem', { name: rooms.share.action, exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Share “Audit Room”' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: rooms.share.close }).click();
  await crumbMenu(page, 'Audit Room').click();
  await page.getByRole('menuitem', { name: rooms.folder.createAction }).click();
  await expect(page.getByRole('dialog', { name: fill(rooms.folder.createTitle, { name: 'Audit Room' }) })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: en.common.actions.cancel }).click();
  await crumbMenu(page, 'Audit Room').click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: rooms.files.upload }).click();
  expect((await chooser).isMultiple()).toBe(true);
  // Request files (rooms-request.spec.ts follows a request through).
  await crumbMenu(page, 'Audit Room').click();
  await page.getByRole('menuitem', { name: roomRequests.request.action }).click();
  await expect(page.getByRole('dialog', { name: fill(roomRequests.request.title, { place: 'Audit Room' }) })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: en.common.actions.cancel }).click();
  await crumbMenu(page, 'Audit Room').click();
  await page.getByRole('menuitem', { name: rooms.rename.action }).click();
  await expect(page.getByRole('dialog', { name: fill(rooms.rename.roomTitle, { name: 'Audit Room' }) })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: en.common.actions.cancel }).click();
  await crumbMenu(page, 'Audit Room').click();
  await page.getByRole('menuitem', { name: rooms.delete.action }).click();
  await expect(page.getByRole('alertdialog', { name: fill(rooms.delete.roomTitle, { name: 'Audit Room' }) })).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: en.common.actions.cancel }).click();

  // Details of the room: the facts first.
  await crumbMenu(page, 'Audit Room').click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  const panel = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'Audit Room' }) });
  await expect(panel.getByRole('tab', { name: rooms.details.details })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('tab', { name: 'Comments' })).toHaveCount(0);
  const facts = panel.getByRole('tabpanel');
  await expect(facts).toContainText(`${rooms.details.type}${rooms.details.typeRoom}`);
  await expect(facts).toContainText(`${rooms.details.createdBy}${owner.email}`);
  await expect(facts).toContainText(`${rooms.details.owners}`);
  await expect(facts).toContainText(rooms.details.notEncrypted);
  await expectNoSeriousA11yViolations(page, 'details sidebar (details tab)');

  // Access: change the colleague's role, asked first; then revoke it, asked first.
  await panel.getByRole('tab', { name: rooms.details.access }).click();
  const table = panel.getByRole('table', { name: fill(rooms.share.tableLabel, { name: 'Audit Room' }) });
  await expect(table.getByRole('row', { name: new RegExp(colleague.email) })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'details sidebar (access tab)');
  const who = colleague.email;
  await table.getByRole('combobox', { name: fill(rooms.share.roleOf, { name: who }) }).selectOption('VIEWER');
  const change = page.getByRole('alertdialog', { name: fill(rooms.details.changeTitle, { user: who }) });
  await expect(change).toContainText(fill(rooms.details.changeText, { user: who, role: rooms.roles.VIEWER, item: 'Audit Room' }));
  await expectNoSeriousA11yViolations(page, 'change access confirmation');
  await change.getByRole('button', { name: rooms.details.changeConfirm }).click();
  await expect(toast(page, `${who} is now Viewer of “Audit Room”.`)).toBeVisible();
  const colleagueId = (await server.app.db.selectFrom('users').select('id').where('email', '=', who).executeTakeFirstOrThrow()).id;
  const access = () => server.app.db.selectFrom('room_access').select('role').where('user_id', '=', colleagueId).execute();
  await expect.poll(async () => (await access()).map((a) => a.role)).toEqual(['VIEWER']);
  await table.getByRole('button', { name: fill(rooms.share.removeFor, { name: who }) }).click();
  const revoke = page.getByRole('alertdialog', { name: fill(rooms.details.revokeTitle, { user: who }) });
  await expect(revoke).toContainText(fill(rooms.details.revokeText, { user: who, role: rooms.roles.VIEWER, item: 'Audit Room' }));
  await revoke.getByRole('button', { name: rooms.details.revokeConfirm }).click();
  await expect(toast(page, `${who} no longer has access to “Audit Room” here.`)).toBeVisible();
  await expect.poll(async () => (await access()).length).toBe(0);

  // Activity: the upload of the file.
  await panel.getByRole('tab', { name: rooms.details.activity }).click();
  await expect(panel.getByRole('table', { name: rooms.activity.title }).getByRole('row', { name: /q1\.csv/ })).toContainText(rooms.activity.kinds.upload);
  await expectNoSeriousA11yViolations(page, 'details sidebar (activity tab)');
  await panel.getByRole('button', { name: rooms.details.close }).click();
  await expect(panel).toHaveCount(0);

  // A file's details from the file menu.
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('button', { name: 'Actions for file q1.csv' }).click();
  await page.getByRole('menuitem', { name: rooms.details.action }).click();
  const filePanel = page.getByRole('dialog', { name: fill(rooms.details.title, { name: 'q1.csv' }) });
  await expect(filePanel.getByRole('tabpanel')).toContainText(`${rooms.details.size}8 B`);
  await expect(filePanel.getByRole('tabpanel')).toContainText(`${rooms.details.uploadedBy}${owner.email}`);
  await expect(filePanel.getByRole('tabpanel')).toContainText(`${rooms.details.owners}${owner.email}`);
  await filePanel.getByRole('button', { name: rooms.details.close }).click();

  // A VIEWER: the breadcrumb menu has the ZIP download and Details only; no Access list, no Activity tab.
  await apiShareRoom(server, session, room.uuid, who, 'VIEWER');
  const context = await browser.newContext();
  const viewer = await context.newPage();
  await signInToInbox(viewer, server, colleague);
  await viewer.goto(`${server.url}/datarooms/${room.uuid}/folders/${folder.uuid}`);
  await crumbMenu(viewer, 'Reports').click();
  await expect(viewer.getByRole('menuitem')).toHaveText([rooms.files.zip, rooms.details.action]);
  await viewer.getByRole('menuitem', { name: rooms.details.action }).click();
  const viewerPanel = viewer.getByRole('dialog', { name: fill(rooms.details.title, { name: 'Reports' }) });
  await expect(viewerPanel.getByRole('tab', { name: rooms.details.activity })).toHaveCount(0);
  await expect(viewerPanel.getByRole('tabpanel')).toContainText(rooms.details.ownersHidden);
  await viewerPanel.getByRole('tab', { name: rooms.details.access }).click();
  await expect(viewerPanel.getByText(rooms.details.accessOwnersOnly)).toBeVisible();
  await expectNoSeriousA11yViolations(viewer, 'details sidebar (viewer)');
  await context.close();
});
