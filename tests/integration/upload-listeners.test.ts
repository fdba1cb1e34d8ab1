import { createHash } from 'node:crypto';
import { createApiClient } from '@shared/api/client';
import { sendDelivery } from '@shared/transfer';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

/** The product's part size: a part arrives as many socket chunks, so the blob write waits for 'drain' many times. */
const PART_SIZE = 5 * 1_048_576;

let server: TestServer;
let alice: Session;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test' });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
});
afterAll(() => server?.close());

describe('part uploads', () => {
  it('write 5 MiB parts without piling listeners on the blob write stream (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const bytes = testFileBytes(3 * PART_SIZE + 1234);
      const fetchWithCookie = (input: RequestInfo | URL, init: RequestInit = {}) =>
        fetch(String(input), { ...init, headers: { ...(init.headers as Record<string, string>), cookie: alice.cookie } });
      const client = createApiClient({ backendUrl: server.url, fetch: fetchWithCookie });
      client.setAntiCsrfToken(alice.csrf);
      const result = await sendDelivery({
        client,
        draft: { recipients: ['alice@example.test'], subject: 'Big parts', body: 'x', securityLevel: 0 },
        files: [{ name: 'big.bin', blob: new Blob([bytes]) }],
      });
      expect(result.ok, JSON.stringify(!result.ok && result.error)).toBe(true);
      if (!result.ok) return;
      const file = result.delivery.files[0]!;
      const response = await fetch(`${server.url}/api/2${DELIVERY_PATHS.content(result.delivery.deliveryUuid, file.fileId)}`, { headers: { cookie: alice.cookie } });
      const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
      expect(sha(new Uint8Array(await response.arrayBuffer()))).toBe(sha(bytes));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
