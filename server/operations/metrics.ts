import type { Socket } from 'node:net';
import { API_BASE } from '@shared/contract/constants';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics (prom-client), on only when KUVERT_METRICS_TOKEN is set.
 *
 * Two kinds of figures (README, "Health, readiness and metrics"):
 * - this process: requests, latency, transfers in flight, bytes in and out, Node's own
 *   figures. Each server counts its own; Prometheus sums over the servers it scrapes.
 * - the whole installation, read from the shared database at scrape time: job queue depth
 *   and virus-scan results. Every server reports the same numbers; take them from any one
 *   (`max` over servers, not `sum`).
 */

/** Seconds: a JSON call takes milliseconds, a part upload or a large download minutes. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

type Transfer = 'upload' | 'download' | 'none';

/** Which routes move file bytes (route templates, not URLs: the label set stays small). */
const TRANSFER_ROUTES: Record<string, Transfer> = {
  [`PUT ${API_BASE}${DELIVERY_PATHS.partRoute}`]: 'upload',
  [`GET ${API_BASE}${DELIVERY_PATHS.contentRoute}`]: 'download',
};

export interface Metrics {
  registry: Registry;
}

/** Installs the hooks that count every request (call before the routes are registered). */
export function installMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'kuvert_' });

  const requests = new Counter({ name: 'kuvert_http_requests_total', help: 'HTTP requests answered by this server', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'kuvert_http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer (or the client going away)',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'kuvert_transfers_in_flight', help: 'Part uploads and file downloads running on this server now', labelNames: ['direction'], registers: [registry] });
  inFlight.set({ direction: 'upload' }, 0);
  inFlight.set({ direction: 'download' }, 0);
  const received = new Counter({ name: 'kuvert_http_received_bytes_total', help: 'Bytes read from clients (headers and bodies)', labelNames: ['transfer'], registers: [registry] });
  const sent = new Counter({ name: 'kuvert_http_sent_bytes_total', help: 'Bytes written to clients (headers and bodies)', labelNames: ['transfer'], registers: [registry] });

  new Gauge({
    name: 'kuvert_jobs',
    help: 'Jobs in the shared database queue by kind and state (installation-wide: the same on every server)',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      const rows = await app.db.selectFrom('jobs').select((eb) => ['kind', 'state', eb.fn.countAll<number | string>().as('count')]).groupBy(['kind', 'state']).execute();
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, state: row.state }, Number(row.count));
    },
  });
  new Gauge({
    name: 'kuvert_virus_scan_files',
    help: 'Delivery files by virus-scan state: notScanned, scanning, clean, virusDetected, error (installation-wide)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const rows = await app.db.selectFrom('delivery_files').select((eb) => ['scan_state', eb.fn.countAll<number | string>().as('count')]).groupBy('scan_state').execute();
      this.reset();
      for (const row of rows) this.set({ state: row.scan_state }, Number(row.count));
    },
  });

  // Bytes are the socket's own counters: what it carried since the last request on it ended
  // (keep-alive sockets carry many requests, one after the other).
  const counted = new WeakMap<Socket, { read: number; written: number }>();
  const transferOf = (request: FastifyRequest): Transfer => TRANSFER_ROUTES[`${request.method} ${request.routeOptions.url ?? ''}`] ?? 'none';

  app.addHook('onRequest', async (request, reply) => {
    const started = process.hrtime.bigint();
    const transfer = transferOf(request);
    if (transfer !== 'none') inFlight.inc({ direction: transfer });
    // 'close' comes once per answer, after the last byte or when the client went away.
    reply.raw.once('close', () => {
      if (transfer !== 'none') inFlight.dec({ direction: transfer });
      const route = request.routeOptions.url ?? 'unmatched';
      requests.inc({ method: request.method, route, status: String(reply.raw.statusCode) });
      latency.observe({ method: request.method, route }, Number(process.hrtime.bigint() - started) / 1e9);
      const socket = request.raw.socket;
      const before = counted.get(socket) ?? { read: 0, written: 0 };
      const now = { read: socket.bytesRead, written: socket.bytesWritten };
      received.inc({ transfer }, Math.max(0, now.read - before.read));
      sent.inc({ transfer }, Math.max(0, now.written - before.written));
      counted.set(socket, now);
    });
  });

  return { registry };
}
