import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tests/support/child-server';
import { expect, it } from 'vitest';

// `npm run demo:trust` (README "Two servers in a trust network"): run as the script line runs it,
// it starts two servers, connects them and prints both; a SIGTERM (Ctrl-C) stops both servers.
it('demo:trust starts two servers, connects them (established both ways), prints the administrators and stops both', async () => {
  const data = await mkdtemp(join(tmpdir(), 'kuvert-demo-trust-'));
  const [portA, portB] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/demo-trust.ts', '--port-a', String(portA), '--port-b', String(portB), '--data', data], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  try {
    await expect.poll(() => out + (child.exitCode === null ? '' : `exited ${child.exitCode}: ${err}`), { timeout: 150_000, interval: 500 }).toContain('Ctrl-C stops both servers.');
    expect(out).toContain('Connection A→B: established; B→A: established');
    expect(out).toMatch(new RegExp(`A: http://127\\.0\\.0\\.1:${portA}/ +first administrator admin@a\\.example +password \\S+`));
    expect(out).toMatch(new RegExp(`B: http://127\\.0\\.0\\.1:${portB}/ +first administrator admin@b\\.example`));
    for (const port of [portA, portB]) expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
  expect(child.exitCode).toBe(0);
  // Both servers are gone with it.
  for (const port of [portA, portB]) await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
  await rm(data, { recursive: true, force: true });
}, 200_000);
