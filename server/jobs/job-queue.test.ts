import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { enqueueJob, periodicJob, startJobRunner, type JobKind, type JobRunner } from './job-queue';

/**
 * The database job queue on real SQLite in a temp folder. Two "servers" are two runners on two
 * connections to the same database file. Time passing is the database row changing (run_at,
 * locked_until), never a wait: the runners are kicked by hand and awaited until idle.
 */

/** Never polls by itself during a test: only kick() starts work. */
const NO_POLL = 600_000;

interface LogEntry {
  level: string;
  message: string;
}

/** A logger that keeps what the runner reports (operators read these lines). */
function recordingLogger(entries: LogEntry[]): FastifyBaseLogger {
  const at = (level: string) => (_object: unknown, message?: string) => entries.push({ level, message: message ?? '' });
  const logger = { level: 'info', fatal: at('fatal'), error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), silent: () => undefined, child: () => logger };
  return logger as unknown as FastifyBaseLogger;
}

let dir: string;
const handles: DatabaseHandle[] = [];
const runners: JobRunner[] = [];
let log: LogEntry[];

async function connect(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ dataDir: dir });
  handles.push(handle);
  return handle;
}

function start(handle: DatabaseHandle, kinds: Record<string, JobKind<never>>): JobRunner {
  const runner = startJobRunner(handle.db, kinds, { pollIntervalMs: NO_POLL, log: recordingLogger(log) });
  runners.push(runner);
  return runner;
}

const rows = (handle: DatabaseHandle) => handle.db.selectFrom('jobs').selectAll().orderBy('id').execute();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kuvert-jobs-'));
  log = [];
  const first = await connect();
  await migrateToLatest(first.db);
});

afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const handle of handles.splice(0)) await handle.close();
  await rm(dir, { recursive: true, force: true });
});

function kind<P>(run: JobKind<P>['run'], options: Partial<Omit<JobKind<P>, 'run'>> = {}): JobKind<never> {
  return { maxAttempts: 3, retryDelayMs: 1000, giveUp: async () => undefined, ...options, run } as unknown as JobKind<never>;
}

