// The crypto Worker's message loop. An entry file (e.g. src/crypto-worker.ts) calls
// serveCryptoWorker(self); keys then live only in that Worker.
import { CryptoError } from './errors';
import { CryptoService, type CryptoApi } from './service';
import { CRYPTO_METHODS, mapStreamErrors, mapStreamMembers, packStreamError, replyTransferablesOf, type CryptoCall, type CryptoReply } from './worker-protocol';

/** The part of a DedicatedWorkerGlobalScope we use (typed here so shared/ needs no worker lib). */
export interface WorkerScopeLike {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

export function serveCryptoWorker(scope: WorkerScopeLike, service: CryptoApi = new CryptoService()): void {
  scope.addEventListener('message', (event: MessageEvent) => {
    const call = event.data as CryptoCall;
    if (call?.kind !== 'kuvert-crypto-call' || !CRYPTO_METHODS.includes(call.method)) return;
    void answer(scope, service, call);
  });
}

async function answer(scope: WorkerScopeLike, service: CryptoApi, call: CryptoCall): Promise<void> {
  let reply: CryptoReply;
  try {
    const method = service[call.method] as (args: unknown) => Promise<unknown>;
    const value = mapStreamMembers(await method.call(service, call.args), (stream) => mapStreamErrors(stream, packStreamError));
    reply = { kind: 'kuvert-crypto-reply', id: call.id, ok: true, value };
  } catch (error) {
    // IMPORTANT: only the code and our own message cross the boundary, never a stack or a cause.
    const code = error instanceof CryptoError ? error.code : 'internal';
    const message = error instanceof CryptoError ? error.message : 'Crypto operation failed';
    reply = { kind: 'kuvert-crypto-reply', id: call.id, ok: false, code, message };
  }
  scope.postMessage(reply, reply.ok ? replyTransferablesOf(reply.value) : []);
}
