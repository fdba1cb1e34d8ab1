// The licence-exceeded dialog (issue 15, SPEC §2 "license-exceeded", §8 "license overused dialog")
// against a real server whose operator cap for data room creators (0) is below the count (1, the
// creator made before): "Create data room" offers the name dialog, the server's 409
// LicenseLimitExceededException replaces it with the dialog naming the licence and its figures;
// nothing is created. axe on the dialog.
import { expect } from '@playwright/test';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { startTestServer, type TestServer } from '@tests/support/server';
import { en as enBase, expectNoSeriousA11yViolations, locale, signInToInbox, test } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const en = { ...enBase, rooms };
let server: TestServer;
let creator: TestUser;

test.beforeAll(async () => {
  server = await startTestServer({ config: { licenceDataRoomCreators: 0 } });
  creator = await createUserInRepository(server, { username: 'lena', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
  // Only the creator role lets her create (no sender licence), and that licence is overused.
  await server.app.users.update(creator.id, { licensed: 0 });
});
test.afterAll(async () => server?.close());

test('creating a room with an overused licence opens the licence-exceeded dialog with its figures', async ({ page }) => {
  test.setTimeout(90_000);
  await signInToInbox(page, server, creator);
  await page.getByRole('navigation', { name: en.shell.menu.label }).getByRole('link', { name: en.shell.menu.datarooms }).click();
  await page.getByRole('button', { name: rooms.create.action }).click();
  const naming = page.getByRole('dialog', { name: rooms.create.title });
  await naming.getByRole('textbox', { name: rooms.create.nameLabel }).fill('Board Room');
  const refused = page.waitForResponse((response) => response.url().endsWith('/api/2/rooms') && response.request().method() === 'POST');
  await naming.getByRole('button', { name: rooms.create.submit }).click();
  expect((await refused).status()).toBe(409);

  const dialog = page.getByRole('alertdialog', { name: rooms.licenceExceeded.title });
  await expect(dialog).toBeVisible();
  await expect(naming).toHaveCount(0);
  await expect(dialog).toContainText(rooms.licenceExceeded.text.replace('{{licence}}', rooms.licenceExceeded.kinds.dataRoomCreators));
  await expect(dialog.getByTestId('licence-cap')).toHaveText('0');
  await expect(dialog.getByTestId('licence-used')).toHaveText('1');
  await expectNoSeriousA11yViolations(page, 'licence-exceeded dialog');
  await dialog.getByRole('button', { name: rooms.licenceExceeded.close }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(rooms.list.empty)).toBeVisible();
  expect(await server.app.db.selectFrom('data_rooms').select('id').execute()).toEqual([]);
});
