import type { ApiClient } from '@shared/api/client';
import {
  createDeliveryDraft,
  deleteDeliveryFile,
  getDeliveryDraft,
  listDeliveryFileParts,
  sendDeliveryDraft,
  updateDeliveryDraft,
} from '@shared/api/endpoints/delivery-send';
import type { CreateDeliveryBody, DeliveryDetail, UpdateDeliveryBody } from '@shared/contract/deliveries';
import { toSendError, type SendError } from '@shared/deliveries/send-errors';
import { encryptsMessage, isE2eLevel } from '@shared/contract/security-levels';
import { E2eSendSession, type E2eOptions } from './e2e';
import { DEFAULT_RETRY, isRefusedForNow, withRetry } from './retry';
import { blobUpload, LocalFileChangedError, uploadFile, type FileTransform, type PreparedUpload, type RetryClock, type RetryPolicy, type UploadSource } from './upload';

/**
 * Per-file upload state (SPEC §4 upload states; levels 3/4 will add encrypting and scanning).
 * `paused`: the server has not answered for the whole retry window; the upload waits for it and
 * goes on by itself (back to `uploading`) when it answers (retry.ts).
 */
export type FileUploadState = 'pending' | 'uploading' | 'paused' | 'success' | 'failed' | 'cancelled';

export interface FileProgress {
  name: string;
  state: FileUploadState;
  /** Bytes of this file on the server (counted per part, never decreasing). */
  bytesSent: number;
  totalBytes: number;
  fileId?: string;
  error?: SendError;
}

/** One progress event: a snapshot of the whole send. */
export interface SendProgress {
  phase: 'draft' | 'uploading' | 'sending' | 'done' | 'failed';
  deliveryUuid?: string;
  files: FileProgress[];
  bytesSent: number;
  totalBytes: number;
  /** 0–100; never decreases within one run; 100 once sent. */
  percent: number;
}

export type SendDraft =
  /** A new draft. */
  | CreateDeliveryBody
  /** An existing draft (resume after a reload: its announced files continue where they stopped); `update` patches its fields first. */
  | { deliveryUuid: string; update?: UpdateDeliveryBody };

export interface SendDeliveryOptions {
  client: ApiClient;
  draft: SendDraft;
  files: readonly UploadSource[];
  onProgress?: (progress: SendProgress) => void;
  /** Called once the draft exists: keep the uuid (e.g. in local storage) to resume after a reload. */
  onDraft?: (deliveryUuid: string) => void;
  /** Awaited once the draft exists, before any file or the send (e.g. the recipients' phone numbers); a throw stops the send. */
  afterDraft?: (deliveryUuid: string, signal: AbortSignal | undefined) => Promise<void>;
  signal?: AbortSignal;
  /** A custom byte transform (see upload.ts); levels 3/4 use `e2e` instead. */
  transform?: FileTransform;
  /**
   * Levels 3/4 (required there): the crypto Worker and the sender's unlocked keys. Files are
   * encrypted in the Worker, keys wrapped to every recipient with a SecuPass (pins checked;
   * a changed key needs `confirmChangedKey`) and to the sender, the manifest signed. At level 4
   * the draft's subject and body travel only inside the encrypted manifest.
   */
  e2e?: E2eOptions;
  /**
   * Level 4 on an existing draft that is not updated (the submit box: its session may not change
   * the draft): subject and body for the encrypted manifest. Otherwise they come from the draft fields.
   */
  encryptedMessage?: { subject: string; body: string };
  partsInFlight?: number;
  retry?: RetryPolicy;
  /** Time for the retry's back-off (unit tests). */
  clock?: RetryClock;
}

export type SendResult = { ok: true; delivery: DeliveryDetail } | { ok: false; error: SendError; deliveryUuid?: string };

const isExisting = (draft: SendDraft): draft is { deliveryUuid: string; update?: UpdateDeliveryBody } => 'deliveryUuid' in draft;
const key = (name: string) => name.normalize('NFC').toLowerCase();

