import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import type { E2eLabelChange, E2eRoomState } from '@shared/contract/rooms-e2e';
import type { E2eFolderLabelsWire } from '@shared/contract/rooms-e2e-folder-labels';
import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import type { RoomMemberList } from '@shared/crypto/room-members';
import { ROOM_WRITER_ROLES } from '@shared/crypto/room';
import { roomFolderLabelsSignerKeyId, type RoomFolderLabelsOpened } from '@shared/crypto/room-folder-labels';
import type { KeyHandle, UnlockedKeys } from '@shared/crypto/service';
import { contactPinsFor } from '@shared/transfer/contact-pins';
import { verifiedContactKey } from '@shared/transfer/e2e';
import { checkRoomFileRollback } from '@shared/transfer/room-rollback';
import { signerRoleChecks } from '@shared/transfer/room-member-list';
import { apiClient } from '@web/lib/api-client';
import { authStore } from '@web/lib/auth';
import { cryptoApi } from '@web/lib/crypto';
import { e2eOf } from './changed-key-question';

/**
 * A Secure room folder's classification and status (issue 31 §1; shared/crypto/README.md section 7
 * "Folder labels"): a record sealed under the room key and signed by the member who set it. The
 * reader pin-checks the signer's key, verifies and opens the record in the crypto Worker, checks that
 * the signer could write (the signed member list, as for file metadata) and that the record is not
 * older than one her devices saw (the synced counters, keyed by the folder's uuid).
 */

/** What the table shows of a folder: its verified labels (`none` without a record), or why they did not verify. */
export interface E2eFolderLabelsView {
  classification: RoomClassification;
  status: RoomFileStatus;
  /** The verified record's counter (0: none); a new record counts on from it. */
  counter: number;
  /** The error code of a record that did not verify (its labels then show as `none` and cannot be trusted). */
  problem: string | null;
}

export const NO_FOLDER_LABELS: E2eFolderLabelsView = { classification: 'none', status: 'none', counter: 0, problem: null };

/** What the badges, the filter and the dialogs show: the verified values (`none` for a record that did not verify). */
export const shownLabelsOf = (labels: E2eFolderLabelsView): { classification: RoomClassification; status: RoomFileStatus } =>
  labels.problem ? { classification: 'none', status: 'none' } : { classification: labels.classification, status: labels.status };

/** The records of the folders directly in `parentUuid` (the top level: null). */
export const fetchFolderLabels = (roomUuid: string, parentUuid: string | null) =>
  call(apiClient, X.folderLabels, { params: { roomUuid }, query: parentUuid ? { parentUuid } : {} });

/** Verifies and opens the records (one Worker call); folders without one get NO_FOLDER_LABELS. */
export async function openFolderLabels(
  input: { roomUuid: string; roomKey: KeyHandle; keys: UnlockedKeys; state: E2eRoomState; memberList: RoomMemberList | null },
  records: E2eFolderLabelsWire[],
): Promise<Map<string, E2eFolderLabelsView>> {
  const { roomUuid, roomKey, keys, state } = input;
  const out = new Map<string, E2eFolderLabelsView>();
  const fail = (uuid: string, problem: string) => out.set(uuid, { ...NO_FOLDER_LABELS, problem });
  const toOpen: { record: E2eFolderLabelsWire; signer: E2eRoomState['signers'][number]; publicKey: string }[] = [];
  for (const record of records) {
    const signer = state.signers.find((s) => s.userUuid === record.signerUuid);
    let keyId: string;
    try {
      keyId = roomFolderLabelsSignerKeyId(record.signature);
    } catch {
      fail(record.uuid, 'room-metadata-invalid');
      continue;
    }
    const key = signer?.keys.find((k) => k.usage === 'signing' && k.keyId === keyId);
    if (!signer || !key) {
      fail(record.uuid, 'room-metadata-signature-invalid');
      continue;
    }
    try {
      // The signer's key against the caller's pins (README section 3): a changed key is asked about once.
      const pinned = await verifiedContactKey(apiClient, e2eOf(keys), { email: signer.email, userUuid: signer.userUuid, usage: 'signing', keyId, publicKey: key.publicKey, ...(key.retired ? { retired: true } : {}) });
      toOpen.push({ record, signer, publicKey: pinned.publicKey });
    } catch (error) {
      fail(record.uuid, (error as { code?: string }).code ?? 'room-metadata-invalid');
    }
  }
  const { results } = toOpen.length
    ? await cryptoApi.openRoomFolderLabels({
        roomKey,
        items: toOpen.map(({ record, signer, publicKey }) => ({ ref: { roomId: roomUuid, folderId: record.uuid, signerUserId: signer.userUuid }, labels: record.labels, signature: record.signature, signerPublicKey: publicKey })),
      })
    : { results: [] };
  const me = authStore.getState().user?.uuid ?? '';
  const roleCheck = signerRoleChecks(apiClient, e2eOf(keys), { roomUuid, me, latest: input.memberList });
  const verified: { uuid: string; opened: RoomFolderLabelsOpened }[] = [];
  for (const [i, { record, signer }] of toOpen.entries()) {
    const result = results[i]!;
    if (!result.ok) {
      fail(record.uuid, result.code);
      continue;
    }
    // The signer must have been able to write: in the list the record is bound to, else the latest (as file metadata).
    const role = await roleCheck(result.value, { userUuid: signer.userUuid, role: signer.role });
    const problem = 'code' in role ? role.code : roleProblem(role, result.value);
    if (problem) fail(record.uuid, problem);
    else verified.push({ uuid: record.uuid, opened: result.value });
  }
  // Not older than a record any of her devices saw (the synced counters; folder and file uuids never collide).
  const rolledBack = me && verified.length ? await checkRoomFileRollback(await counterMemory(keys, me), verified.map((v) => ({ fileId: v.uuid, metadata: { counter: v.opened.counter } }))) : new Map();
  for (const { uuid, opened } of verified) {
    const error = rolledBack.get(uuid);
    if (error) fail(uuid, error.code);
    else out.set(uuid, { classification: opened.classification ?? 'none', status: opened.status ?? 'none', counter: opened.counter, problem: null });
  }
  return out;
}

