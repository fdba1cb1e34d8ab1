import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Generated, Kysely, Updateable } from 'kysely';
import { isDatabaseUnavailable, reasonOf } from '../db/availability';
import type { Database } from '../db/schema';

/**
 * The database job queue (DESIGN §5). Jobs are rows, so every server behind the load
 * balancer shares them and a restart resumes them:
 * - a server claims a due job with one conditional UPDATE (only one claim can win) and
 *   holds a lease it renews while working; a job whose lease ran out (its server died)
 *   is due again for anyone;
 * - a failing job is retried with doubling delays up to its kind's attempt limit, then
 *   `failed` (kept with its last error) after the kind's `giveUp`;
 * - done jobs are deleted; a server shutting down hands its running job back unharmed;
 * - a periodic kind (`everyMs`) is one row for all servers (`unique_key` = its kind, inserted
 *   by whichever server starts first): the lease makes one server run it, and the run moves
 *   the row to the next period instead of deleting it, so it runs once per period in total.
 * - the database going away (a PostgreSQL restart) is waited out: the bookkeeping write after a run
 *   (done, retry, handed back) is repeated until it lands while the lease is renewed, and a run that
 *   failed only because the database was away is handed back without counting an attempt — so the
 *   job resumes exactly once (issue 29 §1), unless the outage outlasts the lease (60 s).
 * Handlers must be idempotent: a job may run again after a crash.
 */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON text. */
  payload: string;
  /** 'pending' | 'running' | 'failed'. */
  state: string;
  attempts: Generated<number>;
  run_at: number;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  /** Periodic jobs: the kind (one row for every server); null for ordinary jobs. */
  unique_key: string | null;
  created_at: number;
  updated_at: number;
}

declare module '../db/schema' {
  interface Database {
    jobs: JobsTable;
  }
}

export interface JobKind<P> {
  /** Attempts before `giveUp` (at least 1). */
  maxAttempts: number;
  /** Delay before the second attempt; doubled for each further one. */
  retryDelayMs: number;
  /** Does the work; throws to retry. `signal` aborts when the server shuts down. */
  run(payload: P, context: { attempt: number; signal: AbortSignal }): Promise<void>;
  /** After the last failed attempt (a periodic kind then waits for its next period). */
  giveUp(payload: P, error: unknown): Promise<void>;
  /** Periodic: runs once per this many ms across all servers (payload `{}`), first one period after the first start. */
  everyMs?: number;
}

/** How long a claim holds without renewal: a dead server's job is picked up again after this. */
const LEASE_MS = 60_000;
const RENEW_EVERY_MS = LEASE_MS / 3;
/** A bookkeeping write waiting for the database retries this often at most. */
const SETTLE_MAX_DELAY_MS = 2_000;
/** A run the database outage broke is due again after this (the database is likely back by then). */
const AFTER_OUTAGE_DELAY_MS = 2_000;
/** Error text kept on the row (for operators), cut so a huge message cannot bloat it. */
const MAX_ERROR_LENGTH = 1000;

type Db = Kysely<Database>;

/** Adds a job (inside the caller's transaction when given one, so it exists exactly when the data does). */
export async function enqueueJob(db: Db, kind: string, payload: unknown, runAt = Date.now()): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('jobs')
    .values({ kind, payload: JSON.stringify(payload), state: 'pending', run_at: runAt, locked_until: null, locked_by: null, last_error: null, unique_key: null, created_at: now, updated_at: now })
    .execute();
}

/**
 * A periodic kind: `run` once per `everyMs` across all servers. Failures are retried twice a
 * minute apart, then the next period takes over (house-keeping that is idempotent by nature).
 */
export function periodicJob(everyMs: number, run: (signal: AbortSignal) => Promise<void>): JobKind<never> {
  return { everyMs, maxAttempts: 3, retryDelayMs: 60_000, run: (_payload, { signal }) => run(signal), giveUp: async () => undefined };
}

/**
 * The single row of a periodic kind, first due one period after the first start (as the timers it
 * replaces: a start never races a test's or an operator's first steps), unless a server inserted
 * it before (then it stays as it is).
 */
async function ensurePeriodicJob(db: Db, kind: string, everyMs: number): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('jobs')
    .values({ kind, payload: '{}', state: 'pending', run_at: now + everyMs, locked_until: null, locked_by: null, last_error: null, unique_key: kind, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('unique_key').doNothing())
    .execute();
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);

export interface JobRunner {
  /** Look for due jobs now (after enqueueing one, so it does not wait for the next poll). */
  kick(): void;
  /** Stops polling, aborts the running job and hands it back (pending, attempt not counted). */
  stop(): Promise<void>;
  /** Resolves once the runner works on nothing: every job that was due when it looked is done, retried or failed. */
  whenIdle(): Promise<void>;
}

