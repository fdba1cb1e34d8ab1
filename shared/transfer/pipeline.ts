/**
 * The upload engine's bounded pipeline (DESIGN §4): parts are prepared (read, encrypted, hashed)
 * ahead of the PUTs in flight, so the CPU work of part n+1… overlaps the network of part n.
 * Memory is bounded: at most `inFlight + ahead` parts exist at once (preparing, ready or sending).
 */

/** A FIFO counting semaphore whose waits end when `signal` aborts. */
class Gate {
  private readonly waiters: Array<{ resolve: () => void; reject: (reason: unknown) => void }> = [];
  constructor(private free: number) {}

  acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free > 0 && this.waiters.length === 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.resolve();
    else this.free += 1;
  }
}

export interface PipelineOptions<T> {
  /** The items (part indexes), in the order they enter the send stage. */
  indices: readonly number[];
  /** Reads/encrypts/hashes one part; up to `prepareConcurrency` at once. */
  prepare: (index: number, signal: AbortSignal) => Promise<T>;
  /** Sends one prepared part (retries are the caller's); up to `inFlight` at once, started in `indices` order. */
  send: (index: number, prepared: T, signal: AbortSignal) => Promise<void>;
  /** Sends at once. */
  inFlight: number;
  /** Parts prepared ahead of the sends (beyond those in flight). */
  ahead: number;
  prepareConcurrency: number;
  signal?: AbortSignal;
}

/**
 * Runs every index through prepare → send. The first failure aborts the others (their signal)
 * and is what rejects; an outer abort rejects with the signal's reason.
 */
export async function runPipeline<T>(options: PipelineOptions<T>): Promise<void> {
  const { indices, signal } = options;
  const stop = new AbortController();
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    if (!failure) failure = { error: signal?.aborted ? signal.reason : error };
    if (!stop.signal.aborted) stop.abort(failure.error);
  };
  const onOuterAbort = () => fail(signal!.reason);
  if (signal?.aborted) throw signal.reason;
  signal?.addEventListener('abort', onOuterAbort, { once: true });

  const window = new Gate(Math.max(1, options.inFlight) + Math.max(0, options.ahead));
  const preparing = new Gate(Math.max(1, options.prepareConcurrency));
  const sending = new Gate(Math.max(1, options.inFlight));
  const tasks: Promise<void>[] = [];
  // Each part enters the send stage after its predecessor did (PUTs start in order).
  let previousEntered: Promise<void> = Promise.resolve();
  try {
    for (const index of indices) {
      try {
        await window.acquire(stop.signal);
      } catch {
        break;
      }
      const after = previousEntered;
      let entered!: () => void;
      previousEntered = new Promise<void>((resolve) => (entered = resolve));
      tasks.push(
        (async () => {
          try {
            await preparing.acquire(stop.signal);
            let prepared: T;
            try {
              prepared = await options.prepare(index, stop.signal);
            } finally {
              preparing.release();
            }
            await after;
            await sending.acquire(stop.signal);
            entered();
            try {
              await options.send(index, prepared, stop.signal);
            } finally {
              sending.release();
            }
          } finally {
            entered();
            window.release();
          }
        })().catch(fail),
      );
    }
    await Promise.all(tasks);
  } finally {
    signal?.removeEventListener('abort', onOuterAbort);
  }
  if (failure) throw failure.error;
}
