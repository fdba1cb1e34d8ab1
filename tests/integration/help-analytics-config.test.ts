// Product help and analytics configuration (issue 17 §4): operator settings in the environment,
// served in the public profile (SPEC §3), admitted by the Content-Security-Policy, refused from
// the admin settings API, and off by default.
import { CONFIG_KEYS } from '@shared/contract/config';
import { loadConfig } from '@server/config';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectBackendError, signIn, signInAdmin, createUserAsAdmin } from './core-helpers';

const profile = async (server: TestServer) => (await (await fetch(`${server.url}/api/2/config/profile`)).json()).config as Record<string, unknown>;
const csp = async (server: TestServer) => (await fetch(`${server.url}/secumails/inbox`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy') ?? '';
const directive = (policy: string, name: string) => policy.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';

describe('not configured (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('the profile has no widget and analytics off; the policy names no third-party host', async () => {
    expect(await profile(server)).toMatchObject({
      [CONFIG_KEYS.productHelpEndpoint]: null,
      [CONFIG_KEYS.productHelpWorkspaceCode]: null,
      [CONFIG_KEYS.analyticsEnabled]: false,
      [CONFIG_KEYS.analyticsApiKey]: null,
      [CONFIG_KEYS.analyticsUrl]: null,
      [CONFIG_KEYS.customerId]: null,
    });
    const policy = await csp(server);
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
  });

  it('an administrator cannot set the operator keys through the settings API; a user cannot call it at all', async () => {
    const admin = await signInAdmin(server);
    for (const [key, value] of [
      [CONFIG_KEYS.analyticsEnabled, true],
      [CONFIG_KEYS.analyticsUrl, 'https://collector.example.test/2/httpapi'],
      [CONFIG_KEYS.productHelpEndpoint, 'https://help.example.test/widget.js'],
    ] as const) {
      const error = await expectBackendError(await call(server, admin, 'PUT', '/api/2/admin/settings', { [key]: value }), 400, 'ValidationException');
      expect(JSON.stringify(error.metadata)).toContain(key);
    }
    expect((await profile(server))[CONFIG_KEYS.analyticsEnabled]).toBe(false);

    await createUserAsAdmin(server, admin, { email: 'plain@example.test', password: 'Plain-Passw0rd-1' });
    const user = await signIn(server, 'plain@example.test', 'Plain-Passw0rd-1');
    await expectBackendError(await call(server, user, 'PUT', '/api/2/admin/settings', { [CONFIG_KEYS.customerId]: 'x' }), 403);
  });
});

describe('configured by the operator', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: {
        productHelpEndpoint: 'https://help.example.test/widget/loader.js',
        productHelpWorkspaceCode: 'WS-4711',
        analyticsEnabled: true,
        analyticsApiKey: 'browser-key-1',
        analyticsUrl: 'https://collector.example.test:8443/2/httpapi',
        customerId: 'customer-42',
      },
    });
  });
  afterAll(() => server?.close());

  it('serves the values in the public profile', async () => {
    expect(await profile(server)).toMatchObject({
      [CONFIG_KEYS.productHelpEndpoint]: 'https://help.example.test/widget/loader.js',
      [CONFIG_KEYS.productHelpWorkspaceCode]: 'WS-4711',
      [CONFIG_KEYS.analyticsEnabled]: true,
      [CONFIG_KEYS.analyticsApiKey]: 'browser-key-1',
      [CONFIG_KEYS.analyticsUrl]: 'https://collector.example.test:8443/2/httpapi',
      [CONFIG_KEYS.customerId]: 'customer-42',
    });
  });

  it('admits the widget host for scripts and the analytics host for uploads, nothing more', async () => {
    const policy = await csp(server);
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval' https://help.example.test");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self' https://help.example.test https://collector.example.test:8443");
    expect(directive(policy, 'frame-src')).toBe("frame-src 'self' https://help.example.test");
    // The add-in pages load neither.
    const addin = (await fetch(`${server.url}/addin/support.html`)).headers.get('content-security-policy') ?? '';
    expect(addin).not.toContain('help.example.test');
    expect(addin).not.toContain('collector.example.test');
  });
});

describe('the environment', () => {
  it('refuses analytics switched on without key and URL, and URLs that are not http(s)', () => {
    expect(() => loadConfig({ KUVERT_ANALYTICS_ENABLED: 'true' })).toThrow(/KUVERT_ANALYTICS_API_KEY and KUVERT_ANALYTICS_URL/);
    expect(() => loadConfig({ KUVERT_PRODUCT_HELP_ENDPOINT: 'javascript:alert(1)' })).toThrow(/KUVERT_PRODUCT_HELP_ENDPOINT/);
    expect(() => loadConfig({ KUVERT_ANALYTICS_ENABLED: 'maybe' })).toThrow(/KUVERT_ANALYTICS_ENABLED must be true or false/);
    const config = loadConfig({ KUVERT_ANALYTICS_ENABLED: 'yes', KUVERT_ANALYTICS_API_KEY: 'k', KUVERT_ANALYTICS_URL: 'https://api.eu.amplitude.com/2/httpapi' });
    expect(config.analyticsEnabled).toBe(true);
  });
});
