// Issue 32 in the browser against one real server: a Secure (end-to-end encrypted) room is not in
// the plain "Datarooms" list (the plain room beside it is), and the plain room page opened by address
// with the Secure room's id says it is a Secure room and links to the Secure room page. axe on it.
import { expect } from '@playwright/test';
import { ROOM_PATHS, type Room } from '@shared/contract/rooms';
import { signIn as apiSessionOf } from '@tests/integration/core-helpers';
import { e2eActor, giveSecuPass } from '@tests/integration/e2e-helpers';
import { createUser as createUserInRepository, type TestUser } from '@tests/integration/escalation-helpers';
import { createE2eRoom, json, req } from '@tests/integration/rooms-e2e-helpers';
import { startTestServer, type TestServer } from '../support/server';
import { expectInbox, expectNoSeriousA11yViolations, locale, signIn, test } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
let server: TestServer;
let owner: TestUser;

test.beforeAll(async () => {
  server = await startTestServer();
  owner = await createUserInRepository(server, { username: 'sina', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUROOMS_CREATOR'] });
});
test.afterAll(async () => {
  await server?.close();
});

test('the plain list has no Secure room; its id in the plain room page says so and leads to the Secure room page', async ({ page }) => {
  test.setTimeout(180_000);
  const actor = await e2eActor(server, await apiSessionOf(server, owner.email, owner.password));
  await giveSecuPass(actor, 'Sina-Kind-SecuPass-Cobalt-23');
  const { room: secure } = await createE2eRoom(server, actor, 'Board papers');
  const plain = await json<Room>(await req(server, actor, 'POST', ROOM_PATHS.rooms, { name: 'Plain papers' }), 201);

  await signIn(page, server, { username: owner.email, password: owner.password });
  await expectInbox(page, server);
  await page.goto(`${server.url}/datarooms`);
  await expect(page.getByRole('link', { name: plain.name })).toBeVisible();
  await expect(page.getByText(secure.name)).toHaveCount(0);
  await expect(page.locator(`a[href*="${secure.uuid}"]`)).toHaveCount(0);

  await page.goto(`${server.url}/datarooms/${secure.uuid}`);
  await expect(page.getByText(rooms.room.secureRoomHere)).toBeVisible();
  // Nothing of the plain page: no sealed name, no upload or folder action.
  await expect(page.getByText(secure.name)).toHaveCount(0);
  await expect(page.getByRole('toolbar', { name: rooms.room.toolbar })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'plain room page with a Secure room');
  await page.getByRole('link', { name: rooms.room.openSecureRoom }).click();
  await expect(page).toHaveURL(`${server.url}/secure-rooms/${secure.uuid}`);
});
