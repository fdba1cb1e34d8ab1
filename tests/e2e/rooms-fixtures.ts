// Set-up of data-room specs through the real API (rooms, folders, complete files), so a spec's
// browser part starts where its story does.
import { expect, type Page } from '@playwright/test';
import { CONTENT_SHA256_HEADER } from '@shared/contract/deliveries';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { ROOM_PATHS, type Room, type RoomFolder } from '@shared/contract/rooms';
import { createHash } from 'node:crypto';
import { apiCall, en, locale, type ApiSession, type TestServer } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

export const apiCreateRoom = async (server: TestServer, session: ApiSession, name: string): Promise<Room> =>
  json<Room>(await apiCall(server, session, 'POST', ROOM_PATHS.rooms, { name }), 201);

export const apiCreateFolder = async (server: TestServer, session: ApiSession, roomUuid: string, name: string, parentUuid: string | null = null): Promise<RoomFolder> =>
  json<RoomFolder>(await apiCall(server, session, 'POST', ROOM_PATHS.folders(roomUuid), { name, parentUuid }), 201);

export const apiShareRoom = async (server: TestServer, session: ApiSession, roomUuid: string, user: string, role: string): Promise<void> => {
  await json(await apiCall(server, session, 'PUT', ROOM_PATHS.access(roomUuid), { user, role }), 200);
};

/** Announces, uploads part by part (with hashes) and commits one file. */
export async function apiUploadRoomFile(
  server: TestServer,
  session: ApiSession,
  roomUuid: string,
  folderUuid: string | null,
  name: string,
  bytes: Uint8Array,
  mimeType = 'application/octet-stream',
): Promise<RoomUploadFile> {
  const file = await json<RoomUploadFile>(await apiCall(server, session, 'POST', ROOM_PATHS.files(roomUuid), { name, size: bytes.length, mimeType, folderUuid }), 201);
  for (let i = 0; i < file.partCount; i++) {
    const part = bytes.subarray(i * file.partSize, (i + 1) * file.partSize);
    const response = await apiCall(server, session, 'PUT', ROOM_PATHS.filePart(roomUuid, file.uuid, i), new Blob([Uint8Array.from(part)]), {
      'content-type': 'application/octet-stream',
      [CONTENT_SHA256_HEADER]: createHash('sha256').update(part).digest('hex'),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  return json<RoomUploadFile>(await apiCall(server, session, 'POST', ROOM_PATHS.fileCommit(roomUuid, file.uuid)), 200);
}

/** Unlocks the SecuPass from an E2E room page's "Enter passphrase" button (the room keys open in the Worker). */
export async function unlockRoomKeys(page: Page, passphrase: string): Promise<void> {
  await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(passphrase);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
}

/** Makes a folder from the E2E room page's "New folder" button and waits for its decrypted link. */
export async function newE2eFolder(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: rooms.e2e.newFolder }).click();
  const dialog = page.getByRole('dialog', { name: /^New folder in/ });
  await dialog.getByLabel(rooms.folder.nameLabel).fill(name);
  await dialog.getByRole('button', { name: rooms.folder.create }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible({ timeout: 30_000 });
}

/** Creates an E2E room from the secure-rooms list (keys unlocked) and waits for its page. */
export async function newE2eRoom(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: rooms.e2e.create.action }).click();
  const create = page.getByRole('dialog', { name: rooms.e2e.create.title });
  await create.getByLabel(rooms.create.nameLabel).fill(name);
  await create.getByRole('button', { name: rooms.create.submit, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
}
