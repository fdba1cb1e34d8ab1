import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HAPROXY_BINARY } from '../multi-server/cluster';

/**
 * Issue 29 §2: deploy/README.md tells operators to check a change with `haproxy -c -f
 * deploy/haproxy.cfg`; that failed unless the address variables were set. This runs the command as
 * the README writes it (read from the README, so the two cannot drift apart), with no KUVERT_*
 * variable in the environment.
 */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${REPO_ROOT}deploy/README.md`, 'utf8');
const documented = /Check a change[^`]*`(haproxy -c -f [^`]+)`/.exec(readme)?.[1];
const missing = existsSync(HAPROXY_BINARY) ? null : `${HAPROXY_BINARY} not found (apt-get install haproxy)`;
if (missing && process.env.CI) throw new Error(`${missing} but CI is set: .ci/run installs haproxy`);

describe.skipIf(missing !== null)('deploy/README.md: the documented HAProxy check', () => {
  const run = (args: string[], configText?: string) =>
    spawnSync(HAPROXY_BINARY, args, { cwd: REPO_ROOT, env: { PATH: '/usr/sbin:/usr/bin:/bin' }, encoding: 'utf8', ...(configText ? { input: configText } : {}) });

  it('passes on deploy/haproxy.cfg without any environment variable', () => {
    expect(documented, 'deploy/README.md names the check command').toBeDefined();
    const [program, ...args] = documented!.split(/\s+/);
    expect(program).toBe('haproxy');
    const result = run(args);
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  });

  it('fails on a broken file (the check can fail)', () => {
    const broken = readFileSync(`${REPO_ROOT}deploy/haproxy.cfg`, 'utf8').replace('balance roundrobin', 'balance no-such-algorithm');
    const result = run(['-c', '-f', '/dev/stdin'], broken);
    expect(result.status).not.toBe(0);
  });
});