/** Runs due jobs of the given kinds one at a time (the machines are small; scans are I/O-bound on clamd). */
export function startJobRunner(db: Db, kinds: Record<string, JobKind<never>>, options: { pollIntervalMs: number; log: FastifyBaseLogger }): JobRunner {
  const owner = randomUUID();
  const names = Object.keys(kinds);
  let stopped = false;
  let busy: Promise<void> | null = null;
  let again = false;
  const abort = new AbortController();
  let periodicEnsured = false;
  /** The poll failing on an absent database is logged once per outage, not every poll. */
  let pollFailing = false;

  /**
   * A write that records a run's outcome: repeated while the database is away (the job's lease is
   * renewed meanwhile), so the outcome is not lost and the job does not run a second time. Gives up
   * only on another error or when the runner stops (the lease then hands the job on).
   */
  async function settle(write: () => Promise<unknown>): Promise<void> {
    let delay = 250;
    for (;;) {
      try {
        await write();
        return;
      } catch (error) {
        if (stopped || !isDatabaseUnavailable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, SETTLE_MAX_DELAY_MS);
      }
    }
  }

  async function claimNext(): Promise<{ id: number; kind: string; payload: string; attempts: number } | undefined> {
    // No kinds (a server without any job of its own): nothing to claim, and `in ()` is invalid SQL on PostgreSQL.
    if (names.length === 0) return undefined;
    const now = Date.now();
    const candidates = await db
      .selectFrom('jobs')
      .select(['id', 'kind', 'payload', 'attempts'])
      .where('kind', 'in', names)
      .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)])]))
      .orderBy('run_at')
      .limit(5)
      .execute();
    for (const job of candidates) {
      // The WHERE repeats the due condition: of several servers only one update matches.
      const claimed = await db
        .updateTable('jobs')
        .set({ state: 'running', locked_by: owner, locked_until: now + LEASE_MS, attempts: job.attempts + 1, updated_at: now })
        .where('id', '=', job.id)
        .where('attempts', '=', job.attempts)
        .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)])]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) return { ...job, attempts: job.attempts + 1 };
    }
    return undefined;
  }

  async function runOne(): Promise<boolean> {
    const job = await claimNext();
    if (!job) return false;
    const kind = kinds[job.kind]!;
    const payload = JSON.parse(job.payload) as never;
    const renew = setInterval(() => {
      db.updateTable('jobs')
        .set({ locked_until: Date.now() + LEASE_MS })
        .where('id', '=', job.id)
        .where('locked_by', '=', owner)
        .execute()
        .catch((err: unknown) => options.log.warn({ err, jobId: job.id }, 'job lease renewal failed'));
    }, RENEW_EVERY_MS);
    renew.unref();
    // Only while the lease is still ours: after a long stall another server may have taken the job.
    const updateMine = (values: Updateable<JobsTable>) => settle(() => db.updateTable('jobs').set(values).where('id', '=', job.id).where('locked_by', '=', owner).execute());
    // A periodic job's next period starts when this run ends (done or given up); its row stays.
    const nextPeriod = (lastError: string | null) =>
      updateMine({ state: 'pending', attempts: 0, run_at: Date.now() + kind.everyMs!, locked_by: null, locked_until: null, last_error: lastError, updated_at: Date.now() });
    try {
      await kind.run(payload, { attempt: job.attempts, signal: abort.signal });
      if (kind.everyMs !== undefined) await nextPeriod(null);
      else await settle(() => db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', owner).execute());
    } catch (error) {
      const now = Date.now();
      if (abort.signal.aborted) {
        // Shutting down: hand it back as it was, another server (or our restart) continues.
        await updateMine({ state: 'pending', attempts: job.attempts - 1, run_at: now, locked_by: null, locked_until: null, updated_at: now });
      } else if (isDatabaseUnavailable(error)) {
        // Not the job's fault: back as it was once the database answers, no attempt counted.
        options.log.warn({ jobId: job.id, kind: job.kind, reason: reasonOf(error) }, 'job interrupted: the database is unavailable; handed back');
        await updateMine({ state: 'pending', attempts: job.attempts - 1, run_at: Date.now() + AFTER_OUTAGE_DELAY_MS, locked_by: null, locked_until: null, updated_at: Date.now() });
      } else if (job.attempts < kind.maxAttempts) {
        const delay = kind.retryDelayMs * 2 ** (job.attempts - 1);
        options.log.warn({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempts, retryInMs: delay }, 'job failed; will retry');
        await updateMine({ state: 'pending', run_at: now + delay, locked_by: null, locked_until: null, last_error: errorText(error), updated_at: now });
      } else {
        options.log.error({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempts }, 'job failed for good');
        await kind.giveUp(payload, error);
        if (kind.everyMs !== undefined) await nextPeriod(errorText(error));
        else await updateMine({ state: 'failed', locked_by: null, locked_until: null, last_error: errorText(error), updated_at: now });
      }
    } finally {
      clearInterval(renew);
    }
    return true;
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      try {
        if (!periodicEnsured) {
          for (const name of names) if (kinds[name]!.everyMs !== undefined) await ensurePeriodicJob(db, name, kinds[name]!.everyMs);
          periodicEnsured = true;
        }
        while (!stopped && (await runOne()));
        if (pollFailing) options.log.info('job queue: the database answers again');
        pollFailing = false;
      } catch (err) {
        const outage = isDatabaseUnavailable(err);
        if (!stopped && !(outage && pollFailing)) options.log.warn(outage ? { reason: reasonOf(err) } : { err }, 'job queue poll failed');
        pollFailing = outage;
      }
    } while (again && !stopped);
  }

  function kick(): void {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = drain().finally(() => {
      busy = null;
    });
  }

  const timer = setInterval(kick, options.pollIntervalMs);
  timer.unref();
  kick();

  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      abort.abort();
      await busy;
    },
    async whenIdle() {
      while (busy) await busy;
    },
  };
}
