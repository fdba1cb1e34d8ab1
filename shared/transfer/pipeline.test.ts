import { toApiError } from '@shared/api/api-error';
import { describe, expect, it } from 'vitest';
import { runPipeline } from './pipeline';
import { withRetry } from './upload';

/** A promise with its resolve/reject outside (to hold a stage open while the test looks). */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('upload pipeline', () => {
  it('sends every part once, starting the sends in index order even when preparations finish out of order', async () => {
    const started: number[] = [];
    const sent: Array<[number, string]> = [];
    await runPipeline({
      indices: range(12),
      // Odd parts prepare slower: they finish after their successor.
      prepare: async (i) => {
        await new Promise((r) => setTimeout(r, i % 2 ? 6 : 1));
        return `part-${i}`;
      },
      send: async (i, prepared) => {
        started.push(i);
        await new Promise((r) => setTimeout(r, 2));
        sent.push([i, prepared]);
      },
      inFlight: 3,
      ahead: 2,
      prepareConcurrency: 2,
    });
    expect(started).toEqual(range(12));
    expect(sent.sort((a, b) => a[0] - b[0])).toEqual(range(12).map((i) => [i, `part-${i}`]));
  });

  it('overlaps preparing with the sends in flight, never more than inFlight sends nor inFlight + ahead parts at once', async () => {
    const sends = range(10).map(() => deferred());
    let sending = 0;
    let maxSending = 0;
    let alive = 0; // prepared or preparing, not yet sent
    let maxAlive = 0;
    const prepared: number[] = [];
    const run = runPipeline({
      indices: range(10),
      prepare: async (i) => {
        alive += 1;
        maxAlive = Math.max(maxAlive, alive);
        prepared.push(i);
        return i;
      },
      send: async (i) => {
        sending += 1;
        maxSending = Math.max(maxSending, sending);
        await sends[i]!.promise;
        sending -= 1;
        alive -= 1;
      },
      inFlight: 3,
      ahead: 2,
      prepareConcurrency: 2,
    });
    for (let i = 0; i < 5; i++) await tick();
    // Backpressure: with every send held, 3 are in flight and 2 more are prepared — no sixth.
    expect(sending).toBe(3);
    expect(prepared).toEqual([0, 1, 2, 3, 4]);
    sends[0]!.resolve();
    for (let i = 0; i < 5; i++) await tick();
    expect(prepared).toEqual([0, 1, 2, 3, 4, 5]);
    for (const s of sends) s.resolve();
    await run;
    expect(maxSending).toBe(3);
    expect(maxAlive).toBe(5);
  });

  it('prepares at most prepareConcurrency parts at once (reading and encrypting are the costly stage)', async () => {
    const prepares = range(6).map(() => deferred());
    const started: number[] = [];
    let preparing = 0;
    let maxPreparing = 0;
    const run = runPipeline({
      indices: range(6),
      prepare: async (i) => {
        started.push(i);
        preparing += 1;
        maxPreparing = Math.max(maxPreparing, preparing);
        await prepares[i]!.promise;
        preparing -= 1;
        return i;
      },
      send: async () => undefined,
      inFlight: 4,
      ahead: 4,
      prepareConcurrency: 2,
    });
    for (let i = 0; i < 5; i++) await tick();
    expect(started).toEqual([0, 1]);
    prepares[1]!.resolve();
    for (let i = 0; i < 5; i++) await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const p of prepares) p.resolve();
    await run;
    expect(started.sort((a, b) => a - b)).toEqual(range(6));
    expect(maxPreparing).toBe(2);
  });

  it('a part failing for good stops the rest (their signal aborts) and is the error', async () => {
    const aborted: number[] = [];
    const sent: number[] = [];
    const failure = new Error('part 3 refused');
    await expect(
      runPipeline({
        indices: range(20),
        prepare: async (i) => i,
        send: async (i, _p, signal) => {
          if (i === 3) throw failure;
          await new Promise<void>((resolve, reject) => {
            const onAbort = () => {
              clearTimeout(timer);
              aborted.push(i);
              reject(signal.reason);
            };
            const timer = setTimeout(() => {
              signal.removeEventListener('abort', onAbort);
              resolve();
            }, i === 0 ? 5 : 500); // 0 makes room for 3; 1 and 2 are still in flight when 3 fails
            signal.addEventListener('abort', onAbort, { once: true });
          });
          sent.push(i);
        },
        inFlight: 3,
        ahead: 1,
        prepareConcurrency: 1,
      }),
    ).rejects.toBe(failure);
    expect(aborted.sort()).toEqual([1, 2]);
    expect(sent.filter((i) => i > 5)).toEqual([]);
  });

  it('a cancel stops preparing and sending and rejects with the reason', async () => {
    const controller = new AbortController();
    const prepared: number[] = [];
    const run = runPipeline({
      indices: range(50),
      prepare: async (i) => {
        prepared.push(i);
        return i;
      },
      send: async (i, _p, signal) => {
        if (i === 4) controller.abort(new DOMException('user', 'AbortError'));
        if (signal.aborted) throw signal.reason;
      },
      inFlight: 2,
      ahead: 1,
      prepareConcurrency: 1,
      signal: controller.signal,
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError', message: 'user' });
    expect(prepared.length).toBeLessThan(10);
  });

  it('one part failing with a retryable error is sent again and the run completes', async () => {
    const attempts = new Map<number, number>();
    const policy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 };
    await runPipeline({
      indices: range(6),
      prepare: async (i) => i,
      send: (i, _p, signal) =>
        withRetry(
          async () => {
            const n = (attempts.get(i) ?? 0) + 1;
            attempts.set(i, n);
            if (i === 2 && n < 3) throw toApiError(503, '', new Headers(), undefined);
          },
          policy,
          signal,
        ),
      inFlight: 3,
      ahead: 2,
      prepareConcurrency: 2,
    });
    expect([...attempts.entries()].sort((a, b) => a[0] - b[0])).toEqual([[0, 1], [1, 1], [2, 3], [3, 1], [4, 1], [5, 1]]);
  });

  it('retries stop at the attempt limit and never retry a refusal', async () => {
    const policy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 };
    const signal = new AbortController().signal;
    let calls = 0;
    await expect(withRetry(async () => { calls++; throw toApiError(502, '', new Headers(), undefined); }, policy, signal)).rejects.toMatchObject({ status: 502 });
    expect(calls).toBe(3);
    calls = 0;
    await expect(withRetry(async () => { calls++; throw toApiError(400, '', new Headers(), undefined); }, policy, signal)).rejects.toMatchObject({ status: 400 });
    expect(calls).toBe(1);
  });

  it('an empty list resolves at once', async () => {
    await runPipeline({ indices: [], prepare: async () => 0, send: async () => undefined, inFlight: 3, ahead: 2, prepareConcurrency: 2 });
  });
});
