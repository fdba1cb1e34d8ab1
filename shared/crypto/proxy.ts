// The page side of the crypto Worker: the same typed API as CryptoService, as messages.
import { cryptoErrorFromCode } from './errors';
import type { CryptoApi } from './service';
import { CRYPTO_METHODS, mapStreamErrors, mapStreamMembers, transferablesOf, unpackStreamError, type CryptoCall, type CryptoMethod, type CryptoReply } from './worker-protocol';

/** The part of a Worker we use. */
export interface WorkerLike {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/**
 * A CryptoApi whose calls run in `worker` (which must run serveCryptoWorker). Errors come back as the
 * same classes (by code), streams are transferred, keys stay in the Worker as handles.
 */
export function createCryptoProxy(worker: WorkerLike): CryptoApi {
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  worker.addEventListener('message', (event: MessageEvent) => {
    const reply = event.data as CryptoReply;
    if (reply?.kind !== 'kuvert-crypto-reply') return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(mapStreamMembers(reply.value, (stream) => mapStreamErrors(stream, (error) => unpackStreamError(error, cryptoErrorFromCode))));
    else waiter.reject(cryptoErrorFromCode(reply.code, reply.message));
  });
  const call = (method: CryptoMethod, args: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      const message: CryptoCall = { kind: 'kuvert-crypto-call', id, method, args };
      worker.postMessage(message, transferablesOf(args));
    });
  const api: Partial<Record<CryptoMethod, (args?: unknown) => Promise<unknown>>> = {};
  for (const method of CRYPTO_METHODS) api[method] = (args?: unknown) => call(method, args ?? {});
  return api as unknown as CryptoApi;
}

/**
 * A CryptoApi whose Worker starts on the first call (`start` creates it), so pages that never
 * encrypt never start it; `lock` before that resolves at once (nothing to forget).
 */
export function createLazyCryptoProxy(start: () => WorkerLike): CryptoApi {
  let proxy: CryptoApi | null = null;
  const api: Partial<Record<CryptoMethod, (args?: unknown) => Promise<unknown>>> = {};
  for (const method of CRYPTO_METHODS) {
    api[method] = (args?: unknown) => {
      if (method === 'lock' && !proxy) return Promise.resolve();
      proxy ??= createCryptoProxy(start());
      return (proxy[method] as (a?: unknown) => Promise<unknown>)(args);
    };
  }
  return api as unknown as CryptoApi;
}
