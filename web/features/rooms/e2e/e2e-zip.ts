// The ZIP of a Secure room's folder or of the whole room, built in the browser (web/README.md
// "Secure room ZIP download"; the server only ever has ciphertext, so it cannot make one).
import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import { ROOM_FILES_PAGE_MAX } from '@shared/contract/rooms';
import { plaintextPortStream } from '@shared/crypto/plaintext-port';
import type { UnlockedKeys } from '@shared/crypto/service';
import { decryptE2eFileToPort } from '@shared/transfer/e2e';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { DownloadFailure, startStreamDownload } from '@web/lib/plain-download';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import type { TransferOutcome } from '@web/lib/transfer-store';
import { makeZip } from 'client-zip';
import { roomFileContentUrl } from '../api/room-files';
import { fetchRoomContents } from '../api/rooms';
import { fileKeyOf, openE2eFolder, type E2eListedFile } from './e2e-room-client';
import { missingMessage, safeZipSegment, ZipFolderNames, zipPath, type Missing } from './zip-names';

/** A file's or an empty folder's entry as client-zip takes it. */
type ZipEntry = { name: string; lastModified: Date; input: AsyncIterable<Uint8Array> } | { name: string };

/**
 * The plaintext chunks of one file, each handed on only once the read after it succeeded: the
 * crypto Worker checks the signed content hash at the end and then errors the stream instead of
 * ending it, so holding one chunk back keeps a file of one chunk (most small files) out of the ZIP
 * entirely when it does not verify.
 */
async function* heldBack(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  let held: Uint8Array | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (held) yield held;
    if (done) return;
    held = value;
  }
}

/**
 * Walks the folder tree below `top` (names decrypted, each file's signed metadata verified as the
 * room page does: openE2eFolder), and yields a ZIP entry per verified file, its plaintext decrypted
 * in the crypto Worker while client-zip reads it: one file at a time, pulled only as fast as the
 * sink writes, so neither a whole file nor the ZIP is ever held. A file that does not verify, does
 * not download or does not decrypt is left out (or, failing after its first bytes, ends short) and
 * named in `missing`; so is a sub-folder that cannot be listed. The top folder not listing is
 * the whole download's failure (SPEC §8 parent download failure).
 */
