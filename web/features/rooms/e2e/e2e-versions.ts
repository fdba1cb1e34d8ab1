import { call } from '@shared/api/call';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import { checkRoomVersionChain } from '@shared/crypto/room';
import type { UnlockedKeys } from '@shared/crypto/service';
import { apiClient } from '@web/lib/api-client';
import { startE2eDownload } from '@web/lib/e2e-download';
import { roomFileContentUrl } from '../api/room-files';
import { fileKeyOf, refuseRolledBack, roomKeyOf, verifyE2eFiles, type E2eListedFile } from './e2e-room-client';

/**
 * Versions and downloads of E2E room files (shared/crypto/README.md "7. Data rooms"): an earlier
 * version's signed metadata is opened and verified in the crypto Worker by the very code that
 * verifies the folder's files (`verifyE2eFiles`), bound to that version's number; its ciphertext
 * comes from the plain version download and is decrypted to disk like the current content.
 */

/** One row of the versions dialog: the version's own uuid (its download) and its verified file view. */
export interface E2eVersionRow {
  uuid: string;
  version: number;
  current: boolean;
  file: E2eListedFile;
}

/** The versions, newest first, and whether their chain holds (README section 7 "Version chain"; false: the dialog warns). */
export interface E2eVersionList {
  rows: E2eVersionRow[];
  chainIntact: boolean;
}

/**
 * The current content (from the open folder, verified and rollback-checked already) and every
 * earlier version, verified now; newest first. The verified versions' chain is checked: counters
 * going up, each previous hash the version before's.
 */
export async function openE2eVersions(roomUuid: string, keys: UnlockedKeys, current: E2eListedFile): Promise<E2eVersionList> {
  const roomKey = await roomKeyOf(roomUuid, keys);
  const [state, list] = await Promise.all([call(apiClient, X.state, { params: { roomUuid } }), call(apiClient, X.versions, { params: { roomUuid, fileUuid: current.uuid } })]);
  const earlier = list.versions.map((v) => ({
    uuid: v.uuid,
    version: v.version,
    current: false,
    file: { uuid: current.uuid, name: '', size: v.plaintextSize, uploadedBy: '', uploadedByName: v.uploadedByName ?? null, metadata: null, problem: null, version: v.version, wrappedFileKey: v.wrappedFileKey } as E2eListedFile,
  }));
  // No sealed name of its own: a version shows the name it was signed with (a later rename re-signs only the current one).
  await verifyE2eFiles(roomUuid, roomKey, keys, state, earlier.map((row, i) => ({ row: row.file, name: null, extra: list.versions[i]! })));
  for (const row of earlier) row.file.name = row.file.metadata?.name ?? '';
  const rows = [{ uuid: current.uuid, version: current.version, current: true, file: current }, ...earlier];
  const chainIntact = await checkRoomVersionChain(rows.flatMap((row) => (row.file.metadata ? [row.file.metadata] : []))).then(
    () => true,
    () => false,
  );
  return { rows, chainIntact };
}

/** The file as it is on the server now: the row itself, or (replaced meanwhile) its current version verified; `changed` then. */
export async function currentE2eFile(roomUuid: string, folderUuid: string | null, keys: UnlockedKeys, row: E2eListedFile): Promise<{ file: E2eListedFile; changed: boolean }> {
  const { files } = await call(apiClient, X.files, { params: { roomUuid }, query: { ...(folderUuid ? { folderUuid } : {}), uuids: row.uuid } });
  const extra = files.find((f) => f.uuid === row.uuid);
  if (!extra) throw new E2eFileGoneError();
  if (extra.version === row.version && extra.wrappedFileKey === row.wrappedFileKey) return { file: row, changed: false };
  const fresh: E2eListedFile = { ...row, uploadedByName: null, size: extra.plaintextSize, metadata: null, problem: null, version: extra.version, wrappedFileKey: extra.wrappedFileKey };
  const state = await call(apiClient, X.state, { params: { roomUuid } });
  await verifyE2eFiles(roomUuid, await roomKeyOf(roomUuid, keys), keys, state, [{ row: fresh, name: row.name, extra }]);
  await refuseRolledBack(keys, [fresh]);
  return { file: fresh, changed: true };
}

/** The file is no longer in the folder (deleted or moved meanwhile). */
export class E2eFileGoneError extends Error {
  constructor() {
    super('The file is no longer here');
    this.name = 'E2eFileGoneError';
  }
}

/**
 * Decrypts a verified file (or version: `versionUuid`) in the Worker and streams it to disk, as the
 * delivery downloads do; a closed save picker falls back to the browser's own download.
 */
export async function downloadE2eFile(roomUuid: string, keys: UnlockedKeys, file: E2eListedFile, versionUuid?: string): Promise<void> {
  const { metadata } = file;
  if (!metadata) throw new Error('The file’s metadata did not verify');
  const fileKey = await fileKeyOf(roomUuid, keys, file);
  const delivery = {
    deliveryUuid: roomUuid,
    // Header and content hash as the uploader signed them (shared/crypto/README section 7, reader step 8).
    files: [{ fileId: file.uuid, fileKey, name: metadata.name, size: metadata.size, headerSha256: metadata.headerSha256, contentSha256: metadata.contentSha256, contentCommitment: metadata.contentCommitment }],
  } as unknown as Parameters<typeof startE2eDownload>[0]['delivery'];
  const url = versionUuid ? `${API_BASE}${ROOM_OPS_PATHS.versionContent(roomUuid, file.uuid, versionUuid)}` : roomFileContentUrl(roomUuid, file.uuid);
  const started = await startE2eDownload({ delivery, fileId: file.uuid, url });
  if (started === 'noFileChosen') await startE2eDownload({ delivery, fileId: file.uuid, url, avoidPicker: true });
}
