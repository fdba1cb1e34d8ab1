import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import type { E2eLabelChange } from '@shared/contract/rooms-e2e';
import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import { renameLink, type RoomFileMetadata } from '@shared/crypto/room';
import type { UnlockedKeys } from '@shared/crypto/service';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { checkedRoomName } from '../room-errors';
import { numberedName, type VersionConflictChoice } from '../api/room-files';
import { labelChange, relabelE2eFolder, type E2eFolderLabelsView } from './e2e-folder-labels';
import { takenNamesNow } from './e2e-names';
import { memberListVersionOf, roomKeyOf, writableRoomKeyOf, type E2eFolderView, type E2eListedFile, type E2eUploadPlacement } from './e2e-room-client';

/**
 * Renames and version conflicts of an E2E room (shared/crypto/README.md "7. Data rooms"): the
 * server cannot compare sealed names, so the browser finds a clash by the decrypted names of the
 * open folder, and a renamed file's metadata is re-signed with the new name by the renamer.
 */

/**
 * The room (OWNER; sealed as kind `room`, itemId the room's uuid) or a folder gets a new sealed name;
 * a file also its verified metadata re-signed (same version, key and bytes).
 */
export async function renameE2eEntry(
  roomUuid: string,
  keys: UnlockedKeys,
  item: { kind: 'room' } | { kind: 'folder'; uuid: string } | { kind: 'file'; file: E2eListedFile },
  newName: string,
): Promise<void> {
  const roomKey = await writableRoomKeyOf(roomUuid, keys);
  const name = checkedRoomName(newName);
  const itemId = item.kind === 'room' ? roomUuid : item.kind === 'folder' ? item.uuid : item.file.uuid;
  const [sealedName] = (await cryptoApi.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: item.kind, itemId, name }] })).sealed;
  let metadata: string | undefined;
  if (item.kind === 'file') {
    // Only a file whose metadata verified can be renamed: the rest of it is signed again unchanged.
    if (!item.file.metadata) throw new Error('The file’s metadata did not verify');
    const { signerKeyId: _signer, format: _format, memberListVersion: _list, ...rest } = item.file.metadata;
    // A new signed state of the same version: the counter goes up (README section 7 "Version chain"),
    // bound to the list the renamer signs under (her role now, not the uploader's then).
    metadata = (await cryptoApi.sealRoomFileMetadata({ roomKey, signingKey: keys.signing.handle, metadata: { ...rest, name, ...renameLink(item.file.metadata), ...(await memberListVersionOf(roomUuid, keys)) } })).sealed;
  }
  await call(apiClient, X.rename, { params: { roomUuid, itemUuid: itemId }, body: { name: sealedName ?? '', ...(metadata ? { metadata } : {}) } });
}

/** A Secure room file's classification and status as signed (absent: `none`). */
export const signedLabelsOf = (metadata: Pick<RoomFileMetadata, 'classification' | 'status'> | null) => ({ classification: metadata?.classification ?? 'none', status: metadata?.status ?? 'none' });

/**
 * Sets, changes or removes a Secure room file's classification and/or status (issue 31 §1;
 * shared/crypto/README.md section 7 "Classification and file status"): its verified metadata signed
 * again with the values by the caller (a new signed state of the same version, like a rename, the
 * same name sealed anew); the server logs the SPEC §4 types without the values.
 */
