// Issue 35 §5: browser CPU-seconds per GiB, E2E minus plain. The CPU time (user + system, /proc/<pid>/stat)
// each Chromium process this bench launched spent on a transfer, by process kind. The figure counts the
// renderers (page, crypto Worker and service worker run there), the GPU process and the utility processes
// (network service, storage); the browser process is reported beside it (it holds the Blobs a PUT body
// is read from and drives DevTools for Playwright). Independent of the in-process server's share of
// the cores: only Chromium's processes are counted. A process that ends during the transfer loses its
// time (so no page load inside a measured transfer).
import { readFileSync, readdirSync } from 'node:fs';
import { figure, type Figure } from './report';

export type ChromiumKind = 'browser' | 'renderer' | 'gpu' | 'network' | 'utility' | 'other';
const KINDS: readonly ChromiumKind[] = ['renderer', 'gpu', 'network', 'utility', 'other', 'browser'];
/** The kinds the figure sums (issue 35 §5: "renderer + service worker + GPU/utility processes"). */
const COUNTED: ReadonlySet<ChromiumKind> = new Set(['renderer', 'gpu', 'network', 'utility', 'other']);
const GiB = 1024 ** 3;

/** CPU seconds of one run: what the figure counts (`counted`) and each kind. */
export interface BrowserCpu {
  counted: number;
  byKind: Record<ChromiumKind, number>;
  /** The renderers' CPU by thread name (`CrRendererMain` the page, `DedicatedWorker` the crypto Worker, `ThreadPoolForeg` WebCrypto's jobs, `V8 DefaultWorke` garbage collection…); threads that ended are missing. */
  rendererThreads?: Record<string, number>;
  /** The renderers' minor page faults by thread name (fresh memory: shared/transfer/README "Where the rest of the room upload's figure goes"). */
  rendererFaults?: Record<string, number>;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

function kindOf(command: string): ChromiumKind {
  if (!command.includes('--type=')) return 'browser';
  if (command.includes('--type=renderer')) return 'renderer';
  if (command.includes('--type=gpu-process')) return 'gpu';
  if (command.includes('network.mojom')) return 'network';
  if (command.includes('--type=utility')) return 'utility';
  return 'other';
}

const secondsOfStat = (stat: string): { parent: number; seconds: number } => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
};

/** Minor page faults (field 10 of /proc/…/stat). */
const minorFaultsOfStat = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);

/** Cumulative CPU seconds of each thread of a renderer (`pid/tid` → name, seconds). */
function threadsOf(pid: number, into: Map<string, { name: string; seconds: number; faults: number }>): void {
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (stat) into.set(`${pid}/${tid}`, { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: secondsOfStat(stat).seconds, faults: minorFaultsOfStat(stat) });
  }
}

/** Cumulative CPU seconds per Chromium process descended from this one (pid → kind, seconds). */
function snapshot(threads?: Map<string, { name: string; seconds: number; faults: number }>): Map<number, { kind: ChromiumKind; seconds: number }> {
  const stats = new Map<number, { parent: number; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    const stat = Number.isInteger(pid) ? read(`/proc/${pid}/stat`) : null;
    if (!stat) continue;
    stats.set(pid, secondsOfStat(stat));
  }
  const out = new Map<number, { kind: ChromiumKind; seconds: number }>();
  for (const [pid, { seconds }] of stats) {
    let descends = false;
    for (let at = stats.get(pid)?.parent, hops = 0; at !== undefined && hops < 64; at = stats.get(at)?.parent, hops++) {
      if (at === process.pid) {
        descends = true;
        break;
      }
    }
    const command = descends ? (read(`/proc/${pid}/cmdline`)?.replaceAll('\0', ' ') ?? '') : '';
    if (descends && /chrom/.test(command)) {
      out.set(pid, { kind: kindOf(command), seconds });
      if (threads && kindOf(command) === 'renderer') threadsOf(pid, threads);
    }
  }
  return out;
}

