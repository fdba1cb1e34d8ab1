import { DELIVERY_ENDPOINTS } from '@shared/contract/endpoints/deliveries';
import { describe, expect, it, vi } from 'vitest';
import { call, ResponseSchemaError } from './call';
import { createApiClient } from './client';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('call() through the endpoint catalogue', () => {
  it('fills the path template (URI-encoded), sends method, query and body', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => json({ notified: ['a@example.test'] }));
    const client = createApiClient({ fetch });
    const answer = await call(client, DELIVERY_ENDPOINTS.resend, { params: { deliveryUuid: 'a/b c' }, body: { shareUuid: 's1' } });
    expect(answer).toEqual({ notified: ['a@example.test'] });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/2/deliveries/a%2Fb%20c/resend-notification');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ shareUuid: 's1' });
  });

  it('refuses an answer that does not match the response schema', async () => {
    const client = createApiClient({ fetch: async () => json({ notified: 'not a list' }) });
    await expect(call(client, DELIVERY_ENDPOINTS.resend, { params: { deliveryUuid: 'd1' } })).rejects.toBeInstanceOf(ResponseSchemaError);
  });

  it('reads a 204 as null', async () => {
    const client = createApiClient({ fetch: async () => new Response(null, { status: 204 }) });
    await expect(call(client, DELIVERY_ENDPOINTS.remove, { params: { deliveryUuid: 'd1' } })).resolves.toBeNull();
  });
});