export async function relabelE2eFile(roomUuid: string, keys: UnlockedKeys, file: E2eListedFile, labels: { classification?: RoomClassification; status?: RoomFileStatus }): Promise<void> {
  if (!file.metadata) throw new Error('The file’s metadata did not verify');
  const before = signedLabelsOf(file.metadata);
  const after = { ...before, ...labels };
  const labelChanges = [labelChange('classification', before.classification, after.classification), labelChange('status', before.status, after.status)].filter((c): c is E2eLabelChange => c !== null);
  if (labelChanges.length === 0) return;
  const roomKey = await writableRoomKeyOf(roomUuid, keys);
  const [sealedName] = (await cryptoApi.encryptRoomNames({ roomKey, roomId: roomUuid, items: [{ kind: 'file', itemId: file.uuid, name: file.metadata.name }] })).sealed;
  const { signerKeyId: _signer, format: _format, memberListVersion: _list, classification: _c, status: _s, ...rest } = file.metadata;
  // `none` is written as absent: the form every file signed before issue 31 has.
  const values = { ...(after.classification === 'none' ? {} : { classification: after.classification }), ...(after.status === 'none' ? {} : { status: after.status }) };
  const metadata = (await cryptoApi.sealRoomFileMetadata({ roomKey, signingKey: keys.signing.handle, metadata: { ...rest, ...values, ...renameLink(file.metadata), ...(await memberListVersionOf(roomUuid, keys)) } })).sealed;
  await call(apiClient, X.rename, { params: { roomUuid, itemUuid: file.uuid }, body: { name: sealedName ?? '', metadata, labelChanges } });
}

/** The same for a folder: a new record of its classification and status, sealed and signed by the caller (e2e-folder-labels.ts). */
export async function relabelE2eFolderIn(roomUuid: string, keys: UnlockedKeys, folder: { uuid: string; labels: E2eFolderLabelsView }, labels: { classification?: RoomClassification; status?: RoomFileStatus }): Promise<void> {
  const roomKey = await writableRoomKeyOf(roomUuid, keys);
  await relabelE2eFolder({ roomUuid, roomKey, keys, memberListVersion: await memberListVersionOf(roomUuid, keys) }, folder, labels);
}

/** A name already in the open folder (decrypted, case-insensitive), as the server compares plain names. */
export function takenIn(view: E2eFolderView, name: string): boolean {
  return takenBy(view, name) !== null;
}

/** Which sibling of the folder holds the name (case-insensitive, as the server compares plain names), if any. */
export function takenBy(view: E2eFolderView, name: string): 'folder' | 'file' | null {
  const lower = name.trim().toLowerCase();
  if (view.folders.some((f) => f.name?.toLowerCase() === lower)) return 'folder';
  return view.files.some((f) => f.name?.toLowerCase() === lower) ? 'file' : null;
}

/**
 * Where an upload goes when its name is taken: the version-conflict dialog of plain rooms decides
 * (a new version of that file, both kept as "name (1).ext", or skip). A folder of that name keeps both.
 * `current` gives the folder's names as the server holds them now (`takenNamesNow`, read once per
 * upload by `currentNamesOnce`): the open list may be older than a file someone else added since,
 * and the server cannot compare sealed names, so without it the upload would make a twin. A name
 * taken only there keeps both (replacing it needs its verified row, which only the open list has).
 */
export async function placementFor(
  view: E2eFolderView,
  file: File,
  ask: (name: string) => Promise<VersionConflictChoice>,
  current?: () => Promise<ReadonlySet<string>>,
): Promise<E2eUploadPlacement | 'skip'> {
  const now = current ? await current() : new Set<string>();
  const taken = (name: string) => takenIn(view, name) || now.has(name.trim().toLowerCase());
  if (!taken(file.name)) return {};
  const existing = view.files.find((f) => f.name.toLowerCase() === file.name.toLowerCase());
  const choice = existing ? await ask(file.name) : 'keepBoth';
  if (choice === 'cancel') return 'skip';
  if (choice === 'replace' && existing) return { name: existing.name, replace: { uuid: existing.uuid, version: existing.version + 1, current: existing.metadata } };
  for (let n = 1; ; n++) if (!taken(numberedName(file.name, n))) return { name: numberedName(file.name, n) };
}

/** The folder's names as the server holds them, read at the first call of an upload and shared by its files. */
export function currentNamesOnce(roomUuid: string, keys: UnlockedKeys, folderUuid: string | null): () => Promise<ReadonlySet<string>> {
  let names: Promise<ReadonlySet<string>> | undefined;
  return () => (names ??= roomKeyOf(roomUuid, keys).then((roomKey) => takenNamesNow(roomUuid, roomKey, folderUuid)));
}