async function* roomEntries(options: {
  roomUuid: string;
  keys: UnlockedKeys;
  top: { uuid: string | null; name: string; only?: ReadonlySet<string> };
  missing: Missing;
  signal: AbortSignal;
}): AsyncGenerator<ZipEntry> {
  const { roomUuid, keys, missing, signal } = options;
  const state = call(apiClient, X.state, { params: { roomUuid } });
  state.catch(() => undefined); // awaited by openE2eFolder; a failure there is the folder's

  async function entryOf(file: E2eListedFile, name: string, shown: string): Promise<ZipEntry | null> {
    const { metadata } = file;
    if (!metadata) return null;
    const channel = new MessageChannel();
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    try {
      const fileKey = await fileKeyOf(roomUuid, keys, file);
      const delivery = {
        deliveryUuid: roomUuid,
        files: [{ fileId: file.uuid, fileKey, name: metadata.name, size: metadata.size, headerSha256: metadata.headerSha256, contentSha256: metadata.contentSha256, contentCommitment: metadata.contentCommitment }],
      } as unknown as Parameters<typeof decryptE2eFileToPort>[0]['delivery'];
      // Its failure shows as the reader's stream erroring; the promise itself is not needed.
      decryptE2eFileToPort({ delivery, fileId: file.uuid, crypto: cryptoApi, url: roomFileContentUrl(roomUuid, file.uuid), sink: channel.port1, signal }).catch(() => undefined);
      reader = plaintextPortStream(channel.port2).getReader();
      const chunks = heldBack(reader);
      const first = await chunks.next();
      const open = reader;
      const input = async function* (): AsyncGenerator<Uint8Array> {
        let finished = false;
        try {
          if (first.done) return void (finished = true);
          yield first.value;
          for (;;) {
            let step: IteratorResult<Uint8Array>;
            try {
              step = await chunks.next();
            } catch {
              // Failed after its first bytes: the entry ends short, and the message names it.
              if (!signal.aborted) missing.files.push(shown);
              return;
            }
            if (step.done) return void (finished = true);
            yield step.value;
          }
        } finally {
          if (!finished) void open.cancel().catch(() => undefined);
        }
      };
      return { name, lastModified: new Date(metadata.createdAt), input: input() };
    } catch {
      void reader?.cancel().catch(() => undefined);
      if (signal.aborted) throw signal.reason;
      return null;
    }
  }

  async function* folder(uuid: string | null, path: string[], shown: string, isTop: boolean): AsyncGenerator<ZipEntry> {
    const names = new ZipFolderNames();
    const subfolders: { uuid: string; name: string | null }[] = [];
    let cursor: string | undefined;
    let entries = 0;
    do {
      signal.throwIfAborted();
      let view;
      try {
        // Oldest first (sealed names sort at random): of two alike names the older keeps its own.
        const contents = await fetchRoomContents(roomUuid, uuid, { pageSize: ROOM_FILES_PAGE_MAX, sort: 'updatedAt', order: 'asc', ...(cursor ? { cursor } : {}) });
        view = await openE2eFolder(contents, keys, { state, folderLabels: false });
        cursor = contents.nextCursor ?? undefined;
      } catch (error) {
        if (signal.aborted) throw error;
        if (isTop && entries === 0) throw new DownloadFailure({ key: 'rooms:e2eZip.parentFailed', values: { name: options.top.name } });
        missing.folders.push(shown || options.top.name);
        return;
      }
      // Issue 32 §2: a selection keeps, at the top, only the chosen files and folders.
      const chosen = (item: { uuid: string }) => !isTop || !options.top.only || options.top.only.has(item.uuid);
      // The sub-folders come with the first page only.
      subfolders.push(...view.folders.filter(chosen));
      for (const file of view.files.filter(chosen)) {
        const label = shown ? `${shown}/${file.name}` : file.name;
        // The name the uploader signed (a rename re-signs it).
        const entry = file.metadata ? await entryOf(file, zipPath(path, names.take(file.metadata.name)), label) : null;
        if (!entry) {
          missing.files.push(label);
          continue;
        }
        entries++;
        yield entry;
      }
    } while (cursor);
    for (const sub of subfolders) {
      // A folder whose name does not decrypt cannot be named in the ZIP: left out, and said so.
      if (sub.name === null) {
        missing.folders.push(shown ? `${shown}/…` : '…');
        continue;
      }
      const segment = names.take(sub.name);
      // Also an empty folder is kept (client-zip: a name without input is a folder).
      yield { name: `${zipPath(path, segment)}/` };
      entries++;
      yield* folder(sub.uuid, [...path, segment], shown ? `${shown}/${sub.name}` : sub.name, false);
    }
  }

  yield* folder(options.top.uuid, [], '', true);
}

/**
 * Downloads a Secure room's folder (or, `uuid` null, the whole room) as `<name>.zip` through the
 * transfer centre: progress as bytes of the ZIP so far, cancel, and the SPEC §8 messages. Call it
 * from the click handler (the save picker needs the user's gesture).
 */
export function startE2eZipDownload(options: { roomUuid: string; keys: UnlockedKeys; top: { uuid: string | null; name: string; only?: ReadonlySet<string> } }): Promise<{ id: string; done: Promise<TransferOutcome> }> {
  const missing: Missing = { files: [], folders: [] };
  return startStreamDownload({
    name: `${safeZipSegment(options.top.name)}.zip`,
    open: (signal) => {
      // A retry from the transfer centre starts the ZIP anew.
      missing.files = [];
      missing.folders = [];
      const entries = roomEntries({ ...options, missing, signal });
      return Promise.resolve(makeZip(entries, { buffersAreUTF8: true }));
    },
    afterwards: () => missingMessage(missing),
    toasts: { success: 'send:transfers.toast.downloadSuccess', failed: 'rooms:e2eZip.toastFailed' },
  });
}

/** The menus' "Download as ZIP" in a Secure room: the keys unlocked (asked for if locked), then the ZIP's transfer. */
export function useE2eZipDownload(roomUuid: string): (top: { uuid: string | null; name: string; only?: ReadonlySet<string> }) => Promise<void> {
  const unlock = useUnlockedKeys('decrypt');
  return async (top) => {
    const keys = await unlock();
    if (keys) await startE2eZipDownload({ roomUuid, keys, top });
  };
}
