import { isApiError } from '@shared/api/api-error';
import { call } from '@shared/api/call';
import { API_BASE } from '@shared/contract/constants';
import { partBounds } from '@shared/contract/deliveries';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import type { RoomActivityList, RoomUploadFile } from '@shared/contract/room-files';
import type { RoomFile } from '@shared/contract/rooms';
import { listRoomFileParts, sendRoomFile } from '@shared/transfer/room-upload';
import { blobUpload } from '@shared/transfer/upload';
import { apiClient } from '@web/lib/api-client';
import { currentLanguage } from '@web/lib/i18n';
import { followScanningItems, transferStore, type TransferItem } from '@web/lib/transfer-store';
import { keepBothNames } from '../keep-both-names';
import { roomUploadFailure } from '../room-errors';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Room files (shared/contract/endpoints/rooms.ts, issue 15); the server checks the role on the file's folder. */

/** The download link of a complete file; the session cookie authorises it (never for a PREVIEWER). */
export const roomFileContentUrl = (roomUuid: string, fileUuid: string): string =>
  `${API_BASE}/rooms/${encodeURIComponent(roomUuid)}/files/${encodeURIComponent(fileUuid)}/content`;

export interface RoomUploadTarget {
  roomUuid: string;
  folderUuid: string | null;
  /** Resume: the file announced by an earlier run of the same upload. */
  fileUuid?: string;
  signal?: AbortSignal;
  onFileUuid?: (fileUuid: string) => void;
  /** Bytes of every part that is on the server (sent now or found there). */
  onBytes?: (bytes: number) => void;
  /** true while the upload waits for the server (the retry window used up: SPEC §4 `paused`), false once it goes on by itself. */
  onWaiting?: (waiting: boolean) => void;
  /** A file of that name is already there (409 `nameExists`, `kind: file`): what to do. Without it the 409 stands. */
  onConflict?: (name: string) => Promise<VersionConflictChoice>;
  /** An editor's save: the ETag it loaded; the commit answers 412 when a newer version came in between (shared/contract/room-preview.ts). */
  ifMatch?: string;
}

/** The version-conflict dialog's answer: a new version of the file there, the upload under a free name, or not at all. */
export type VersionConflictChoice = 'replace' | 'keepBoth' | 'cancel';

/** Thrown when the person chose "Cancel" in the version-conflict dialog: this file is skipped. */
export class UploadSkipped extends Error {}

const isFileConflict = (error: unknown) =>
  isApiError(error) && error.status === 409 && (error.error?.metadata as { kind?: unknown } | undefined)?.kind === 'file';

/** 409 `nameExists` of any kind: a keep-both name is taken by a file (complete or uploading) or by a folder. */
const isNameTaken = (error: unknown) =>
  isApiError(error) && error.status === 409 && (error.error?.metadata as { reason?: unknown } | undefined)?.reason === 'nameExists';

/** "report.pdf" → "report (1).pdf"; a name without an extension gets the number at its end. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** POST …/files; on a name conflict asks `onConflict`: replace (the `replace` flag) or keep both (`keepBothNames`, walking on while taken). */
async function announce(file: File, target: RoomUploadTarget): Promise<RoomUploadFile> {
  const body = (name: string, replace: boolean) => ({
    name,
    size: file.size,
    mimeType: file.type || 'application/octet-stream',
    folderUuid: target.folderUuid,
    ...(replace ? { replace: true } : {}),
  });
  const post = (name: string, replace = false) => call(apiClient, E.createFile, { params: { roomUuid: target.roomUuid }, body: body(name, replace) }, { signal: target.signal });
  try {
    return await post(file.name);
  } catch (error) {
    if (!target.onConflict || !isFileConflict(error)) throw error;
  }
  const choice = await target.onConflict(file.name);
  if (choice === 'cancel') throw new UploadSkipped(file.name);
  if (choice === 'replace') return post(file.name, true);
  let taken: unknown;
  for (const name of keepBothNames(file.name)) {
    try {
      return await post(name);
    } catch (error) {
      // Taken by an earlier file of this batch, by someone else meanwhile, or by a folder: the next number.
      if (!isNameTaken(error)) throw error;
      taken = error;
    }
  }
  throw taken;
}