/**
 * Folders the server answered no record for although one of the caller's devices verified one
 * (their synced counter is above 0): the record was withheld or deleted, so the folder cannot be
 * shown as unlabelled on the server's word (`room-folder-labels-withheld`).
 */
export async function withheldFolderLabels(keys: UnlockedKeys, folderUuids: string[], records: { uuid: string }[]): Promise<Map<string, E2eFolderLabelsView>> {
  const out = new Map<string, E2eFolderLabelsView>();
  const me = authStore.getState().user?.uuid;
  const answered = new Set(records.map((r) => r.uuid));
  const missing = folderUuids.filter((uuid) => !answered.has(uuid));
  if (!me || !missing.length) return out;
  const memory = await counterMemory(keys, me);
  for (const uuid of missing) if (memory.fileCounter(uuid) > 0) out.set(uuid, { ...NO_FOLDER_LABELS, problem: 'room-folder-labels-withheld' });
  return out;
}

/** The rule verifyRoomFileMetadata applies to a file's signer (shared/crypto/room.ts), for a folder record's. */
function roleProblem(role: { signer: { role: string | null } } | { signerAtSigning: { memberListVersion: number; role: string | null } }, opened: RoomFolderLabelsOpened): string | null {
  if ('signerAtSigning' in role) {
    if (opened.memberListVersion !== role.signerAtSigning.memberListVersion) return 'room-metadata-mismatch';
    return role.signerAtSigning.role !== null && ROOM_WRITER_ROLES.includes(role.signerAtSigning.role) ? null : 'room-signer-not-writer-then';
  }
  // A signer who is no member any more (null) stays readable, as a former member's files do.
  return role.signer.role === null || ROOM_WRITER_ROLES.includes(role.signer.role) ? null : 'room-signer-not-writer';
}

async function counterMemory(keys: UnlockedKeys, me: string) {
  const pins = await contactPinsFor({ client: apiClient, crypto: cryptoApi, keys, ownerUserId: async () => me });
  return {
    fileCounter: (id: string) => pins.fileCounter(id),
    raiseFileCounters: (entries: { fileId: string; counter: number }[]) => pins.raiseFileCounters(entries).catch((error: unknown) => console.debug('[e2e] folder label counters not saved', error)),
  };
}

/** The SPEC §4 activity type of a change from `before` to `after` (`none` is no value), or null for none. */
export function labelChange(area: 'classification' | 'status', before: string, after: string): E2eLabelChange | null {
  if (before === after) return null;
  if (before === 'none') return `${area}_set`;
  if (after === 'none') return area === 'classification' ? 'classification_deleted' : 'status_removed';
  return `${area}_changed`;
}

/**
 * Sets, changes or removes a Secure folder's classification and/or status: a new record sealed and
 * signed by the caller (counter: the verified one's + 1, or above the highest her devices saw when
 * the shown one did not verify), bound to the member list she writes under.
 */
export async function relabelE2eFolder(
  input: { roomUuid: string; roomKey: KeyHandle; keys: UnlockedKeys; memberListVersion: { memberListVersion?: number } },
  folder: { uuid: string; labels: E2eFolderLabelsView },
  labels: { classification?: RoomClassification; status?: RoomFileStatus },
): Promise<void> {
  const before = folder.labels.problem ? NO_FOLDER_LABELS : folder.labels;
  const after = { classification: labels.classification ?? before.classification, status: labels.status ?? before.status };
  const labelChanges = [labelChange('classification', before.classification, after.classification), labelChange('status', before.status, after.status)].filter((c): c is E2eLabelChange => c !== null);
  if (labelChanges.length === 0) return;
  const me = authStore.getState().user?.uuid;
  if (!me) throw new Error('Not signed in');
  const seen = (await counterMemory(input.keys, me)).fileCounter(folder.uuid);
  const counter = Math.max(before.counter, seen) + 1;
  const wire = await cryptoApi.sealRoomFolderLabels({
    roomKey: input.roomKey,
    signingKey: input.keys.signing.handle,
    ref: { roomId: input.roomUuid, folderId: folder.uuid, signerUserId: me },
    labels: { ...after, counter, signedAt: new Date().toISOString(), ...input.memberListVersion },
  });
  await call(apiClient, X.putFolderLabels, { params: { roomUuid: input.roomUuid, folderUuid: folder.uuid }, body: { ...wire, labelChanges } });
}
