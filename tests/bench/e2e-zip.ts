// `npm run bench -- e2e-zip` (issue 31 §4): a Secure room's ZIP built in Chromium (Debian's, the
// flags of playwright.config.ts; the built web client: `npm run build` first) against the real
// server on loopback — the room holds one file of N MiB (sealed and uploaded from Node with the real
// CryptoService, tests/integration/rooms-e2e-helpers.ts). Both timed from the click to the file
// complete on disk, through the download service worker:
//   - ZIP / single: the whole room's ZIP (walk, decrypt in the crypto Worker, client-zip) against
//     the same file's own E2E download from its row menu; "lower is better", so the ratio is
//     single / ZIP, target ≥ 0.8 (the ZIP costs at most a quarter more).
//   - browser memory growth of the ZIP: the summed RSS of every Chromium process (proc.ts), peak
//     above the level before the click, target < 100 MiB whatever N (nothing whole is held); the
//     single download's growth is the baseline.
// Size: KUVERT_BENCH_E2E_ZIP_MIB, else 300 (the figure), 4 with --quick.
import { randomBytes } from 'node:crypto';
import { chromium } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import { createUserAsAdmin, signIn } from '../integration/core-helpers';
import { e2eActor, giveSecuPass } from '../integration/e2e-helpers';
import { createE2eRoom, openRoomKey, uploadE2eFile } from '../integration/rooms-e2e-helpers';
import { startTestServer } from '../support/server';
import { timedDownload } from './download';
import { withRssPeak } from './proc';
import { figure, type Figure } from './report';

const MiB = 1024 * 1024;
const PART_SIZE = 4 * MiB;
const USER = { email: 'owner.e2e-zip@example.test', password: 'Good-Passw0rd', passphrase: 'Zip-Bench-SecuPass-Cedar-57' };
const ROOM = 'Bench vault';
const NAME = 'bench.bin';
const round2 = (n: number) => Math.round(n * 100) / 100;

export async function benchE2eZip(options: { quick: boolean }): Promise<Figure[]> {
  const sizeMiB = Number(process.env.KUVERT_BENCH_E2E_ZIP_MIB) || (options.quick ? 4 : 300);
  const size = sizeMiB * MiB;
  const server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
  const browser = await chromium.launch(chromiumLaunch);
  try {
    const admin = await signIn(server, server.admin.email, server.admin.password);
    await createUserAsAdmin(server, admin, { email: USER.email, password: USER.password, language: 'en' });
    const actor = await e2eActor(server, await signIn(server, USER.email, USER.password));
    await giveSecuPass(actor, USER.passphrase);
    const { room } = await createE2eRoom(server, actor, ROOM);
    const { handle: roomKey } = await openRoomKey(server, actor, room.uuid);
    const uploaded = await uploadE2eFile(server, actor, room.uuid, roomKey, { name: NAME, bytes: new Uint8Array(randomBytes(size)), partSize: PART_SIZE });
    if (!uploaded.file) throw new Error(`upload refused: ${uploaded.announce.status}`);

    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.getByLabel('Username or email').fill(USER.email);
    await page.getByLabel(/^Password/).fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/secumails\/inbox/);
    // The streamed path that runs headless (the save picker needs a real dialog).
    await page.evaluate(() => window.localStorage.setItem('kuvert.downloadPath', 'serviceWorker'));
    await page.goto(`${server.url}/secure-rooms/${room.uuid}`);
    await page.getByRole('button', { name: 'Enter passphrase' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Enter your passphrase to decrypt' });
    await dialog.getByLabel(/^Passphrase/).fill(USER.passphrase);
    await dialog.getByRole('button', { name: 'Unlock and decrypt' }).click();
    const rowMenu = page.getByRole('button', { name: `Actions for file ${NAME}` });
    await rowMenu.waitFor({ timeout: 120_000 });

    const single = await withRssPeak(() =>
      timedDownload(page, async () => {
        await rowMenu.click();
        await page.getByRole('menuitem', { name: 'Download', exact: true }).click();
      }, size),
    );
    const zip = await withRssPeak(() =>
      timedDownload(page, async () => {
        await page.getByRole('button', { name: `Actions for “${ROOM}”` }).click();
        await page.getByRole('menuitem', { name: 'Download as ZIP' }).click();
      }, size, true),
    );
    await context.close();
    const note = `${sizeMiB} MiB; single ${round2(single.result)} s, ZIP ${round2(zip.result)} s`;
    return [
      figure({ name: `E2E room ZIP / single E2E download (${sizeMiB} MiB)`, value: round2(zip.result), unit: 's', baseline: round2(single.result), ratio: single.result / zip.result, target: 0.8, note }),
      figure({
        name: `E2E room ZIP browser memory growth (${sizeMiB} MiB)`,
        value: round2(zip.growth / MiB),
        unit: 'MiB',
        baseline: round2(single.growth / MiB),
        targetOn: 'value',
        direction: 'max',
        target: 100,
        note: `single download's growth ${round2(single.growth / MiB)} MiB`,
      }),
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