/**
 * Uploads one file into a room or folder the way deliveries do (DESIGN §4): announce, then the
 * shared transfer pipeline (parts sliced, SHA-256-hashed, PUT with retry and backoff), then commit
 * (`sendRoomFile`: parts, the parts listing and the commit pause while the server is away and go on
 * by themselves). A resume lists the parts the server holds and sends only the missing ones.
 */
export async function uploadRoomFile(file: File, target: RoomUploadTarget): Promise<RoomUploadFile> {
  const { roomUuid, signal } = target;
  const upload = blobUpload(file);
  let layout: { fileUuid: string; partSize: number; partCount: number };
  const have = new Set<number>();
  const retryHooks = { ...(signal ? { signal } : {}), ...(target.onWaiting ? { onWaiting: target.onWaiting } : {}) };
  if (target.fileUuid) {
    const parts = await listRoomFileParts(apiClient, roomUuid, target.fileUuid, retryHooks);
    layout = parts;
    for (const part of parts.parts) {
      have.add(part.index);
      target.onBytes?.(part.size);
    }
  } else {
    const announced = await announce(file, target);
    layout = { fileUuid: announced.uuid, partSize: announced.partSize, partCount: announced.partCount };
  }
  const { fileUuid, partSize, partCount } = layout;
  target.onFileUuid?.(fileUuid);
  const indices: number[] = [];
  for (let index = 0; index < partCount; index++) if (!have.has(index)) indices.push(index);
  return sendRoomFile({
    client: apiClient,
    roomUuid,
    fileUuid,
    indices,
    ...retryHooks,
    prepare: (index, partSignal) => upload.readPart({ index, ...partBounds({ size: file.size, partSize }, index) }, partSignal),
    ...(target.onBytes ? { onBytes: target.onBytes } : {}),
    ...(target.ifMatch ? { ifMatch: target.ifMatch } : {}),
  });
}

export const renameRoomFile = (file: RoomFile, name: string): Promise<RoomUploadFile> =>
  call(apiClient, E.updateFile, { params: { roomUuid: file.roomUuid, fileUuid: file.uuid }, body: { name } });

/** PATCH the file's folder (null: the room's top level), within its room. */
export const moveRoomFile = (roomUuid: string, fileUuid: string, folderUuid: string | null): Promise<RoomUploadFile> =>
  call(apiClient, E.updateFile, { params: { roomUuid, fileUuid }, body: { folderUuid } });

export const deleteRoomFile = async (file: Pick<RoomFile, 'roomUuid' | 'uuid'>): Promise<void> => {
  await call(apiClient, E.removeFile, { params: { roomUuid: file.roomUuid, fileUuid: file.uuid } });
};

/** One page of GET /rooms/{room}/activity (OWNER): of the room, a folder with what is below it, or a file; newest first. */
export const loadRoomActivity = (roomUuid: string, folderUuid: string | null, fileUuid: string | null, cursor: string | null = null): Promise<RoomActivityList> =>
  call(apiClient, E.activity, {
    params: { roomUuid },
    query: { pageSize: ROOM_ACTIVITY_PAGE_SIZE, ...(folderUuid ? { folderUuid } : {}), ...(fileUuid ? { fileUuid } : {}), ...(cursor ? { cursor } : {}) },
  });
export const ROOM_ACTIVITY_PAGE_SIZE = 50;

/** The first (newest) page of the activity log; revalidated with the room's data (api/rooms.ts invalidateRooms). */
export const useRoomActivity = (roomUuid: string, folderUuid: string | null, enabled: boolean, fileUuid: string | null = null) => {
  const { user } = useAuthState();
  return useSWR(enabled && user ? ['rooms/activity', user.uuid, roomUuid, folderUuid, fileUuid] : null, () => loadRoomActivity(roomUuid, folderUuid, fileUuid));
};

/**
 * Uploads files into a room or folder as one transfer of the transfer centre (progress, cancel,
 * retry); a retry resumes each file where it stopped. The outcome's result is the committed files.
 * `folderOf` (per file) places the files of a dropped folder tree into their folders.
 */
