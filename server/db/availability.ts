import type { FastifyBaseLogger } from 'fastify';

/**
 * Errors that mean "the database is away right now", not "this query is wrong" (issue 29 §1): the
 * connection was refused or cut, the server is shutting down or starting (57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now), any connection exception (class 08), and the
 * pool's own connect timeout. Socket codes (ECONNREFUSED, …) count only on errors the database
 * connection raised (markFromDatabase). Requests that meet one answer 503 with Retry-After; jobs put their
 * work back instead of counting a failed attempt.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);
/** pg and pg-pool raise these as plain Errors, without a code. */
const MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect$/, /^Client has encountered a connection error and is not queryable$/, /^Client was closed and is not queryable$/];

/** Marks errors raised by the database connection (database.ts), so a refused connection to S3 or SMTP is not taken for one. */
const FROM_DATABASE = Symbol('kuvert.database-error');

export function markFromDatabase<E>(error: E): E {
  if (error && typeof error === 'object' && !Object.isFrozen(error)) Object.defineProperty(error, FROM_DATABASE, { value: true });
  return error;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const fromDatabase = Boolean(error && typeof error === 'object' && (error as { [FROM_DATABASE]?: boolean })[FROM_DATABASE]);
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && ((fromDatabase && NETWORK_CODES.has(code)) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    // pg's connect to several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError.
    if (fromDatabase && e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(markFromDatabase(inner)))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}

/** Start-up waits: first retry after this, doubling up to the cap (one log line per attempt). */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

/**
 * Runs `step` until it gets through, waiting out a database that is not there yet (a server started
 * before PostgreSQL, or during its restart) instead of exiting: back-off from 0.5 s doubling to
 * 10 s, one warning per attempt. Any other error is thrown at once.
 */
export async function retryWhileDatabaseUnavailable<T>(what: string, step: () => Promise<T>, log: FastifyBaseLogger): Promise<T> {
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await step();
      if (attempt > 1) log.info({ attempt }, `${what}: the database answers again`);
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log.warn({ attempt, retryInMs: delay, reason: reasonOf(error) }, `${what}: the database is unavailable; waiting for it`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

/** The error's code (never its message, which may quote a URL). */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
  if (error instanceof AggregateError) return reasonOf(error.errors[0]);
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return message;
  return 'unavailable';
}
