import { createCryptoProxy } from '../proxy';
import type { CryptoApi } from '../service';
import { serveCryptoWorker } from '../worker';

/** The CryptoApi through the Worker's message protocol over a MessageChannel (no real Worker in Node). */
export function proxiedService(): CryptoApi {
  const channel = new MessageChannel();
  serveCryptoWorker(channel.port1);
  channel.port1.start();
  const proxy = createCryptoProxy(channel.port2);
  channel.port2.start();
  return proxy;
}
