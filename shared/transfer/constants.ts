/**
 * Numbers of the upload engine (DESIGN §4); the why is in shared/transfer/README.md.
 */

/**
 * Parts PUT at the same time for one file. DESIGN §4 measured 3–4 as the point where a
 * single connection's latency is hidden; more only adds open requests and memory
 * (each part in flight holds up to one part size, ~4 MiB, for its hash).
 */
export const PARTS_IN_FLIGHT = 3;

/**
 * How long a failing call (no answer, 408/429/5xx) is retried with back-off before the transfer
 * pauses and waits for the server (retry.ts). A minute rides over a restarting server or blob
 * store; 4 attempts (~3.5 s) failed every upload in flight on any longer outage.
 */
export const RETRY_WINDOW_MS = 60_000;

/** While paused: one attempt about this often (half jitter) until the server answers again. */
export const PAUSED_RETRY_INTERVAL_MS = 15_000;

/** The longest Retry-After honoured: a wrong header must not park a transfer for hours. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** First retry after ~0.5 s, then doubling (0.5, 1, 2 s …) with jitter so parallel parts do not retry in lockstep. */
export const RETRY_BASE_DELAY_MS = 500;

/** Cap of one backoff wait. */
export const RETRY_MAX_DELAY_MS = 8_000;

/**
 * Parts prepared (read or encrypted, hashed) ahead of the PUTs in flight, so the next PUT never
 * waits for its hash. 2 covers the jitter of a hash or an encryption; memory stays
 * (PARTS_IN_FLIGHT + PARTS_AHEAD) parts (~20 MiB with 4 MiB parts).
 */
export const PARTS_AHEAD = 2;

/** Parts prepared at once: two keep the hashing (and the crypto Worker) busy while one waits for its bytes. */
export const PREPARE_CONCURRENCY = 2;
