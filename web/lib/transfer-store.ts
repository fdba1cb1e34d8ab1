import { useSyncExternalStore } from 'react';

/**
 * The file transfer centre's state (SPEC §2 "file transfer centre", §4 transfer and upload states),
 * kept outside React so leaving the page that started a transfer does not lose it. Kinds are
 * `upload` now and `download` later: a transfer is only a named job with items and a `run`
 * function, so the panel and the store do not know what a delivery is. Texts travel as i18n keys.
 */

export type TransferKind = 'upload' | 'download';
/** SPEC §4 file transfer states; `paused`: the user paused it (an upload), Resume continues from the parts already sent. */
export type TransferState = 'pending' | 'running' | 'paused' | 'success' | 'failed' | 'cancelled';
/**
 * Per item (file): SPEC §4 upload states, and the download ones. `paused`: waiting for the server
 * (it goes on by itself); `scanning`: uploaded, the server's virus scan has not decided yet;
 * `encrypted`: uploaded encrypted (levels 3/4, Secure rooms) — SPEC's "encrypted success".
 */
export type TransferItemState = 'pending' | 'encrypting' | 'uploading' | 'paused' | 'scanning' | 'downloading' | 'decrypting' | 'success' | 'encrypted' | 'failed' | 'cancelled';

export interface TransferItem {
  name: string;
  state: TransferItemState;
  bytesDone: number;
  totalBytes: number;
  /** The size is not known before the end (a streamed ZIP): `totalBytes` is 0, the centre shows the bytes so far. */
  unknownTotal?: boolean;
}

/** An i18n key and its values: the store holds no texts. */
export interface TransferMessage {
  key: string;
  values?: Record<string, unknown>;
  /** A page of the app that helps (shown as a link after the text; SPEC §8 disk space). */
  help?: string;
}

export interface Transfer {
  id: string;
  kind: TransferKind;
  /** Shown as the transfer's name (e.g. the subject). */
  title: string;
  state: TransferState;
  /** 0–100. */
  percent: number;
  items: TransferItem[];
  /** Why the last run failed. */
  failure?: TransferMessage;
  /** What the last successful run returned (e.g. the sent delivery). */
  result?: unknown;
  /** How many times the job ran (1 + retries). */
  runs: number;
  /** The toasts' text keys when the default ones (a delivery "sent" / "downloaded") do not fit. */
  toasts?: TransferToasts;
}

/** i18n keys of the success and failure toasts; `{{title}}` is the transfer's title. */
export interface TransferToasts {
  success: string;
  failed: string;
}

export type TransferOutcome = { ok: true; result?: unknown } | { ok: false; cancelled: boolean; failure?: TransferMessage };

export interface TransferRunContext {
  signal: AbortSignal;
  /** Progress of the running attempt. */
  report: (update: { percent: number; items: TransferItem[] }) => void;
  /** 0 for the first run, then 1, 2, … for retries (a job resumes on a retry). */
  attempt: number;
}

export interface TransferJob {
  kind: TransferKind;
  title: string;
  items: TransferItem[];
  toasts?: TransferToasts;
  run: (context: TransferRunContext) => Promise<TransferOutcome>;
}

interface Entry {
  transfer: Transfer;
  job: TransferJob;
  controller?: AbortController;
  /** When progress was last published, and the newer progress waiting for its turn. */
  progressAt?: number;
  pendingProgress?: { patch: Partial<Transfer>; timer: ReturnType<typeof setTimeout> };
  /** The user asked to pause: the running attempt is aborted and ends as `paused`, not `cancelled`. */
  pausing?: boolean;
  /** Settles `start().done` once a run ends other than paused. */
  settle?: (outcome: TransferOutcome) => void;
}

/**
 * Progress of a running transfer is published at most this often. Every publish re-renders the
 * pages that show transfers; at hundreds of MiB/s a per-percent publish redrew the page ~20 times
 * a second and cost the renderer as much CPU as decrypting the bytes. A change of an item's
 * state (uploading → decrypting, done, failed) is published at once.
 */
export const PROGRESS_PUBLISH_MS = 250;

let entries: Entry[] = [];
let snapshot: readonly Transfer[] = [];
const listeners = new Set<() => void>();
let nextId = 1;

function publish(): void {
  snapshot = entries.map((e) => e.transfer);
  for (const listener of listeners) listener();
}

