import type { RoomUploadFile } from '@shared/contract/room-files';
import type { UnlockedKeys } from '@shared/crypto/service';
import { ciphertextLength, DEFAULT_RECORD_SIZE } from '@shared/crypto/stream-format';
import { LocalFileChangedError } from '@shared/transfer/upload';
import { cryptoApi } from '@web/lib/crypto';
import { currentLanguage } from '@web/lib/i18n';
import { transferStore } from '@web/lib/transfer-store';
import { roomUploadFailure } from '../room-errors';
import { uploadE2eFile, type E2eUploadPlacement, type E2eUploadSession } from './e2e-room-client';

/**
 * Uploads files into an E2E room or folder as one transfer of the transfer centre, exactly like
 * plain room uploads (web/features/rooms/api/room-files.ts `startRoomUpload`): a row with progress
 * (ciphertext bytes on the server), cancel, and retry that resumes each file with its kept file key.
 * `placementOf` answers the version-conflict question per file (by decrypted names, before the
 * announce): a new version, another name, or `skip`.
 */
export function startE2eRoomUpload(
  files: readonly File[],
  target: {
    roomUuid: string;
    folderUuid: string | null;
    title: string;
    keys: UnlockedKeys;
    me: { uuid: string; email: string };
    placementOf?: (file: File, index: number) => Promise<E2eUploadPlacement | 'skip'>;
    /** Per file (same order): the folder it goes into instead of `folderUuid` (a dropped folder tree). */
    folderOf?: readonly (string | null)[];
  },
) {
  const sessions = files.map((): E2eUploadSession => ({}));
  const placements = new Map<number, E2eUploadPlacement>();
  const done = new Map<number, RoomUploadFile>();
  const skipped = new Set<number>();
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const release = () => {
    for (const session of sessions) if (session.fileKey) void cryptoApi.releaseHandle({ handle: session.fileKey });
  };
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
          percent: total === 0 ? 100 : Math.min(100, Math.floor((sent.reduce((a, b) => a + b, 0) / total) * 100)),
          items: files.map((f, i) => ({
            name: f.name,
            // SPEC §4 "encrypted success": the file left the browser encrypted.
            state: done.has(i) ? 'encrypted' : skipped.has(i) ? 'cancelled' : i === current ? (waiting ? 'paused' : 'encrypting') : 'pending',
            bytesDone: Math.min(sent[i]!, f.size),
            totalBytes: f.size,
          })),
        });
      for (const [index, file] of files.entries()) {
        if (done.has(index) || skipped.has(index)) continue;
        sent[index] = 0;
        try {
          let placement = placements.get(index);
          if (!placement) {
            const answer = target.placementOf ? await target.placementOf(file, index) : {};
            if (answer === 'skip') {
              skipped.add(index);
              publish(-1);
              continue;
            }
            placement = answer;
            placements.set(index, placement);
          }
          const scale = file.size / ciphertextLength(file.size, DEFAULT_RECORD_SIZE);
          const committed = await uploadE2eFile(file, {
            roomUuid: target.roomUuid,
            folderUuid: target.folderOf?.[index] ?? target.folderUuid,
            keys: target.keys,
            me: target.me,
            signal,
            session: sessions[index]!,
            placement,
            // The parts carry ciphertext (tags and header: a little more than the file): shown as file bytes.
            onBytes: (bytes) => {
              sent[index]! += bytes * scale;
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
          // A changed local file cannot resume under its key: the retry starts it over with a new one.
          if (error instanceof LocalFileChangedError) sessions[index] = {};
          if (signal.aborted) return { ok: false, cancelled: true };
          return { ok: false, cancelled: false, failure: roomUploadFailure(error, file.name, currentLanguage()) };
        }
      }
      release();
      if (done.size === 0 && skipped.size > 0) return { ok: false, cancelled: true };
      return { ok: true, result: [...done.values()] };
    },
  });
  return started;
}