/** The CPU Chromium's processes spent while `work` ran. */
export async function measureBrowserCpu<T>(work: () => Promise<T>): Promise<{ result: T; cpu: BrowserCpu }> {
  const threadsBefore = new Map<string, { name: string; seconds: number; faults: number }>();
  const threadsAfter = new Map<string, { name: string; seconds: number; faults: number }>();
  const before = snapshot(threadsBefore);
  const result = await work();
  const after = snapshot(threadsAfter);
  const rendererThreads: Record<string, number> = {};
  const rendererFaults: Record<string, number> = {};
  for (const [key, { name, seconds, faults }] of threadsAfter) {
    rendererThreads[name] = (rendererThreads[name] ?? 0) + seconds - (threadsBefore.get(key)?.seconds ?? 0);
    rendererFaults[name] = (rendererFaults[name] ?? 0) + faults - (threadsBefore.get(key)?.faults ?? 0);
  }
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<ChromiumKind, number>;
  for (const [pid, { kind, seconds }] of after) byKind[kind] += seconds - (before.get(pid)?.seconds ?? 0);
  const counted = KINDS.filter((kind) => COUNTED.has(kind)).reduce((sum, kind) => sum + byKind[kind], 0);
  return { result, cpu: { counted, byKind, rendererThreads, rendererFaults } };
}

/** "renderer 1.23, network 0.40, … (browser 0.80)" in CPU seconds. */
export function describeBrowserCpu(cpu: BrowserCpu): string {
  const parts = KINDS.filter((kind) => COUNTED.has(kind) && cpu.byKind[kind] >= 0.01).map((kind) => `${kind} ${cpu.byKind[kind].toFixed(2)}`);
  const threads = Object.entries(cpu.rendererThreads ?? {})
    .filter(([, seconds]) => seconds >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, seconds]) => `${name.trim()} ${seconds.toFixed(2)}`);
  const faults = Object.entries(cpu.rendererFaults ?? {})
    .filter(([, count]) => count >= 1000)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, count]) => `${name.trim()} ${(count / 1000).toFixed(0)}k`);
  return `${cpu.counted.toFixed(2)} s (${parts.join(', ')}; browser process ${cpu.byKind.browser.toFixed(2)} s besides${threads.length > 0 ? `; renderer threads: ${threads.join(', ')}` : ''}${faults.length > 0 ? `; renderer page faults: ${faults.join(', ')}` : ''})`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The figure: CPU seconds per GiB of plaintext the E2E transfer spends beyond the plain one, median
 * over rounds taken in turns (each round's pair subtracted), target ≤ 3.0 on the value; the
 * baseline is the plain transfer's own CPU-s per GiB.
 */
export function cpuPerGiBFigure(options: { name: string; bytes: number; rounds: { e2e: BrowserCpu; plain: BrowserCpu }[]; note: string }): Figure {
  const perGiB = (seconds: number) => (seconds * GiB) / options.bytes;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const extra = median(options.rounds.map(({ e2e, plain }) => perGiB(e2e.counted - plain.counted)));
  const browserExtra = median(options.rounds.map(({ e2e, plain }) => perGiB(e2e.byKind.browser - plain.byKind.browser)));
  const rounds = options.rounds.map(({ e2e, plain }, i) => `round ${i + 1}: E2E ${describeBrowserCpu(e2e)}, plain ${describeBrowserCpu(plain)}`).join('; ');
  return figure({
    name: options.name,
    value: round2(extra),
    unit: 'browser CPU-s per GiB, E2E minus plain',
    baseline: round2(median(options.rounds.map(({ plain }) => perGiB(plain.counted)))),
    ratio: extra <= 0 ? 100 : 3 / extra,
    target: 3,
    targetOn: 'value',
    direction: 'max',
    note: `Chromium's renderers (page, crypto Worker, service worker), GPU and utility (network) processes from /proc, median of ${options.rounds.length} round(s) in turns; baseline: the plain transfer's CPU-s per GiB; the browser process adds ${round2(browserExtra)} CPU-s per GiB E2E minus plain (not in the value); ${rounds}; ${options.note}`,
  });
}
