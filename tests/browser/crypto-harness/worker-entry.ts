// The crypto Worker of the Chromium harness: exactly what the web client's worker entry does.
import { serveCryptoWorker } from '@shared/crypto/worker';

serveCryptoWorker(self as unknown as Parameters<typeof serveCryptoWorker>[0]);
