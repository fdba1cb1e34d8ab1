// `npm run bench [-- NAME ...]`: runs the benchmark groups (all, or the named ones), prints each
// figure and writes tests/bench/report.json as {"figures": [...]} (DESIGN §7). Every figure is a
// ratio to a baseline measured in the same run, so a busy machine moves both alike. The exit code
// is 0 even when a figure misses its target: the report says `pass`, a flaky timing never fails CI.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { benchAddin } from './addin';
import { QUICK, runCryptoBench } from './crypto';
import { benchDownload } from './download';
import { benchE2eZip } from './e2e-zip';
import { benchPreview } from './preview';
import { benchInbox } from './inbox';
import type { Figure } from './report';
import { benchReports } from './reports';
import { benchRooms } from './rooms';
import { benchRoomsE2e } from './rooms-e2e';
import { benchScale } from './scale';
import { benchS3Store } from './s3-store';
import { benchServer } from './server';
import { withStillCosts } from './still-costs';
import { benchTransfer } from './transfer';
import { benchTrust } from './trust';
import { benchUploadBrowser } from './upload-browser';

/** `--quick`: smaller sizes and fewer samples, to check that a group runs (figures are rough then). */
export interface BenchOptions {
  quick: boolean;
}

const GROUPS: Record<string, (options: BenchOptions) => Promise<Figure[]>> = {
  server: () => benchServer(),
  crypto: (options) => runCryptoBench(options.quick ? QUICK : {}),
  inbox: (options) => benchInbox(options),
  transfer: (options) => benchTransfer(options),
  addin: () => benchAddin(),
  download: (options) => benchDownload(options),
  'upload-browser': (options) => benchUploadBrowser(options),
  reports: (options) => benchReports(options),
  scale: (options) => benchScale(options),
  // The plain half (server listing) and the E2E half (Chromium) of issue 15's figures;
  // KUVERT_BENCH_ROOMS_ONLY=listing (or =e2e) runs just one half.
  rooms: async (options) => {
    const only = process.env.KUVERT_BENCH_ROOMS_ONLY;
    if (only !== undefined && only !== 'listing' && only !== 'e2e') throw new Error(`KUVERT_BENCH_ROOMS_ONLY: listing or e2e, not ${only}`);
    return [...(only !== 'e2e' ? await benchRooms(options) : []), ...(only !== 'listing' ? await benchRoomsE2e(options) : [])];
  },
  // Issue 31 §4: a Secure room's ZIP built in the browser against the file's own download (time, memory).
  'e2e-zip': (options) => benchE2eZip(options),
  preview: (options) => benchPreview(options),
  // The blob stores alone (issue 18's S3 / local figure, iterated in seconds instead of the scale group's minutes).
  's3-store': (options) => benchS3Store(options),
  // Issue 30 §4: a level-3 delivery to a trust-network partner against the same to a local recipient; partner down mid-transfer.
  trust: (options) => benchTrust(options),
};

const REPORT_PATH = fileURLToPath(new URL('./report.json', import.meta.url));

async function main(): Promise<void> {
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = asked.filter((name) => !(name in GROUPS));
  if (unknown.length > 0) {
    console.error(`Unknown bench group(s): ${unknown.join(', ')}. Groups: ${Object.keys(GROUPS).join(', ')}`);
    process.exit(2);
  }
  const names = asked.length > 0 ? asked : Object.keys(GROUPS);
  const options: BenchOptions = { quick: process.argv.includes('--quick') };
  const figures: Figure[] = [];
  for (const name of names) {
    const started = Date.now();
    console.log(`== bench ${name}`);
    const groupFigures = (await GROUPS[name]!(options)).map(withStillCosts);
    for (const f of groupFigures) {
      console.log(`${f.pass ? 'PASS' : 'MISS'} ${f.name}: ${f.value} ${f.unit} (baseline ${f.baseline}, ratio ${f.ratio}, target ${f.targetOn === 'value' ? 'value' : 'ratio'} ${f.direction === 'max' ? '≤' : '≥'} ${f.target})`);
      if (f.stillCosts) console.log(`     still costs: ${f.stillCosts}`);
    }
    console.log(`   ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    figures.push(...groupFigures);
  }
  await writeFile(REPORT_PATH, `${JSON.stringify({ createdAt: new Date().toISOString(), groups: names, quick: options.quick, figures }, null, 2)}\n`);
  console.log(`report: ${REPORT_PATH} (${figures.filter((f) => f.pass).length}/${figures.length} figures on target)`);
}

await main();
