// The local blob folder taken away (an unmounted volume) in the middle of an upload from the page,
// for the storage-outage specs: the part PUTs matching `parts` are slowed down so the upload is
// still running when the folder goes, after `afterParts` of them.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
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
