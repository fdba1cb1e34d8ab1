// Server figure of `npm run bench` (issue 3 §4): GET /api/2/user requests per second
// (signed in, autocannon) as a ratio to a bare Fastify hello route in the same run.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { startTestServer } from '../support/server';
import { figure, type Figure } from './report';

/** Long enough for a stable figure on 2 cores, short enough for CI. */
const DURATION_S = 5;
const CONNECTIONS = 20;
/** The session look-up (one indexed join), the access check, the security headers and the answer may cost up to half the bare throughput. */
const TARGET_RATIO = 0.5;

async function requestsPerSecond(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`bench target ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return result.requests.average;
}

export async function benchServer(): Promise<Figure[]> {
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const server = await startTestServer();
  try {
    const address = bare.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const login = await fetch(`${server.url}/api/2/auth`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${server.admin.email}:${server.admin.password}`).toString('base64')}` },
    });
    const cookie = login.headers.get('set-cookie')?.split(';')[0];
    if (login.status !== 200 || !cookie) throw new Error(`bench sign-in failed: ${login.status}`);

    const baseline = await requestsPerSecond(`http://127.0.0.1:${address.port}/hello`);
    const value = await requestsPerSecond(`${server.url}/api/2/user`, { cookie });
    return [
      figure({
        name: 'server: GET /user requests per second (signed in) vs bare Fastify hello',
        value: Math.round(value),
        unit: 'req/s',
        baseline: Math.round(baseline),
        target: TARGET_RATIO,
        note: `${server.app.databaseKind}, ${CONNECTIONS} connections, ${DURATION_S} s each`,
      }),
    ];
  } finally {
    await server.close();
    await bare.close();
  }
}

// Run alone: npx tsx tests/bench/server.ts
if (process.argv[1]?.endsWith('tests/bench/server.ts')) {
  benchServer().then((figures) => console.log(JSON.stringify({ figures }, null, 2)));
}
