// "Installs what is missing" for `npm start` / `npm test` on a fresh machine:
// runs `npm ci` when node_modules is absent or older than package-lock.json,
// and, for the tests, installs Debian's chromium when we are root and it is missing.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs) {
  console.log('Installing npm packages (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
const wantsBrowser = process.env.npm_lifecycle_event === 'pretest';
if (wantsBrowser && !existsSync('/usr/bin/chromium')) {
  if (process.getuid?.() === 0) {
    console.log('Installing Debian chromium for the browser tests…');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  } else {
    console.error('The browser tests need Debian chromium: sudo apt-get install -y chromium');
    process.exit(1);
  }
}
