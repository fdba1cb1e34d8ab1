// The web client's crypto Worker (shared/crypto/README "Using it"): the only place in the browser
// where SecuPass private keys live, as non-extractable CryptoKeys behind opaque handles.
// Created by web/lib/crypto.ts; webpack emits it as its own chunk under /webjars/.
import { serveCryptoWorker } from '@shared/crypto/worker';

serveCryptoWorker(self as unknown as Parameters<typeof serveCryptoWorker>[0]);
