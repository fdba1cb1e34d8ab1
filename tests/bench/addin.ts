// Bundle budget of the Outlook task pane (issue 6): the JavaScript taskpane.html loads before
// the first render, gzip-compressed, must stay ≤ 300 KB (Outlook on the web and mobile load the
// pane on every open). Baseline: the web client's initial JavaScript in the same build.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { figure, type Figure } from './report';

/** The budget in KiB of gzip. */
export const TASKPANE_INITIAL_JS_BUDGET_KB = 300;

const dist = join(process.cwd(), 'dist');

/** gzip KiB of every same-origin script an HTML page loads (office.js from the CDN is not ours). */
function initialScriptsKb(htmlPath: string, assetDir: string, publicPath: string): number {
  const html = readFileSync(htmlPath, 'utf8');
  const sources = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!).filter((src) => src.startsWith(publicPath));
  if (sources.length === 0) throw new Error(`${htmlPath} loads no scripts`);
  const bytes = sources.reduce((sum, src) => sum + gzipSync(readFileSync(join(assetDir, src.slice(publicPath.length)))).length, 0);
  return Number((bytes / 1024).toFixed(1));
}

export async function benchAddin(): Promise<Figure[]> {
  const taskpane = join(dist, 'addin', 'taskpane.html');
  const web = join(dist, 'web', 'index.html');
  if (!existsSync(taskpane) || !existsSync(web)) {
    execFileSync('npx', ['webpack', '--mode', 'production'], { stdio: 'inherit' });
  }
  const value = initialScriptsKb(taskpane, join(dist, 'addin'), '/addin/');
  const baseline = initialScriptsKb(web, join(dist, 'web', 'webjars'), '/webjars/');
  return [
    figure({
      name: 'addin.taskpane.initialJsGzip',
      value,
      unit: 'KiB gzip',
      baseline,
      // Lower is better: the ratio says how much lighter than the web client's first load.
      ratio: value === 0 ? 0 : baseline / value,
      target: TASKPANE_INITIAL_JS_BUDGET_KB,
      targetOn: 'value',
      direction: 'max',
      note: 'every same-origin script of dist/addin/taskpane.html; baseline: dist/web/index.html',
    }),
  ];
}
