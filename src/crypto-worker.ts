// The ONE crypto Worker entry of both browser bundles (shared/crypto/README "Using it"): the web
// client (web/lib/crypto.ts) and the Outlook add-in (addin/crypto/addin-crypto.ts) each start it
// with `new Worker(new URL(...))`, and webpack emits it as a chunk of that bundle. It is the only
// place in the browser where SecuPass private keys live, as non-extractable CryptoKeys behind handles.
import { CryptoService } from '@shared/crypto/service';
import { indexedDbKeptKeysStore } from '@shared/crypto/session-keep';
import { serveCryptoWorker } from '@shared/crypto/worker';

// The kept-keys store lives here, behind the Worker: the page never sees the record (shared/crypto/README).
serveCryptoWorker(self as unknown as Parameters<typeof serveCryptoWorker>[0], new CryptoService({ keptKeys: indexedDbKeptKeysStore() }));
