// Where a signed-in GET /user's server CPU goes (issue 35 §4), run alone:
// `npx tsx tests/bench/server-bisect.ts [variants] [requests] [rounds]`. Not a bench group.
// Each variant is a server in this process; autocannon runs in another, so this process's CPU is the
// servers' own. The variants take turns, round after round, and the minimum and median per variant
// are printed: on this shared machine the load moves every figure, the differences between variants
// measured in the same rounds much less. Variants (default: all), each a bare Fastify hello plus:
//   bare                 nothing
//   sql                  the session look-up (the server's SQL, raw row, same pragmas, same database file)
//   sql+twice            the same look-up twice (the second one runs with warm caches)
//   sql+cookie           + @fastify/cookie, the token read from the cookie
//   sql+cookie+headers   + the security headers, set as the server sets them (the API policy on the JSON answer)
//   body1100             no look-up, 1 100 bytes more JSON body (the cost of answer bytes)
//   real                 the Kuvert server's GET /api/2/user
// Method and figures: server/README "Per-request cost of a signed-in call".
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { SESSION_COOKIE } from '../../server/core/access';
import { API_POLICY, securityHeaderLists } from '../../server/core/security-headers';
import { hashSessionToken } from '../../server/sessions/sessions-store';
import { signInAdmin } from '../integration/core-helpers';
import { startTestServer } from '../support/server';
import { autocannonChild } from './autocannon-child';

const CONNECTIONS = 20;
const VARIANTS = ['bare', 'sql', 'sql+twice', 'sql+cookie', 'sql+cookie+headers', 'body1100', 'real'];
/** The server's session look-up (sessions-store.ts), as its SQL text: every user column, then the session's. */
const LOOKUP_SQL = `select u.id, u.uuid, u.username, u.email, u.first_name, u.last_name, u.password_hash, u.roles, u.language,
  u.disabled, u.email_verified, u.totp_secret, u.totp_pending_secret, u.totp_required, u.created_at, u.updated_at, u.licensed,
  u.sender_group_id, u.terms_accepted_version, u.terms_accepted_at, u.storage_quota, s.id as s_id, s.csrf_token as s_csrf_token,
  s.created_at as s_created_at, s.last_seen_at as s_last_seen_at, s.expires_at as s_expires_at, s.kind as s_kind
  from sessions s join users u on u.id = s.user_id where s.id = ?`;

const autocannon = (url: string, requests: number, cookie: string) => autocannonChild(url, requests, { connections: CONNECTIONS, headers: { cookie } });

/** Server CPU (user + system) per request in µs. */
async function cpuPerRequest(url: string, requests: number, cookie: string): Promise<number> {
  await autocannon(url, Math.min(2000, requests), cookie); // warm-up (JIT, caches)
  const before = process.cpuUsage();
  await autocannon(url, requests, cookie);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

/** A bare Fastify hello with the steps of `variant`, on the real server's database file. */
async function syntheticServer(variant: string, dataDir: string, token: string, publicUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const steps = new Set(variant.split('+'));
  const app = Fastify({ logger: false });
  let lookup: SQLite.Statement | undefined;
  let file: SQLite.Database | undefined;
  if (steps.has('sql')) {
    file = new SQLite(join(dataDir, 'kuvert.sqlite'));
    file.pragma('journal_mode = WAL');
    file.pragma('busy_timeout = 5000');
    file.pragma('foreign_keys = ON');
    lookup = file.prepare(LOOKUP_SQL).raw(true);
  }
  if (steps.has('cookie')) await app.register(fastifyCookie);
  if (steps.has('headers')) {
    const { web } = securityHeaderLists(publicUrl);
    app.addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of web) void reply.header(name, value);
      done();
    });
    // A JSON answer's policy is the API policy (server/README "Security headers").
    app.addHook('onSend', (_request, reply, payload, done) => {
      void reply.header('content-security-policy', API_POLICY);
      done(null, payload);
    });
  }
  const padding = steps.has('body1100') ? 'x'.repeat(1100) : undefined;
  app.get('/hello', async (request) => {
    if (padding) return { hello: padding };
    if (!lookup) return { hello: 'world' };
    const cookieToken = steps.has('cookie') ? (request as unknown as { cookies: Record<string, string | undefined> }).cookies[SESSION_COOKIE] : token;
    const row = lookup.get(hashSessionToken(cookieToken ?? '')) as unknown[] | undefined;
    if (!row) throw new Error('no session row');
    if (steps.has('twice')) lookup.get(hashSessionToken(cookieToken ?? ''));
    return { hello: row[3] };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/hello`,
    async close() {
      await app.close();
      file?.close();
    },
  };
}

async function main(): Promise<void> {
  const variants = process.argv[2] ? process.argv[2].split(',') : VARIANTS;
  const requests = Number(process.argv[3] ?? 15_000);
  const rounds = Number(process.argv[4] ?? 3);
  const server = await startTestServer();
  const targets: Array<{ variant: string; url: string; close?: () => Promise<void> }> = [];
  try {
    const { cookie } = await signInAdmin(server);
    const token = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    for (const variant of variants) {
      if (variant === 'real') targets.push({ variant, url: `${server.url}/api/2/user` });
      else targets.push({ variant, ...(await syntheticServer(variant, server.dataDir, token, server.url)) });
    }
    const figures = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const { variant, url } of targets) {
        const value = await cpuPerRequest(url, requests, cookie);
        figures.set(variant, [...(figures.get(variant) ?? []), value]);
      }
    }
    console.log(`µs of server CPU per request, ${rounds} rounds of ${requests} requests (min / median):`);
    for (const [variant, values] of figures) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(`${variant.padEnd(20)} ${sorted[0]!.toFixed(1).padStart(6)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1).padStart(6)}`);
    }
  } finally {
    for (const target of targets) await target.close?.();
    await server.close();
  }
}

void main();
