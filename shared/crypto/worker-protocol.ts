// Messages between the page (proxy.ts) and the crypto Worker (worker.ts).
import type { CryptoApi } from './service';

export type CryptoMethod = keyof CryptoApi;

export const CRYPTO_METHODS: readonly CryptoMethod[] = [
  'setupSecuPass',
  'unlockSecuPass',
  'changeSecuPass',
  'restoreKeptKeys',
  'forgetKeptKeys',
  'lock',
  'releaseHandle',
  'fingerprint',
  'generateFileKey',
  'wrapFileKey',
  'unwrapFileKey',
  'signManifest',
  'verifyManifest',
  'sealContactPins',
  'openContactPins',
  'encryptStream',
  'decryptStream',
  'decryptRange',
  'headerSha256',
  'uploadStreamHeader',
  'encryptRecordRun',
  'openUpload',
  'sealUploadPart',
  'sealUploadPartBody',
  'uploadContentCommitment',
  'decryptDownload',
  'serviceWorkerDownloadKey',
  'generateRoomKey',
  'wrapRoomKey',
  'unwrapRoomKey',
  'encryptRoomNames',
  'decryptRoomNames',
  'wrapRoomFileKey',
  'unwrapRoomFileKey',
  'sealRoomFileMetadata',
  'openRoomFileMetadata',
  'verifyRoomFileMetadata',
  'openRoomFilesMetadata',
  'verifyRoomFilesMetadata',
  'sealRoomComment',
  'openRoomComments',
  'sealRoomFolderLabels',
  'openRoomFolderLabels',
  'signRoomKeyGrant',
  'verifyRoomKeyGrant',
  'signRoomMemberList',
  'verifyRoomMemberList',
];

export interface CryptoCall {
  kind: 'kuvert-crypto-call';
  id: number;
  method: CryptoMethod;
  args: unknown;
}

export type CryptoReply =
  | { kind: 'kuvert-crypto-reply'; id: number; ok: true; value: unknown }
  | { kind: 'kuvert-crypto-reply'; id: number; ok: false; code: string; message: string };

/** Streams and MessagePorts found one level deep in an object: they must be transferred. */
export function transferablesOf(value: unknown): Transferable[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).filter(
    (member): member is ReadableStream | MessagePort =>
      (typeof ReadableStream !== 'undefined' && member instanceof ReadableStream) || (typeof MessagePort !== 'undefined' && member instanceof MessagePort),
  ) as Transferable[];
}

/**
 * What a reply can transfer instead of copying: its streams and the buffers of its byte arrays
 * (the service returns fresh arrays, e.g. a 4 MiB encrypted upload part, which nobody else holds).
 */
export function replyTransferablesOf(value: unknown): Transferable[] {
  const out = transferablesOf(value);
  if (typeof value !== 'object' || value === null) return out;
  for (const member of Object.values(value)) {
    if (member instanceof Uint8Array && member.buffer instanceof ArrayBuffer && member.byteOffset === 0 && member.byteLength === member.buffer.byteLength && !out.includes(member.buffer)) {
      out.push(member.buffer);
    }
  }
  return out;
}

const STREAM_ERROR_PREFIX = 'kuvert-crypto-error:';

/**
 * Re-emits a stream with its errors passed through `mapError`. Errors of transferred streams are
 * structured-cloned, which keeps only name and message; so the Worker side packs the code into the
 * message (packStreamError) and the page side unpacks it (unpackStreamError).
 */
export function mapStreamErrors<T>(stream: ReadableStream<T>, mapError: (error: unknown) => unknown): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(mapError(error));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

export function packStreamError(error: unknown): Error {
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : 'internal';
  const message = error instanceof Error && code !== 'internal' ? error.message : 'Crypto operation failed';
  return new Error(`${STREAM_ERROR_PREFIX}${code}:${message}`);
}

export function unpackStreamError(error: unknown, rebuild: (code: string, message: string) => Error): unknown {
  const text = error instanceof Error ? error.message : '';
  if (!text.startsWith(STREAM_ERROR_PREFIX)) return error;
  const rest = text.slice(STREAM_ERROR_PREFIX.length);
  const colon = rest.indexOf(':');
  return rebuild(rest.slice(0, colon), rest.slice(colon + 1));
}

/** Applies `wrap` to every stream member of a (one level deep) object. */
export function mapStreamMembers(value: unknown, wrap: (stream: ReadableStream) => ReadableStream): unknown {
  if (typeof value !== 'object' || value === null || typeof ReadableStream === 'undefined') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, member] of Object.entries(out)) if (member instanceof ReadableStream) out[key] = wrap(member);
  return out;
}