describe('job queue', () => {
  it('runs an enqueued job once with its payload and deletes it', async () => {
    const db = handles[0]!;
    const seen: { payload: unknown; attempt: number }[] = [];
    const runner = start(db, { greet: kind<{ name: string }>(async (payload, { attempt }) => void seen.push({ payload, attempt })) });
    await enqueueJob(db.db, 'greet', { name: 'Ada' });
    await enqueueJob(db.db, 'other-kind', { name: 'not mine' });
    runner.kick();
    await runner.whenIdle();
    expect(seen).toEqual([{ payload: { name: 'Ada' }, attempt: 1 }]);
    // A kind this runner does not know stays for a server that does.
    expect((await rows(db)).map((r) => [r.kind, r.state])).toEqual([['other-kind', 'pending']]);
  });

  it('does not run a job before its time', async () => {
    const db = handles[0]!;
    let runs = 0;
    const runner = start(db, { later: kind(async () => void runs++) });
    await enqueueJob(db.db, 'later', {}, Date.now() + 3_600_000);
    runner.kick();
    await runner.whenIdle();
    expect(runs).toBe(0);
    await db.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).execute();
    runner.kick();
    await runner.whenIdle();
    expect(runs).toBe(1);
    expect(await rows(db)).toEqual([]);
  });

  it('retries a failing job with doubling delays, then gives up and keeps it as failed', async () => {
    const db = handles[0]!;
    const attempts: number[] = [];
    const givenUp: unknown[] = [];
    const runner = start(db, {
      flaky: kind<{ n: number }>(
        async (_payload, { attempt }) => {
          attempts.push(attempt);
          throw new Error(`boom ${attempt}`);
        },
        { maxAttempts: 3, retryDelayMs: 1000, giveUp: async (payload, error) => void givenUp.push([payload, (error as Error).message]) },
      ),
    });
    await enqueueJob(db.db, 'flaky', { n: 7 });
    const makeDue = () => db.db.updateTable('jobs').set({ run_at: 0 }).execute();

    runner.kick();
    await runner.whenIdle();
    let [row] = await rows(db);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'boom 1', locked_by: null });
    expect(row!.run_at - row!.updated_at).toBe(1000);

    // Not due yet: a kick changes nothing.
    runner.kick();
    await runner.whenIdle();
    expect(attempts).toEqual([1]);

    await makeDue();
    runner.kick();
    await runner.whenIdle();
    [row] = await rows(db);
    expect(row).toMatchObject({ state: 'pending', attempts: 2, last_error: 'boom 2' });
    expect(row!.run_at - row!.updated_at).toBe(2000);

    await makeDue();
    runner.kick();
    await runner.whenIdle();
    [row] = await rows(db);
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_error: 'boom 3', locked_by: null, locked_until: null });
    expect(givenUp).toEqual([[{ n: 7 }, 'boom 3']]);
    expect(log.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual(['job failed; will retry', 'job failed; will retry']);
    expect(log.filter((e) => e.level === 'error').map((e) => e.message)).toEqual(['job failed for good']);

    // A failed job never runs again.
    await makeDue();
    runner.kick();
    await runner.whenIdle();
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('runs every job exactly once across two servers sharing the database', async () => {
    const a = handles[0]!;
    const b = await connect();
    const runsById = new Map<number, string[]>();
    const worker = (server: string) =>
      kind<{ i: number }>(async ({ i }) => {
        // Yield between claim and finish so the two runners interleave.
        await new Promise((resolve) => setImmediate(resolve));
        runsById.set(i, [...(runsById.get(i) ?? []), server]);
      });
    for (let i = 0; i < 40; i++) await enqueueJob(a.db, 'work', { i });
    const runnerA = start(a, { work: worker('a') });
    const runnerB = start(b, { work: worker('b') });
    runnerA.kick();
    runnerB.kick();
    await Promise.all([runnerA.whenIdle(), runnerB.whenIdle()]);

    expect([...runsById.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect([...runsById.values()].filter((servers) => servers.length !== 1)).toEqual([]);
    expect(await rows(a)).toEqual([]);
  });

  it('of two servers claiming the same due job at once, exactly one runs it', async () => {
    const a = handles[0]!;
    const b = await connect();
    const runs: string[] = [];
    await enqueueJob(a.db, 'single', {});
    const runnerA = start(a, { single: kind(async () => void runs.push('a')) });
    const runnerB = start(b, { single: kind(async () => void runs.push('b')) });
    runnerA.kick();
    runnerB.kick();
    await Promise.all([runnerA.whenIdle(), runnerB.whenIdle()]);
    expect(runs).toHaveLength(1);
    expect(await rows(a)).toEqual([]);
  });

  it("picks up a dead server's job once its lease ran out, and leaves a live lease alone", async () => {
    const db = handles[0]!;
    const now = Date.now();
    const running = { kind: 'lease', state: 'running', attempts: 1, run_at: now - 10_000, last_error: null, created_at: now, updated_at: now };
    await db.db
      .insertInto('jobs')
      .values([
        { ...running, payload: JSON.stringify({ job: 'expired' }), locked_by: 'dead-server', locked_until: now - 1 },
        { ...running, payload: JSON.stringify({ job: 'live' }), locked_by: 'busy-server', locked_until: now + 3_600_000 },
      ])
      .execute();
    const seen: { job: string; attempt: number }[] = [];
    const runner = start(db, { lease: kind<{ job: string }>(async ({ job }, { attempt }) => void seen.push({ job, attempt })) });
    runner.kick();
    await runner.whenIdle();
    // The expired one runs as its second attempt; the live one is still the other server's.
    expect(seen).toEqual([{ job: 'expired', attempt: 2 }]);
    expect((await rows(db)).map((r) => [JSON.parse(r.payload), r.state, r.locked_by])).toEqual([[{ job: 'live' }, 'running', 'busy-server']]);
  });

  it('hands a running job back unharmed when the server stops', async () => {
    const db = handles[0]!;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runner = start(db, {
      slow: kind(async (_payload, { signal }) => {
        started();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        throw new Error('aborted');
      }),
    });
    await enqueueJob(db.db, 'slow', {});
    runner.kick();
    await running;
    expect((await rows(db))[0]).toMatchObject({ state: 'running', attempts: 1 });
    await runner.stop();
    expect((await rows(db))[0]).toMatchObject({ state: 'pending', attempts: 0, locked_by: null, locked_until: null, last_error: null });
  });

  describe('periodic kinds', () => {
    const PERIOD = 600_000;
    const periodicRows = (handle: DatabaseHandle) => handle.db.selectFrom('jobs').selectAll().where('unique_key', 'is not', null).execute();
    const periodPasses = (handle: DatabaseHandle) => handle.db.updateTable('jobs').set({ run_at: Date.now() - 1 }).where('unique_key', 'is not', null).execute();

    it('is one row for every server, runs once per period across two servers, and stays after each run', async () => {
      const a = handles[0]!;
      const b = await connect();
      const runs: string[] = [];
      const tick = (server: string) => periodicJob(PERIOD, async () => void runs.push(server));
      const runnerA = start(a, { tick: tick('a') });
      const runnerB = start(b, { tick: tick('b') });
      runnerA.kick();
      runnerB.kick();
      await Promise.all([runnerA.whenIdle(), runnerB.whenIdle()]);
      // Both tried to insert it at start; one row, first due one period later.
      expect(runs).toHaveLength(0);
      let [row, ...more] = await periodicRows(a);
      expect(more).toEqual([]);
      expect(row).toMatchObject({ kind: 'tick', unique_key: 'tick', state: 'pending', attempts: 0, locked_by: null });
      expect(row!.run_at - row!.updated_at).toBe(PERIOD);

      for (let period = 1; period <= 10; period++) {
        await periodPasses(a);
        runnerA.kick();
        runnerB.kick();
        await Promise.all([runnerA.whenIdle(), runnerB.whenIdle()]);
        expect(runs, `period ${period}`).toHaveLength(period);
      }
      [row, ...more] = await periodicRows(a);
      expect(more).toEqual([]);

      // A third server starting later adds no second row and does not run it before its time.
      const c = await connect();
      const runnerC = start(c, { tick: tick('c') });
      runnerC.kick();
      await runnerC.whenIdle();
      expect(runs).toHaveLength(10);
      expect(await periodicRows(a)).toHaveLength(1);
    });

    it('after its last failed attempt waits for the next period instead of failing for good', async () => {
      const db = handles[0]!;
      let attempts = 0;
      const runner = start(db, {
        broken: periodicJob(PERIOD, async () => {
          attempts++;
          throw new Error(`broken ${attempts}`);
        }),
      });
      const makeDue = () => db.db.updateTable('jobs').set({ run_at: 0 }).execute();
      runner.kick();
      await runner.whenIdle();
      expect(attempts).toBe(0);
      for (let i = 0; i < 3; i++) {
        await makeDue();
        runner.kick();
        await runner.whenIdle();
      }
      expect(attempts).toBe(3);
      const [row] = await periodicRows(db);
      expect(row).toMatchObject({ state: 'pending', attempts: 0, last_error: 'broken 3', locked_by: null });
      expect(row!.run_at - row!.updated_at).toBe(PERIOD);
      // The next period runs it again.
      await periodPasses(db);
      runner.kick();
      await runner.whenIdle();
      expect(attempts).toBe(4);
    });

    it("a dead server's periodic run is taken over once its lease runs out", async () => {
      const a = handles[0]!;
      const b = await connect();
      const runs: string[] = [];
      // A started it and died holding the lease (no stop(): the row stays running with A's lease).
      await a.db
        .insertInto('jobs')
        .values({ kind: 'tick', payload: '{}', state: 'running', attempts: 1, run_at: 0, locked_by: 'dead-server', locked_until: Date.now() + 3_600_000, last_error: null, unique_key: 'tick', created_at: 0, updated_at: 0 })
        .execute();
      const runnerB = start(b, { tick: periodicJob(PERIOD, async () => void runs.push('b')) });
      runnerB.kick();
      await runnerB.whenIdle();
      expect(runs).toEqual([]);
      await a.db.updateTable('jobs').set({ locked_until: Date.now() - 1 }).execute();
      runnerB.kick();
      await runnerB.whenIdle();
      expect(runs).toEqual(['b']);
      expect(await periodicRows(a)).toEqual([expect.objectContaining({ state: 'pending', attempts: 0, locked_by: null })]);
    });
  });
});