/**
 * Sends a delivery: creates (or resumes) the draft, uploads every file (one after the other,
 * `PARTS_IN_FLIGHT` parts each), commits them, sends. Never throws: a failure or a cancel
 * comes back as `{ ok: false, error }` with the draft's uuid, so a second call with
 * `draft: { deliveryUuid }` and the same files continues where this one stopped.
 */
export async function sendDelivery(options: SendDeliveryOptions): Promise<SendResult> {
  const { client, signal } = options;
  const files: FileProgress[] = options.files.map((f) => ({ name: f.name, state: 'pending', bytesSent: 0, totalBytes: f.blob.size }));
  let phase: SendProgress['phase'] = 'draft';
  let deliveryUuid: string | undefined;
  let lastPercent = 0;
  const emit = () => {
    const bytesSent = files.reduce((n, f) => n + f.bytesSent, 0);
    const totalBytes = files.reduce((n, f) => n + f.totalBytes, 0);
    const raw = phase === 'done' ? 100 : totalBytes === 0 ? 0 : Math.min(99, Math.floor((bytesSent / totalBytes) * 100));
    lastPercent = Math.max(lastPercent, raw);
    options.onProgress?.({ phase, deliveryUuid, files: files.map((f) => ({ ...f })), bytesSent, totalBytes, percent: lastPercent });
  };
  let current: FileProgress | undefined;
  let session: E2eSendSession | undefined;
  // The draft calls and the send are not all idempotent: retried (as the announce) only on an answer
  // saying nothing was done — 429, or 503 while the database or the store is away (issue 29) — for
  // the retry window, then waiting for the server with the files' uploads.
  const whenServerAnswers = <T>(call: () => Promise<T>): Promise<T> =>
    withRetry(call, options.retry ?? DEFAULT_RETRY, signal ?? new AbortController().signal, { retryable: isRefusedForNow, ...(options.clock ? { clock: options.clock } : {}) });
  try {
    emit();
    // Level 4: subject and body leave the plain draft and go into the signed, encrypted manifest.
    const fields = isExisting(options.draft) ? options.draft.update : options.draft;
    const level4 = fields?.securityLevel !== undefined && encryptsMessage(fields.securityLevel);
    const message = options.e2e && level4 && fields ? { subject: (fields.subject ?? '').trim(), body: fields.body ?? '' } : options.e2e ? options.encryptedMessage : undefined;
    const plainFields = <T extends object>(f: T): T => (message ? { ...f, subject: '', body: '' } : f);
    let draft: DeliveryDetail;
    if (isExisting(options.draft)) {
      const { deliveryUuid: given, update } = options.draft;
      draft = update
        ? await whenServerAnswers(() => updateDeliveryDraft(client, given, plainFields(update), signal))
        : await whenServerAnswers(() => getDeliveryDraft(client, given, signal));
      if (draft.status === 'sent') {
        // An earlier run got as far as sending (its answer was lost): nothing left to do.
        for (const f of files) Object.assign(f, { state: 'success', bytesSent: f.totalBytes });
        phase = 'done';
        deliveryUuid = draft.deliveryUuid;
        emit();
        return { ok: true, delivery: draft };
      }
    } else {
      const fresh = options.draft;
      draft = await whenServerAnswers(() => createDeliveryDraft(client, plainFields(fresh), signal));
    }
    deliveryUuid = draft.deliveryUuid;
    options.onDraft?.(deliveryUuid);
    await options.afterDraft?.(deliveryUuid, signal);
    const e2eLevel = isE2eLevel(draft.securityLevel);
    if (e2eLevel && !options.e2e) throw new Error('Levels 3 and 4 need the e2e option (crypto and unlocked keys)');
    if (e2eLevel && options.e2e) {
      if (encryptsMessage(draft.securityLevel) && !message) throw new Error('Level 4 needs the subject and body in the draft fields');
      session = new E2eSendSession(client, options.e2e, message);
      // Keys and pins first: a changed key stops the send before a byte is uploaded.
      await session.prepare(deliveryUuid, signal);
    }

    // Files already on the draft: resumed when the same name and size; dropped otherwise.
    const wanted = new Set(options.files.map((f) => key(f.name)));
    const onServer = new Map(draft.files.map((f) => [key(f.name), f]));
    for (const f of draft.files) {
      if (!wanted.has(key(f.name))) {
        await whenServerAnswers(() => deleteDeliveryFile(client, deliveryUuid!, f.fileId!, signal));
        onServer.delete(key(f.name));
      }
    }

    phase = 'uploading';
    emit();
    for (const [i, source] of options.files.entries()) {
      const progress = files[i]!;
      current = progress;
      progress.state = 'uploading';
      emit();
      const common = {
        client,
        deliveryUuid,
        name: source.name,
        mimeType: source.mimeType || source.blob.type || 'application/octet-stream',
        partsInFlight: options.partsInFlight,
        retry: options.retry,
        ...(options.clock ? { clock: options.clock } : {}),
        signal,
        onWaiting: (waiting: boolean) => {
          // Only while the file runs: a part settling after a failure or a cancel must not revive it.
          if (progress.state !== 'uploading' && progress.state !== 'paused') return;
          progress.state = waiting ? 'paused' : 'uploading';
          emit();
        },
        onFileId: (id: string) => (progress.fileId = id),
        onBytes: (n: number) => {
          progress.bytesSent = Math.min(progress.totalBytes, progress.bytesSent + n);
          emit();
        },
      };
      const existing = onServer.get(key(source.name));
      const dropExisting = async () => {
        if (existing) await whenServerAnswers(() => deleteDeliveryFile(client, deliveryUuid!, existing.fileId, signal));
      };
      if (session) {
        const draftUuid = deliveryUuid;
        // A file of an earlier run continues with its key when the sender's own copy is on the draft.
        const parts = existing?.encrypted ? await listDeliveryFileParts(client, deliveryUuid, existing.fileId, signal) : undefined;
        const prepared = await session.prepareFile(deliveryUuid, source, existing && parts ? { fileId: existing.fileId, parts } : undefined);
        progress.totalBytes = prepared.upload.size;
        const fresh = (upload: PreparedUpload) =>
          uploadFile({ ...common, upload, afterAnnounce: (fileId, s) => session!.storeOwnKey(draftUuid, source, fileId, s) });
        if (prepared.resumed && existing && parts && existing.size === prepared.upload.size) {
          try {
            await uploadFile({ ...common, upload: prepared.upload, fileId: existing.fileId, parts });
          } catch (error) {
            if (!(error instanceof LocalFileChangedError)) throw error;
            // The local file is not the one the parts came from: start it over under a fresh key.
            await dropExisting();
            progress.bytesSent = 0;
            emit();
            await fresh((await session.prepareFile(deliveryUuid, source)).upload);
          }
        } else {
          await dropExisting();
          await fresh(prepared.upload);
        }
      } else {
        const transform = options.transform;
        const upload: PreparedUpload = transform ? await transform(source, signal) : blobUpload(source.blob);
        progress.totalBytes = upload.size;
        let fileId = existing?.fileId;
        if (existing && (existing.size !== upload.size || existing.encrypted !== upload.encrypted)) {
          await dropExisting();
          fileId = undefined;
        }
        await uploadFile({ ...common, upload, fileId });
      }
      progress.state = 'success';
      progress.bytesSent = progress.totalBytes;
      current = undefined;
      emit();
    }

    phase = 'sending';
    emit();
    if (session) {
      const fileIds = new Map(options.files.map((source, i) => [source, files[i]!.fileId!]));
      await session.finish(deliveryUuid, fileIds, signal);
    }
    const sent = await whenServerAnswers(() => sendDeliveryDraft(client, deliveryUuid!, signal));
    phase = 'done';
    emit();
    return { ok: true, delivery: sent };
  } catch (cause) {
    const context = current ? { fileName: current.name } : {};
    const error: SendError = signal?.aborted
      ? { code: 'cancelled', errorClass: undefined, status: undefined, message: 'Cancelled', metadata: {}, ...context }
      : toSendError(cause, context);
    if (current) {
      current.state = error.code === 'cancelled' ? 'cancelled' : 'failed';
      current.error = error;
    }
    phase = 'failed';
    emit();
    return { ok: false, error, ...(deliveryUuid ? { deliveryUuid } : {}) };
  } finally {
    await session?.dispose();
  }
}
