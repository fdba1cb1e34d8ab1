// `npm run backup -- create|check|restore <folder>`: backs up the server the environment
// configures (the same variables as `npm start`), checks a backup, or restores one onto a new
// server. See README.md, "Backup and restore".
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@server/config';
import { checkBackup, createBackup, restoreBackup, type BackupReport } from '@server/operations/backup';

const USAGE = 'usage: npm run backup -- create <folder> | check <folder> | restore <folder>';

function report(verb: string, dir: string, result: BackupReport): number {
  const size = `${result.blobs} blob(s), ${(result.bytes / 1_048_576).toFixed(1)} MiB`;
  if (result.problems.length === 0) {
    process.stdout.write(`${verb} ${dir}: OK (${size})\n`);
    return 0;
  }
  process.stderr.write(`${verb} ${dir}: ${result.problems.length} problem(s) (${size})\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
  return 1;
}

async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  const [command, dir] = positionals;
  if (!dir || positionals.length !== 2 || !['create', 'check', 'restore'].includes(command!)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (command === 'check') return report('check', dir, await checkBackup(dir));
  const config = loadConfig(process.env);
  if (command === 'create') return report('backup', dir, await createBackup(config, dir));
  return report('restore', dir, await restoreBackup(config, dir));
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  },
);