function update(id: string, patch: Partial<Transfer>): void {
  const entry = entries.find((e) => e.transfer.id === id);
  if (!entry) return;
  dropPendingProgress(entry);
  entry.transfer = { ...entry.transfer, ...patch };
  publish();
}

function dropPendingProgress(entry: Entry): void {
  if (!entry.pendingProgress) return;
  clearTimeout(entry.pendingProgress.timer);
  entry.pendingProgress = undefined;
}

const sameItemStates = (a: readonly TransferItem[], b: readonly TransferItem[]) =>
  a.length === b.length && a.every((item, i) => item.state === b[i]?.state);

/** Progress: published now when an item's state changed or the last publish is old enough, else a bit later (newest wins). */
function updateProgress(entry: Entry, patch: { percent: number; items: TransferItem[] }): void {
  const now = Date.now();
  const due = (entry.progressAt ?? 0) + PROGRESS_PUBLISH_MS;
  if (now >= due || !sameItemStates(entry.transfer.items, patch.items)) {
    entry.progressAt = now;
    update(entry.transfer.id, patch);
    return;
  }
  if (entry.pendingProgress) {
    entry.pendingProgress.patch = patch;
    return;
  }
  entry.pendingProgress = {
    patch,
    timer: setTimeout(() => {
      const pending = entry.pendingProgress;
      entry.pendingProgress = undefined;
      if (!pending || !entries.includes(entry)) return;
      entry.progressAt = Date.now();
      update(entry.transfer.id, pending.patch);
    }, due - now),
  };
}

async function execute(entry: Entry): Promise<TransferOutcome> {
  const id = entry.transfer.id;
  const controller = new AbortController();
  entry.controller = controller;
  const attempt = entry.transfer.runs;
  update(id, { state: 'running', failure: undefined, runs: attempt + 1 });
  let outcome: TransferOutcome;
  try {
    outcome = await entry.job.run({
      signal: controller.signal,
      attempt,
      report: ({ percent, items }) => {
        // A stale attempt (cancelled, then retried) must not overwrite the new one.
        if (entry.controller === controller) updateProgress(entry, { percent, items });
      },
    });
  } catch {
    // Jobs report failures as outcomes; a throw is a bug of the job, shown as a generic failure.
    outcome = { ok: false, cancelled: false };
  }
  if (entry.controller !== controller) return outcome;
  entry.controller = undefined;
  const paused = entry.pausing === true && !outcome.ok;
  entry.pausing = false;
  if (outcome.ok) update(id, { state: 'success', percent: 100, result: outcome.result });
  else if (paused) update(id, { state: 'paused', failure: undefined });
  else update(id, { state: outcome.cancelled ? 'cancelled' : 'failed', failure: outcome.failure });
  if (!paused) {
    entry.settle?.(outcome);
    entry.settle = undefined;
  }
  return outcome;
}

/** A finished upload asks again whether the server's scan decided: after 2 s, doubling to at most 15 s, for at most 10 min. */
export const FOLLOW_FIRST_MS = 2_000;
const FOLLOW_MAX_MS = 15_000;
const FOLLOW_FOR_MS = 10 * 60_000;

/**
 * After a successful upload whose files the server still scans (SPEC §4 "scanning for viruses"):
 * `look` is asked again with a growing pause and its items replace the finished transfer's, until no
 * item is `scanning` — so the transfer centre does not say "scanning" after the scan decided. Stops
 * when the transfer is dismissed or after 10 minutes (the lists show the outcome anyway); a failed
 * look is tried again at the next turn.
 */
export function followScanningItems(id: string, look: () => Promise<TransferItem[]>): void {
  const started = Date.now();
  let pause = FOLLOW_FIRST_MS;
  const step = async (): Promise<void> => {
    if (transferStore.get(id)?.state !== 'success') return;
    const items = await look().catch(() => undefined);
    if (items && transferStore.get(id)?.state === 'success') update(id, { items });
    if (items && !items.some((item) => item.state === 'scanning')) return;
    if (Date.now() - started >= FOLLOW_FOR_MS) return;
    pause = Math.min(pause * 2, FOLLOW_MAX_MS);
    setTimeout(() => void step(), pause);
  };
  setTimeout(() => void step(), pause);
}

