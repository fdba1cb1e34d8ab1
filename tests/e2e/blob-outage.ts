// The local blob folder taken away (an unmounted volume) in the middle of an upload from the page,
// for the storage-outage specs: the part PUTs matching `parts` are slowed down so the upload is
// still running when the folder goes, after `afterParts` of them.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { PAUSED_RETRY_INTERVAL_MS } from '@shared/transfer/constants';
import type { TestServer } from '../support/server';

export async function blobsAwayDuringParts(page: Page, server: TestServer, parts: string, afterParts = 8) {
  const blobs = join(server.dataDir, 'blobs');
  let away = false;
  let count = 0;
  await page.route(parts, async (route) => {
    if (route.request().method() === 'PUT' && !away && ++count === afterParts) {
      away = true;
      await rename(blobs, `${blobs}.away`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await route.continue().catch(() => undefined);
  });
  return {
    isAway: () => away,
    /** The folder back: the paused upload goes on by itself. */
    async restore() {
      await rename(`${blobs}.away`, blobs);
      away = false;
    },
  };
}

/**
 * The transfer engine's minute of retries (RETRY_WINDOW_MS, then a try every
 * PAUSED_RETRY_INTERVAL_MS) in seconds instead of a minute of CI: the engine runs on the page's
 * main thread with the page's Date and setTimeout (shared/transfer/retry.ts, REAL_CLOCK), which
 * Playwright's clock replaces. Call before the page opens; until `hurry`, time runs as usual.
 */
export async function installPageClock(page: Page): Promise<{ hurry(): { stop(): Promise<void> }; wakeRetries(): Promise<void> }> {
  await page.clock.install();
  return {
    /**
     * Runs the page's clock ahead by 5 s (the server's Retry-After) every 200 ms of real time:
     * each step fires the back-off waits due by then, and their requests go to the real server.
     * Stop it before reading the screen (toasts would run out at the same speed).
     */
    hurry() {
      let running = true;
      let failure: unknown;
      const loop = (async () => {
        while (running) {
          await page.clock.fastForward(5_000);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })().catch((error: unknown) => {
        failure = error;
      });
      return {
        async stop() {
          running = false;
          await loop;
          if (failure) throw failure;
        },
      };
    },
    /** Fires the waits of a paused transfer now (one paused interval ahead); afterwards time runs as usual. */
    async wakeRetries() {
      await page.clock.fastForward(PAUSED_RETRY_INTERVAL_MS);
    },
  };
}
