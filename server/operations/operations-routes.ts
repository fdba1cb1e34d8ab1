import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError, notFound } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import type { Metrics } from './metrics';
import { checkReadiness } from './readiness';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares the presented bearer token with the configured one in constant time (hashes: equal lengths). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(sha256(presented), sha256(token));
}

/** An idle cluster logged ~4 probe lines a second at info (issue 29 §2); failures still show. */
const PROBE_LOG_LEVEL = 'warn';

/**
 * For load balancers and monitoring, outside `/api/2` (and outside its OpenAPI document):
 * - `GET /healthz`: the process is up and answers (liveness; checks nothing else);
 * - `GET /readyz`: 200 when every part it needs answers, else 503 naming the part (readiness);
 * - `GET /metrics`: Prometheus text, only with KUVERT_METRICS_TOKEN set and sent as a bearer token.
 * `public` in the access table: no session; /metrics is guarded by its own token instead.
 * Balancers and monitoring poll them every second or so: logged at warn only (PROBE_LOG_LEVEL).
 */
export const operationsRoutes = (options: { metrics: Metrics | null; migrationSchema: string | undefined }) =>
  routePlugin('kuvert-operations-routes', async (app) => {
    app.get('/healthz', { logLevel: PROBE_LOG_LEVEL, config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });

    app.get('/readyz', { logLevel: PROBE_LOG_LEVEL, config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      const readiness = await checkReadiness(app, { migrationSchema: options.migrationSchema });
      void reply.code(readiness.ready ? 200 : 503).header('cache-control', 'no-store');
      return { status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks };
    });

    app.get('/metrics', { logLevel: PROBE_LOG_LEVEL, config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const token = app.config.metricsToken;
      if (!options.metrics || token === undefined) throw notFound('Metrics are off (KUVERT_METRICS_TOKEN is not set)');
      if (!tokenMatches(request.headers.authorization, token)) {
        throw new HttpError(401, 'AuthenticationRequiredException', 'The metrics need the bearer token of KUVERT_METRICS_TOKEN', {}, { 'www-authenticate': 'Bearer realm="kuvert-metrics"' });
      }
      const registry = options.metrics.registry;
      void reply.type(registry.contentType).header('cache-control', 'no-store');
      return registry.metrics();
    });
  });