export const transferStore = {
  getSnapshot: (): readonly Transfer[] => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: (id: string): Transfer | undefined => snapshot.find((t) => t.id === id),

  /** Adds the job and runs it; the promise settles with the first run's outcome. */
  start(job: TransferJob): { id: string; done: Promise<TransferOutcome> } {
    const id = `transfer-${nextId++}`;
    const entry: Entry = { job, transfer: { id, kind: job.kind, title: job.title, state: 'pending', percent: 0, items: job.items, runs: 0, ...(job.toasts ? { toasts: job.toasts } : {}) } };
    entries = [entry, ...entries];
    publish();
    const done = new Promise<TransferOutcome>((resolve) => (entry.settle = resolve));
    void execute(entry);
    return { id, done };
  },

  /** Aborts a running transfer; the job reports it as cancelled. A paused one is cancelled at once. */
  cancel(id: string): void {
    const entry = entries.find((e) => e.transfer.id === id);
    if (!entry) return;
    if (entry.transfer.state === 'paused') {
      update(id, { state: 'cancelled' });
      entry.settle?.({ ok: false, cancelled: true });
      entry.settle = undefined;
      return;
    }
    entry.controller?.abort();
  },

  /**
   * Pauses a running upload (SPEC §4 `paused`): its attempt is aborted, what reached the server
   * stays there, and `resume` runs the job again, which continues from the parts already sent
   * (every upload job resumes on a later attempt). Downloads start over, so they are not paused.
   */
  pause(id: string): void {
    const entry = entries.find((e) => e.transfer.id === id);
    if (!entry || !canPause(entry.transfer) || !entry.controller) return;
    entry.pausing = true;
    entry.controller.abort();
  },

  /** Continues a paused transfer. */
  resume(id: string): Promise<TransferOutcome> | undefined {
    const entry = entries.find((e) => e.transfer.id === id);
    if (!entry || entry.transfer.state !== 'paused') return undefined;
    return execute(entry);
  },

  /** Runs a failed or cancelled transfer again (the job resumes where it stopped). */
  retry(id: string): Promise<TransferOutcome> | undefined {
    const entry = entries.find((e) => e.transfer.id === id);
    if (!entry || (entry.transfer.state !== 'failed' && entry.transfer.state !== 'cancelled')) return undefined;
    return execute(entry);
  },

  /** Removes a transfer that is not running from the list. */
  dismiss(id: string): void {
    const before = entries.length;
    entries = entries.filter((e) => e.transfer.id !== id || isActive(e.transfer));
    if (entries.length !== before) publish();
  },

  /** Removes every transfer that is not running. */
  clearFinished(): void {
    entries = entries.filter((e) => isActive(e.transfer));
    publish();
  },

  /** Any transfer still pending or running (the tab asks before closing). */
  hasActive: (): boolean => snapshot.some(isActive),
};

/** Not finished: pending, running or paused (a paused one is kept, and the tab asks before closing). */
export const isActive = (transfer: Transfer): boolean => transfer.state === 'pending' || transfer.state === 'running' || transfer.state === 'paused';
/** Uploads resume from the parts the server holds; a download would start over. */
export const canPause = (transfer: Transfer): boolean => transfer.kind === 'upload' && transfer.state === 'running';
/** A running transfer one of whose files waits for the server (SPEC §4 `paused`): it goes on by itself. */
export const isWaitingForServer = (transfer: Transfer): boolean => transfer.state === 'running' && transfer.items.some((item) => item.state === 'paused');

/** React view of every transfer, newest first. */
export function useTransfers(): readonly Transfer[] {
  return useSyncExternalStore(transferStore.subscribe, transferStore.getSnapshot);
}

/** React view of one transfer (undefined once dismissed or before it exists). */
export function useTransfer(id: string | undefined): Transfer | undefined {
  const all = useTransfers();
  return id === undefined ? undefined : all.find((t) => t.id === id);
}

/** Overall figures of several transfers: bytes, and their percents weighted by size (a message-only send weighs 1). */
export function overallProgress(transfers: readonly Transfer[]): { bytesDone: number; totalBytes: number; percent: number } {
  let bytesDone = 0;
  let totalBytes = 0;
  let weighted = 0;
  let weights = 0;
  for (const t of transfers) {
    const size = t.items.reduce((n, item) => n + item.totalBytes, 0);
    bytesDone += t.items.reduce((n, item) => n + item.bytesDone, 0);
    totalBytes += size;
    // The transfer's own percent, not its bytes: a send reaches 100 only once the delivery is sent.
    weighted += t.percent * Math.max(1, size);
    weights += Math.max(1, size);
  }
  return { bytesDone, totalBytes, percent: weights === 0 ? 0 : Math.min(100, Math.floor(weighted / weights)) };
}
