import { routePathOf, type Endpoint } from '@shared/contract/endpoint';
import { ENDPOINT_AREAS, ENDPOINTS } from '@shared/contract/endpoints';
import { API_BASE } from '@shared/contract/constants';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const key = (method: string, url: string) => `${method} ${url}`;
/** The app's own routes under /api/2 (HEAD is Fastify's automatic twin of each GET). */
const apiRoutes = () => server.app.routeTable.filter((r) => r.url.startsWith(`${API_BASE}/`) && r.method !== 'HEAD');

describe('the endpoint catalogue (shared/contract/endpoints)', () => {
  it('every /api/2 route was registered from exactly one catalogue entry', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const unregistered = routes.filter((r) => r.endpoint === undefined).map((r) => key(r.method, r.url));
    expect(unregistered).toEqual([]);
    for (const route of routes) {
      const entries = ENDPOINTS.filter((e) => e.method === route.method && routePathOf(e) === route.url);
      expect(entries, key(route.method, route.url)).toHaveLength(1);
      // The route is the entry itself, not a copy that could drift.
      expect(route.endpoint).toBe(entries[0]);
      expect(route.access).toBe(entries[0]!.access);
    }
  });

  it('every catalogue entry is registered exactly once', () => {
    const registered = apiRoutes();
    const missing: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const routes = registered.filter((r) => r.endpoint === endpoint);
      if (routes.length !== 1) missing.push(`${key(endpoint.method, endpoint.path)} registered ${routes.length}×`);
    }
    expect(missing).toEqual([]);
  });

  it('method and path, and the operationId, are unique across the catalogue', () => {
    const pairs = ENDPOINTS.map((e) => key(e.method, routePathOf(e)));
    expect(new Set(pairs).size).toBe(pairs.length);
    const ids = ENDPOINTS.map((e) => e.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('each area holds plain declarations: a path template under /api/2, a summary, a tag, errors in the §8 range', () => {
    for (const [area, endpoints] of Object.entries(ENDPOINT_AREAS)) {
      for (const [name, endpoint] of Object.entries(endpoints) as [string, Endpoint][]) {
        const where = `${area}.${name}`;
        expect(endpoint.path, where).toMatch(/^\/[A-Za-z0-9\-._/{}]*$/);
        expect(endpoint.path.startsWith(API_BASE), where).toBe(false);
        expect(endpoint.summary.length, where).toBeGreaterThan(5);
        expect(endpoint.tag, where).toMatch(/^[a-z-]+$/);
        for (const code of endpoint.errors) expect(code >= 400 && code < 600, `${where} ${code}`).toBe(true);
        // A JSON success or a declared non-JSON one, never neither.
        expect(Object.keys(endpoint.response).length > 0 || (endpoint.produces?.length ?? 0) > 0, where).toBe(true);
      }
    }
  });
});
