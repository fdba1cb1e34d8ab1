import { defineConfig } from '@playwright/test';
import { statfsSync } from 'node:fs';

/**
 * Chromium keeps its shared memory (tiles, IPC, Blobs) in /dev/shm; a container's default 64 MiB
 * there makes renderers crash or stall under the specs' transfers. Where /dev/shm is small (or
 * missing), it uses /tmp instead.
 */
function smallDevShm(): boolean {
  try {
    const shm = statfsSync('/dev/shm');
    return shm.bsize * shm.blocks < 1024 ** 3;
  } catch {
    return true;
  }
}

/** Debian's chromium with the flags this workplace needs (no downloads, no background traffic). */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...(smallDevShm() ? ['--disable-dev-shm-usage'] : []),
  ],
};

export default defineConfig({
  testDir: 'tests',
  testMatch: ['e2e/**/*.spec.ts', 'browser/**/*.spec.ts', 'addin/**/*.spec.ts'],
  fullyParallel: false,
  workers: 2,
  // CI's shared 2-core machine sometimes stalls a page for longer than an expect's 10 s (seen there:
  // a first heading not drawn in 10 s, in specs that take 2 s on a quiet machine). One retry there
  // keeps such a stall from failing the run; a real defect fails both tries, and the list reporter
  // names every test that needed its retry ("flaky"), so none goes unseen.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunch,
    // Fluent's motion honours it (1 ms transitions): axe then judges colours as they stand, not
    // a toast half faded in or out (a contrast failure that depended on the machine's speed).
    reducedMotion: 'reduce',
    // Recording a trace costs every test its DOM snapshots and screencast frames: ~15-19 % more CPU
    // (measured on rooms-select and deliveries specs), whether the test passes or not. CI keeps no
    // artefacts of a run, so there it records only a retry (a failure's second try); a developer's
    // run keeps the trace of each failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
