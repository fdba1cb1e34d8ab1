// What the browser benches measure around a download or upload: the resident memory of the
// browser Playwright launched (all its processes) and the CPU each kind of process spent, read from
// /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';

/** A file of /proc/<pid>, or null once the process has ended. */
function procFile(pid: number, name: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Every process with the fields of its stat line after the command (which may contain spaces):
 * state, ppid, … Synchronous reads on purpose: the promise-based ones cost ~95 ms of CPU per RSS
 * sample (thread-pool round trips), a third of a core at 4 samples a second taken from the download
 * being measured on a 2-core machine; these take ~5 ms.
 */
function* processes(): Generator<{ pid: number; fields: string[] }> {
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    const stat = Number.isInteger(pid) ? procFile(pid, 'stat') : null;
    if (stat) yield { pid, fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
  }
}

/** Bytes resident in every process descended from this one (the browser Playwright launched and its children). */
export function browserRss(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const { pid, fields } of processes()) {
    const statm = procFile(pid, 'statm');
    if (statm === null) continue;
    parents.set(pid, Number(fields[1]));
    rss.set(pid, Number(statm.split(' ')[1]) * 4096);
  }
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid), hops = 0; at !== undefined && hops < 64; at = parents.get(at), hops++) if (at === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (descends(pid)) total += bytes;
  return total;
}

/** CPU seconds (user + system) process `pid` has used so far; 0 once it has ended. */
export function cpuSecondsOf(pid: number): number {
  const stat = procFile(pid, 'stat');
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Who used the CPU: this process (the in-process server and the bench), and Chromium's processes by type. */
export type CpuRole = 'server' | 'browser' | 'renderer' | 'network' | 'other';

/** CPU seconds used so far per role (user + system time from /proc), this process and the browser it launched. */
export function cpuSecondsByRole(): Map<CpuRole, number> {
  const seconds = new Map<CpuRole, number>();
  const all = [...processes()];
  const parents = new Map(all.map(({ pid, fields }) => [pid, Number(fields[1])]));
  // Only the browser this bench launched: other Chromiums on the machine (tests running beside it) are not ours.
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid), hops = 0; at !== undefined && hops < 64; at = parents.get(at), hops++) if (at === process.pid) return true;
    return false;
  };
  for (const { pid, fields } of all) {
    if (pid !== process.pid && !descends(pid)) continue;
    // Chromium rewrites its children's command lines, so match the whole of it.
    const command = procFile(pid, 'cmdline')?.replaceAll('\0', ' ') ?? '';
    let role: CpuRole;
    if (pid === process.pid) role = 'server';
    else if (!/chrom/.test(command)) continue;
    else if (!command.includes('--type=')) role = 'browser';
    else if (command.includes('--type=renderer')) role = 'renderer';
    else if (command.includes('network.mojom')) role = 'network';
    else role = 'other';
    seconds.set(role, (seconds.get(role) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return seconds;
}

/** CPU seconds spent per role by `work`, as "role 1.23 s, …". */
export async function cpuSpentBy<T>(work: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const before = cpuSecondsByRole();
  const result = await work();
  const after = cpuSecondsByRole();
  const cpu = [...after]
    .map(([role, total]) => [role, total - (before.get(role) ?? 0)] as const)
    .filter(([, spent]) => spent >= 0.05)
    .map(([role, spent]) => `${role} ${spent.toFixed(2)} s`)
    .join(', ');
  return { result, cpu };
}

/** Runs `work` while sampling the browser's summed RSS (and `sample`) every 250 ms; the peak above the level before. */
export async function withRssPeak<T>(work: () => Promise<T>, sample: () => Promise<void> = async () => undefined): Promise<{ result: T; growth: number }> {
  const before = browserRss();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sample();
      peak = Math.max(peak, browserRss());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    return { result: await work(), growth: peak - before };
  } finally {
    sampling = false;
    await sampler;
  }
}
