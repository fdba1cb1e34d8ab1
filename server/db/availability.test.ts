import { createServer, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { describeError } from '../core/error-handler';
import { isDatabaseUnavailable } from './availability';
import { openDatabase, pingDatabase } from './database';

/** What a query through the server's own PostgreSQL pool fails with when nothing listens, or the peer hangs up (no PostgreSQL needed). */
async function pgErrors(): Promise<{ refused: unknown; cut: unknown; freePort: number }> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const freePort = (probe.address() as AddressInfo).port;
  probe.close();
  await once(probe, 'close');
  const ping = async (port: number) => {
    const handle = await openDatabase({ databaseUrl: `postgres://kuvert:secret@127.0.0.1:${port}/kuvert`, dataDir: '/nonexistent' });
    try {
      return await pingDatabase(handle.db).then(() => null, (e: unknown) => e);
    } finally {
      await handle.close();
    }
  };
  const refused = await ping(freePort);
  // A "server" that accepts and hangs up at once: pg sees the connection end mid-start-up.
  const hangUp = createServer((socket) => socket.destroy());
  hangUp.listen(0, '127.0.0.1');
  await once(hangUp, 'listening');
  const cut = await ping((hangUp.address() as AddressInfo).port);
  hangUp.close();
  return { refused, cut, freePort };
}

describe('database unavailable: which errors, and the answer (issue 29 §1)', () => {
  it('connection-class errors count; query errors do not', async () => {
    const { refused, cut, freePort } = await pgErrors();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(cut)).toBe(true);
    // The same refusal from anything else (an S3 store, an SMTP relay) is not the database's.
    const otherRefusal = await fetch(`http://127.0.0.1:${freePort}/`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(otherRefusal)).toBe(false);
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '57P01' }) }))).toBe(true);
    for (const code of ['23505', '42P01', '40001', 'SQLITE_CONSTRAINT']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('Connection to the SMTP server failed'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('answers 503 ServiceUnavailableException with Retry-After in the error shape; other errors stay 500', async () => {
    const { refused } = await pgErrors();
    const answer = describeError(refused, '/api/2/user');
    expect(answer.status).toBe(503);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(answer.body).toEqual({ uuid: expect.any(String), requestUri: '/api/2/user', error: 'ServiceUnavailableException', message: 'The database is unavailable; try again shortly', metadata: { part: 'database', reason: 'databaseUnavailable', retryAfterSeconds: 5 } });
    // The message of a connection error (which may name the host) is not passed on.
    expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
    expect(describeError(Object.assign(new Error('duplicate key'), { code: '23505' }), '/x').status).toBe(500);
  });
});