export function startRoomUpload(
  files: readonly File[],
  target: {
    roomUuid: string;
    folderUuid: string | null;
    title: string;
    folderOf?: readonly (string | null)[];
    /** As `RoomUploadTarget.onConflict`, plus how many files of the batch come after this one. */
    onConflict?: (name: string, remaining: number) => Promise<VersionConflictChoice>;
  },
) {
  const announced = new Map<number, string>();
  const done = new Map<number, RoomUploadFile>();
  // Files the person chose not to upload (version conflict › Cancel).
  const skipped = new Set<number>();
  const total = files.reduce((sum, f) => sum + f.size, 0);
  // SPEC §4 "scanning for viruses": committed, the server's scan has not decided yet.
  const doneState = (i: number): TransferItem['state'] => (done.get(i)!.scanState === 'scanning' ? 'scanning' : 'success');
  let transferId = '';
  const started = transferStore.start({
    kind: 'upload',
    title: target.title,
    toasts: { success: 'rooms:files.toast.uploaded', failed: 'rooms:files.toast.uploadFailed' },
    items: files.map((f) => ({ name: f.name, state: 'pending', bytesDone: 0, totalBytes: f.size })),
    run: async ({ signal, report }) => {
      const sent = files.map((f, i) => (done.has(i) ? f.size : 0));
      // The running file waits for the server (its bar stays where it was; it goes on by itself).
      let waiting = false;
      const publish = (current: number) =>
        report({
          percent: total === 0 ? 100 : Math.floor((sent.reduce((a, b) => a + b, 0) / total) * 100),
          items: files.map((f, i) => ({
            name: f.name,
            state: done.has(i) ? doneState(i) : skipped.has(i) ? 'cancelled' : i === current ? (waiting ? 'paused' : 'uploading') : 'pending',
            bytesDone: sent[i]!,
            totalBytes: f.size,
          })),
        });
      for (const [index, file] of files.entries()) {
        if (done.has(index) || skipped.has(index)) continue;
        sent[index] = 0;
        try {
          const fileUuid = announced.get(index);
          const committed = await uploadRoomFile(file, {
            roomUuid: target.roomUuid,
            // A dropped folder tree: each file into its own (just created) folder.
            folderUuid: target.folderOf ? (target.folderOf[index] ?? null) : target.folderUuid,
            ...(fileUuid ? { fileUuid } : {}),
            ...(target.onConflict ? { onConflict: (name: string) => target.onConflict!(name, files.length - index - 1) } : {}),
            signal,
            onFileUuid: (uuid) => announced.set(index, uuid),
            onBytes: (bytes) => {
              sent[index]! += bytes;
              publish(index);
            },
            onWaiting: (now) => {
              waiting = now;
              if (!signal.aborted) publish(index);
            },
          });
          waiting = false;
          done.set(index, committed);
          publish(-1);
        } catch (error) {
          waiting = false;
          if (error instanceof UploadSkipped) {
            skipped.add(index);
            continue;
          }
          if (signal.aborted) return { ok: false, cancelled: true };
          // The store holds no texts: the transfer names the files, the key says why (SPEC §8).
          return { ok: false, cancelled: false, failure: roomUploadFailure(error, file.name, currentLanguage()) };
        }
      }
      // Every file skipped in the conflict dialog: nothing was uploaded, so no "uploaded" toast.
      if (done.size === 0 && skipped.size > 0) return { ok: false, cancelled: true };
      track(ANALYTICS_ACTIONS.filesUploaded, { files: done.size });
      if ([...done.keys()].some((i) => doneState(i) === 'scanning')) {
        // The transfer centre follows the scan until it decided (the room list shows it too).
        followScanningItems(transferId, async () => {
          for (const [i, file] of done) {
            if (file.scanState === 'scanning') done.set(i, await call(apiClient, E.file, { params: { roomUuid: target.roomUuid, fileUuid: file.uuid } }));
          }
          return files.map((f, i) => ({ name: f.name, state: done.has(i) ? doneState(i) : 'cancelled', bytesDone: done.has(i) ? f.size : 0, totalBytes: f.size }));
        });
      }
      return { ok: true, result: [...done.values()] };
    },
  });
  transferId = started.id;
  return started;
}
