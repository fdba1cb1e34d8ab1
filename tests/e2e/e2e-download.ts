// Opening a level 3/4 delivery in the browser: unlock with the passphrase, then download the
// decrypted file through the crypto Worker and hash what landed on disk.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { en } from './fixtures';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The unlock dialog, worded for the action waiting for the keys (decrypt, release). */
export async function unlock(page: Page, passphrase: string, purpose: 'decrypt' | 'release' = 'decrypt') {
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title[purpose] });
  await dialog.getByLabel(/^Passphrase/).fill(passphrase);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit[purpose] }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** Test hook of web/lib/e2e-download.ts: which way the decrypted bytes go to disk. */
export async function useDownloadPath(page: Page, path: 'serviceWorker' | 'memory') {
  await page.evaluate((value) => window.localStorage.setItem('kuvert.downloadPath', value), path);
}

export async function openDecrypted(page: Page, passphrase: string, name: string) {
  await page.getByRole('button', { name: 'Enter passphrase and decrypt' }).click();
  const button = page.getByRole('button', { name: `Download ${name}` });
  // Keys still unlocked in this page (e.g. right after setting the passphrase) need no dialog.
  const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
  await Promise.race([dialog.waitFor(), button.waitFor()]);
  if (await dialog.isVisible()) await unlock(page, passphrase);
  await expect(button).toBeVisible({ timeout: 30_000 });
  return button;
}

export async function decryptAndDownload(page: Page, passphrase: string, name: string): Promise<string> {
  const button = await openDecrypted(page, passphrase, name);
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(name);
  await expect(page.getByRole('status').filter({ hasText: 'Downloaded' })).toBeVisible();
  return sha256(await readFile((await download.path())!));
}
