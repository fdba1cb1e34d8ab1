// Runs npm scripts at the same time and fails when any of them fails: for `npm test`, whose type
// check and lint are each one single-threaded process, so on the 2-core CI machine the pair takes
// as long as the longer of the two instead of both. Each script's output is printed in one piece
// once it ends (interleaved lines would be unreadable), in the order given.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node tests/support/run-side-by-side.mjs SCRIPT...');
  process.exit(2);
}
const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const chunks = [];
      const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
      child.on('error', (error) => resolve({ script, code: 1, output: Buffer.from(`${error.message}\n`) }));
      child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks) }));
    }),
);
let failed = false;
for (const run of runs) {
  const { script, code, output } = await run;
  process.stdout.write(output);
  if (code !== 0) {
    process.stdout.write(`npm run ${script} failed (exit ${code})\n`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
