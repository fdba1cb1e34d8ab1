// `npm run demo:trust` (README "Two servers in a trust network"): two Kuvert servers on two ports
// with two data folders, connected through their admin APIs as two administrators would (each
// creates its side, the public keys are exchanged, each tests the connection), then left running
// until Ctrl-C. Prints both addresses and first administrators.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { TrustConnection } from '@shared/contract/trust-networks';

const { values: flags } = parseArgs({
  options: {
    'port-a': { type: 'string', default: '8081' },
    'port-b': { type: 'string', default: '8082' },
    data: { type: 'string', default: './data-demo-trust' },
  },
  strict: true,
});

interface Side {
  name: 'a' | 'b';
  url: string;
  domain: string;
  admin: { email: string; password: string };
  child?: ChildProcess;
  session?: { cookie: string; csrf: string };
}

/** The first administrator's password: made on the first run and kept in the data folder, so a second run signs in again. */
function passwordOf(dataDir: string): string {
  const file = resolve(dataDir, 'demo-admin-password.txt');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const made = `Demo-${randomBytes(9).toString('base64url')}-7`;
  writeFileSync(file, `${made}\n`, { mode: 0o600 });
  return made;
}
const sides: Side[] = (['a', 'b'] as const).map((name) => {
  const port = Number(name === 'a' ? flags['port-a'] : flags['port-b']);
  return { name, url: `http://127.0.0.1:${port}`, domain: `${name}.example`, admin: { email: `admin@${name}.example`, password: passwordOf(resolve(flags.data, name)) } };
});

function start(side: Side): ChildProcess {
  const dataDir = resolve(flags.data, side.name);
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    // A clean environment: a DATABASE_URL of the shell must not put both servers in one database.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: new URL(side.url).port,
      KUVERT_PUBLIC_URL: side.url,
      KUVERT_DATA_DIR: dataDir,
      KUVERT_ADMIN_EMAIL: side.admin.email,
      KUVERT_ADMIN_PASSWORD: side.admin.password,
      // The partner is the other server on this machine, over plain http.
      KUVERT_OUTBOUND_ALLOW: '127.0.0.1',
      KUVERT_OUTBOUND_ALLOW_HTTP: 'true',
      KUVERT_LOG_LEVEL: process.env.KUVERT_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', (code) => {
    if (!stopping) {
      process.stderr.write(`Server ${side.name.toUpperCase()} stopped (exit ${code}); stopping the demo.\n`);
      stop(1);
    }
  });
  return child;
}

async function waitReady(side: Side): Promise<void> {
  for (let i = 0; i < 240; i += 1) {
    const ok = await fetch(`${side.url}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Server ${side.name.toUpperCase()} did not get ready at ${side.url}`);
}

async function signIn(side: Side): Promise<void> {
  // The data folder may hold an administrator from an earlier run: its password was printed then.
  const response = await fetch(`${side.url}/api/2/auth`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${side.admin.email}:${side.admin.password}`).toString('base64')}`, 'content-type': 'application/json' },
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  const csrf = response.headers.get(ANTI_CSRF_HEADER);
  if (!response.ok || !cookie || !csrf) throw new Error(`Could not sign in as ${side.admin.email} on ${side.url} (${response.status}); remove ${resolve(flags.data)} to start afresh`);
  side.session = { cookie, csrf };
}

async function api<T>(side: Side, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${side.url}/api/2${path}`, {
    method,
    headers: { cookie: side.session!.cookie, [ANTI_CSRF_HEADER]: side.session!.csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} on ${side.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Both administrators create their side, enter each other's key and test: established. */
async function connect(a: Side, b: Side): Promise<[TrustConnection, TrustConnection]> {
  // A second run: the connections are there already; test them again.
  const existing = async (side: Side, partner: Side) => (await api<{ connections: TrustConnection[] }>(side, 'GET', '/admin/trust-networks')).connections.find((c) => c.partnerUrl === partner.url && c.partnerPublicKey);
  const [oldA, oldB] = [await existing(a, b), await existing(b, a)];
  if (oldA && oldB) return [await api<TrustConnection>(a, 'POST', `/admin/trust-networks/${oldA.connectionId}/test`), await api<TrustConnection>(b, 'POST', `/admin/trust-networks/${oldB.connectionId}/test`)];
  const onA = await api<TrustConnection>(a, 'POST', '/admin/trust-networks', { partnerUrl: b.url, partnerDomains: [b.domain] });
  const onB = await api<TrustConnection>(b, 'POST', '/admin/trust-networks', { partnerUrl: a.url, partnerDomains: [a.domain], partnerPublicKey: onA.ownPublicKey });
  await api(a, 'PUT', `/admin/trust-networks/${onA.connectionId}`, { partnerUrl: b.url, partnerDomains: [b.domain], partnerPublicKey: onB.ownPublicKey });
  return [await api<TrustConnection>(a, 'POST', `/admin/trust-networks/${onA.connectionId}/test`), await api<TrustConnection>(b, 'POST', `/admin/trust-networks/${onB.connectionId}/test`)];
}

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  const children = sides.map((s) => s.child).filter((c): c is ChildProcess => c !== undefined && c.exitCode === null);
  if (children.length === 0) process.exit(code);
  let left = children.length;
  for (const child of children) {
    child.once('exit', () => {
      left -= 1;
      if (left === 0) process.exit(code);
    });
    child.kill('SIGTERM');
  }
}
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

async function main(): Promise<void> {
  for (const side of sides) side.child = start(side);
  for (const side of sides) await waitReady(side);
  for (const side of sides) await signIn(side);
  const [onA, onB] = await connect(sides[0]!, sides[1]!);
  const lines = [
    'Two Kuvert servers in a trust network:',
    ...sides.map((s) => `  ${s.name.toUpperCase()}: ${s.url}/  first administrator ${s.admin.email}  password ${s.admin.password}  (serves ${s.domain})`),
    `  Connection A→B: ${onA.status}; B→A: ${onB.status}`,
    'Create users in a.example on A and in b.example on B (Administration › Users) and send between them.',
    'Ctrl-C stops both servers.',
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`demo:trust: ${err instanceof Error ? err.message : String(err)}\n`);
  stop(1);
});
