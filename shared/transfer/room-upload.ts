// Parts and commit of one data-room file (plain and E2E rooms), retried and paused like a
// delivery's (retry.ts): the web client's room uploads (web/features/rooms) announce the file
// themselves, then hand the rest to `sendRoomFile`.
import { call } from '@shared/api/call';
import type { ApiClient } from '@shared/api/client';
import { CONTENT_SHA256_HEADER } from '@shared/contract/deliveries';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { PARTS_AHEAD, PARTS_IN_FLIGHT, PREPARE_CONCURRENCY } from './constants';
import { runPipeline } from './pipeline';
import { DEFAULT_RETRY, retryGroup, type RetryClock, type RetryPolicy } from './retry';

/** One part ready to PUT: its body and the size and SHA-256 (hex) the server checks. */
export interface RoomPart {
  body: Blob;
  size: number;
  sha256: string;
}

export interface RoomFileSend {
  client: ApiClient;
  roomUuid: string;
  fileUuid: string;
  /** The parts to run through the pipeline, in order. */
  indices: readonly number[];
  /** Reads (E2E: seals) and hashes one part. */
  prepare: (index: number, signal: AbortSignal) => Promise<RoomPart>;
  /**
   * A part the server holds already (a resume): true skips its PUT. May throw (an E2E part that
   * differs from the local file is `LocalFileChangedError`: never other bytes under one key).
   */
  alreadySent?: (index: number, part: RoomPart) => boolean;
  /** After the last part: the E2E commit's signed metadata (it signs the plaintext hash). Without it: the plain commit. */
  commitMetadata?: () => Promise<string>;
  signal?: AbortSignal;
  /** Bytes of every part that is on the server (sent now or found there by `alreadySent`). */
  onBytes?: (bytes: number) => void;
  /** true while the file waits for the server (SPEC §4 `paused`), false once it goes on. */
  onWaiting?: (waiting: boolean) => void;
  retry?: RetryPolicy;
  /** Time for the retry's back-off (tests). */
  clock?: RetryClock;
  /** An editor's save: the ETag of the version it loaded; the commit answers 412 saveConflict when another came in between (shared/contract/room-preview.ts). */
  ifMatch?: string;
}

/** PUTs the parts (PARTS_IN_FLIGHT at once, each retried), then commits (retried too: idempotent, and it reads every part from the store). */
export async function sendRoomFile(options: RoomFileSend): Promise<RoomUploadFile> {
  const { client, roomUuid, fileUuid, signal } = options;
  const retrying = retryGroup(options.retry ?? DEFAULT_RETRY, { ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}), ...(options.clock ? { clock: options.clock } : {}) });
  await runPipeline({
    indices: options.indices,
    inFlight: PARTS_IN_FLIGHT,
    ahead: PARTS_AHEAD,
    prepareConcurrency: PREPARE_CONCURRENCY,
    ...(signal ? { signal } : {}),
    prepare: options.prepare,
    send: async (index, part, partSignal) => {
      if (!options.alreadySent?.(index, part)) {
        await retrying(
          () =>
            call(
              client,
              E.putFilePart,
              { params: { roomUuid, fileUuid, index } },
              { rawBody: part.body, contentType: 'application/octet-stream', headers: { [CONTENT_SHA256_HEADER]: part.sha256 }, signal: partSignal },
            ),
          partSignal,
        );
      }
      options.onBytes?.(part.size);
    },
  });
  const metadata = await options.commitMetadata?.();
  const commitSignal = signal ?? new AbortController().signal;
  const params = { roomUuid, fileUuid };
  const commitOptions = { signal: commitSignal, ...(options.ifMatch === undefined ? {} : { headers: { 'if-match': options.ifMatch } }) };
  return retrying(
    () => (metadata === undefined ? call(client, E.commitFile, { params }, commitOptions) : call(client, X.commitFile, { params, body: { metadata } }, commitOptions)),
    commitSignal,
  );
}

/** The parts the server holds of an announced file (a resume), retried like the rest. */
export const listRoomFileParts = (client: ApiClient, roomUuid: string, fileUuid: string, options: { signal?: AbortSignal; onWaiting?: (waiting: boolean) => void; retry?: RetryPolicy; clock?: RetryClock } = {}) => {
  const signal = options.signal ?? new AbortController().signal;
  return retryGroup(options.retry ?? DEFAULT_RETRY, { ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}), ...(options.clock ? { clock: options.clock } : {}) })(
    () => call(client, E.fileParts, { params: { roomUuid, fileUuid } }, { signal }),
    signal,
  );
};
