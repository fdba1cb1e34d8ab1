// Runs a command with KUVERT_TEST_DATABASE_URL pointing at PostgreSQL, so the
// server integration suite runs a second time on PostgreSQL.
// Uses KUVERT_TEST_PG_URL when set (CI sets it); otherwise starts the machine's
// cluster through .ci/postgres.sh. In CI a missing PostgreSQL is an error.
import { execFileSync, spawnSync } from 'node:child_process';

let url = process.env.KUVERT_TEST_PG_URL;
if (!url) {
  try {
    url = execFileSync('bash', ['.ci/postgres.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch (err) {
    if (process.env.CI) throw err;
    console.error('PostgreSQL is not available here: skipping the PostgreSQL run (CI runs it).');
    process.exit(0);
  }
}
const [cmd, ...args] = process.argv.slice(2);
const res = spawnSync(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, KUVERT_TEST_DATABASE_URL: url },
  shell: process.platform === 'win32',
});
process.exit(res.status ?? 1);
