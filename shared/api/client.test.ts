import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { createApiClient, encodeBasicCredentials } from './client';
import { createMemoryStorage } from './storage-adapter';

const respond = (response: Response) => vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);

describe('api client (SPEC §7, §8)', () => {
  it('prefixes /api/2, includes credentials and sends the stored anti-forgery value', async () => {
    const storage = createMemoryStorage();
    storage.setItem('anticsrfattr', 'from-storage');
    const fetch = respond(new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }));
    const client = createApiClient({ fetch, storage });
    expect(await client.get('/user', { query: { a: 1, b: undefined } })).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/2/user?a=1');
    expect(init.credentials).toBe('include');
    expect(new Headers(init.headers).get('anticsrfattr')).toBe('from-storage');
    expect(init.signal).toBeUndefined(); // no timeout by default (SPEC §9)
  });

  it('takes the message from error.message, then message, then the api-error header', async () => {
    const nested = createApiClient({
      fetch: respond(new Response(JSON.stringify({ error: { message: 'nested' } }), { status: 400, headers: { 'content-type': 'application/json' } })),
    });
    await expect(nested.get('/x')).rejects.toMatchObject({ message: 'nested', status: 400 });
    const flat = { uuid: 'u', requestUri: '/api/2/x', error: 'ValidationException', message: 'flat', metadata: { field: 'a' } };
    const flatClient = createApiClient({ fetch: respond(new Response(JSON.stringify(flat), { status: 400, headers: { 'content-type': 'application/json' } })) });
    const error = (await flatClient.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.error).toEqual(flat);
    expect(error.errorClass).toBe('ValidationException');
    const header = createApiClient({ fetch: respond(new Response('<html>', { status: 502, headers: { 'api-error': 'from header' } })) });
    await expect(header.get('/x')).rejects.toMatchObject({ message: 'from header', status: 502 });
  });

  it('keeps network failures as standard errors and reports every failure to the global handler', async () => {
    const client = createApiClient({ fetch: vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))) });
    const handler = vi.fn();
    client.onResponseError(handler);
    const error = await client.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledWith(error, { method: 'GET', path: '/x' });
  });

  it('calls backend paths without the /api/2 prefix', async () => {
    const fetch = respond(new Response('ok'));
    const client = createApiClient({ fetch, backendUrl: 'https://kuvert.example/' });
    await client.request('GET', '/webui/keepAlive.html', { base: 'backend', query: { lang: 'fr' } });
    expect(fetch.mock.calls[0]?.[0]).toBe('https://kuvert.example/webui/keepAlive.html?lang=fr');
  });

  it('encodes Basic credentials as UTF-8', () => {
    expect(encodeBasicCredentials({ username: 'jörg', password: 'pa:ss' })).toBe(`Basic ${Buffer.from('jörg:pa:ss', 'utf8').toString('base64')}`);
  });

  it('sends a binary body as is with its content type, and JSON bodies as before', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('{"index":0}', { headers: { 'content-type': 'application/json' } }));
    const client = createApiClient({ fetch });
    const blob = new Blob([new Uint8Array([1, 2, 3])]);
    await client.request('PUT', '/parts/0', { rawBody: blob, contentType: 'application/octet-stream', headers: { 'x-content-sha256': 'ab' } });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(blob);
    const headers = new Headers(init.headers);
    expect(headers.get('content-type')).toBe('application/octet-stream');
    expect(headers.get('x-content-sha256')).toBe('ab');
    // Without a content type: the Blob's own type, else octet-stream.
    await client.request('PUT', '/x', { rawBody: new Blob(['a'], { type: 'text/plain' }) });
    expect(new Headers((fetch.mock.calls[1] as unknown as [string, RequestInit])[1].headers).get('content-type')).toBe('text/plain');
    const bytes = new Uint8Array([9]);
    await client.request('PUT', '/x', { rawBody: bytes });
    const [, rawInit] = fetch.mock.calls[2] as unknown as [string, RequestInit];
    expect(rawInit.body).toBe(bytes);
    expect(new Headers(rawInit.headers).get('content-type')).toBe('application/octet-stream');
    // JSON callers are unchanged.
    await client.post('/y', { a: 1 });
    const [, jsonInit] = fetch.mock.calls[3] as unknown as [string, RequestInit];
    expect(jsonInit.body).toBe('{"a":1}');
    expect(new Headers(jsonInit.headers).get('content-type')).toBe('application/json');
  });
});
