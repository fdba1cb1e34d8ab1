// Server CPU per request (issue 35 §4), run alone: `npx tsx tests/bench/server-cpu.ts [user|bare] [requests]`.
// The server runs in this process; autocannon runs as a separate process, so process.cpuUsage() of
// this process is the server's own CPU (plus an idle event loop). Not a bench group: the judged figure
// is `npm run bench -- server`'s ratio; this is the figure to compare between two commits on a shared
// machine (method in server/README "Per-request cost of a signed-in call").
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { signInAdmin } from '../integration/core-helpers';
import { startTestServer } from '../support/server';
import { autocannonChild } from './autocannon-child';

const CONNECTIONS = 20;

const autocannon = (url: string, requests: number, headers: Record<string, string>) => autocannonChild(url, requests, { connections: CONNECTIONS, headers });

/** Server CPU per request in µs: user + system, and the system (kernel) part alone. */
async function cpuPerRequest(url: string, requests: number, headers: Record<string, string> = {}): Promise<{ total: number; system: number }> {
  await autocannon(url, Math.min(2000, requests), headers); // warm-up (JIT, caches)
  // KUVERT_CPU_PROF=file.cpuprofile: a V8 CPU profile of the measured requests only (no start-up, no warm-up).
  const profile = process.env.KUVERT_CPU_PROF;
  const inspector = profile ? new Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
  }
  const before = process.cpuUsage();
  await autocannon(url, requests, headers);
  const used = process.cpuUsage(before);
  if (inspector && profile) {
    const { profile: result } = await inspector.post('Profiler.stop');
    await writeFile(profile, JSON.stringify(result));
    inspector.disconnect();
  }
  return { total: (used.user + used.system) / requests, system: used.system / requests };
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'user';
  const requests = Number(process.argv[3] ?? 30_000);
  if (which === 'bare') {
    const bare = Fastify({ logger: false });
    bare.get('/hello', async () => ({ hello: 'world' }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const address = bare.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const { total, system } = await cpuPerRequest(`http://127.0.0.1:${address.port}/hello`, requests);
    console.log(`bare hello: ${total.toFixed(1)} µs CPU per request (system ${system.toFixed(1)})`);
    await bare.close();
    return;
  }
  const server = await startTestServer();
  try {
    const { cookie } = await signInAdmin(server);
    const { total, system } = await cpuPerRequest(`${server.url}/api/2/user`, requests, { cookie });
    console.log(`GET /user (${server.app.databaseKind}): ${total.toFixed(1)} µs CPU per request (system ${system.toFixed(1)})`);
  } finally {
    await server.close();
  }
}

void main();
