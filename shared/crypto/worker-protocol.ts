// Messages between the page (proxy.ts) and the crypto Worker (worker.ts).
import type { CryptoApi } from './service';

export type CryptoMethod = keyof CryptoApi;

export const CRYPTO_METHODS: readonly CryptoMethod[] = [
  'setupSecuPass',
  'unlockSecuPass',
  'changeSecuPass',
  'lock',
  'releaseHandle',
  'fingerprint',
  'generateFileKey',
  'wrapFileKey',
  'unwrapFileKey',
  'signManifest',
  'verifyManifest',
  'encryptStream',
  'decryptStream',
  'decryptRange',
  'headerSha256',
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

/** Streams (and their underlying buffers) found one level deep in an object: they must be transferred. */
export function transferablesOf(value: unknown): Transferable[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).filter((member): member is ReadableStream => typeof ReadableStream !== 'undefined' && member instanceof ReadableStream);
}
