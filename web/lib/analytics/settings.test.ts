import { CONFIG_KEYS } from '@shared/contract/config';
import { describe, expect, it } from 'vitest';
import { amplitudeOptions, analyticsSettings, hashedUserId, helpAccessTags, pageOf, productHelpSettings } from './settings';

const enabled = {
  [CONFIG_KEYS.analyticsEnabled]: true,
  [CONFIG_KEYS.analyticsApiKey]: 'browser-key',
  [CONFIG_KEYS.analyticsUrl]: 'https://collector.example.test/2/httpapi',
  [CONFIG_KEYS.customerId]: 'customer-42',
};

describe('analyticsSettings (SPEC §3 ftapi.pip.config.*)', () => {
  it('is off by default and whenever the flag, the key or an http(s) URL is missing', () => {
    expect(analyticsSettings({})).toBeNull();
    expect(analyticsSettings({ ...enabled, [CONFIG_KEYS.analyticsEnabled]: false })).toBeNull();
    expect(analyticsSettings({ ...enabled, [CONFIG_KEYS.analyticsEnabled]: 'false' })).toBeNull();
    expect(analyticsSettings({ ...enabled, [CONFIG_KEYS.analyticsApiKey]: '  ' })).toBeNull();
    expect(analyticsSettings({ ...enabled, [CONFIG_KEYS.analyticsUrl]: null })).toBeNull();
    expect(analyticsSettings({ ...enabled, [CONFIG_KEYS.analyticsUrl]: 'javascript:alert(1)' })).toBeNull();
  });

  it('maps the keys when enabled (also the string "true"); no customer id means no group', () => {
    expect(analyticsSettings(enabled)).toEqual({ apiKey: 'browser-key', serverUrl: 'https://collector.example.test/2/httpapi', customerId: 'customer-42' });
    expect(analyticsSettings({ ...enabled, [CONFIG_KEYS.analyticsEnabled]: 'true', [CONFIG_KEYS.customerId]: null })?.customerId).toBeNull();
  });
});

describe('productHelpSettings (SPEC §3 ftapi.productHelp.config.*)', () => {
  it('needs an http(s) endpoint; the workspace code comes along', () => {
    expect(productHelpSettings({})).toBeNull();
    expect(productHelpSettings({ [CONFIG_KEYS.productHelpEndpoint]: 'data:text/javascript,alert(1)' })).toBeNull();
    expect(productHelpSettings({ [CONFIG_KEYS.productHelpEndpoint]: ' https://help.example.test/w.js ', [CONFIG_KEYS.productHelpWorkspaceCode]: 'WS-1' })).toEqual({
      endpoint: 'https://help.example.test/w.js',
      workspaceCode: 'WS-1',
    });
  });
});

describe('helpAccessTags (SPEC §6)', () => {
  it('maps the seven roles to their tags in a fixed order and ignores the others', () => {
    expect(helpAccessTags(['ROLE_ADMIN', 'ROLE_SENDER', 'ROLE_OUTLOOK', 'config.group.reporting'])).toEqual(['outlook', 'reporting', 'sys-admin']);
    expect(
      helpAccessTags(['ROLE_USER_ADMIN', 'ROLE_SECUROOMS_USER', 'ROLE_SUBMITBOX_OWNER', 'ROLE_SECUFORMS', 'ROLE_ADMIN', 'ROLE_OUTLOOK', 'config.group.reporting']),
    ).toEqual(['secuforms', 'submitbox', 'securooms', 'outlook', 'reporting', 'user-admin', 'sys-admin']);
    expect(helpAccessTags(['ROLE_SENDER', 'ROLE_RECEIVER'])).toEqual([]);
  });
});

describe('hashedUserId', () => {
  it('is the SHA-256 hex of the uuid (known answer), different for another uuid', async () => {
    expect(await hashedUserId('3f2b8c1e-7d4a-4b6e-9a01-5c8d2e7f9b10')).toBe('8cb2c7e84d01bd32d962622d931e7b1d12289d25d133a59f055764c7cf911b87');
    expect(await hashedUserId('3f2b8c1e-7d4a-4b6e-9a01-5c8d2e7f9b11')).not.toBe('8cb2c7e84d01bd32d962622d931e7b1d12289d25d133a59f055764c7cf911b87');
  });
});

describe('amplitudeOptions (SPEC §9 constants)', () => {
  it('EU zone, the configured URL, the figures of SPEC §9, no automatic capture, no other host', () => {
    const options = amplitudeOptions(analyticsSettings(enabled)!, 'kuvert.example.test');
    expect(options).toMatchObject({
      serverZone: 'EU',
      serverUrl: 'https://collector.example.test/2/httpapi',
      flushIntervalMillis: 1000,
      flushMaxRetries: 5,
      flushQueueSize: 30,
      sessionTimeout: 30 * 60 * 1000,
      cookieOptions: { domain: 'kuvert.example.test', expiration: 365, sameSite: 'Lax' },
      plan: { version: '133' },
      autocapture: false,
      fetchRemoteConfig: false,
      enableDiagnostics: false,
      trackingOptions: { ipAddress: false },
    });
  });
});

describe('pageOf', () => {
  it('keeps the path and replaces ids', () => {
    expect(pageOf('/secumails/inbox/3f2b8c1e-7d4a-4b6e-9a01-5c8d2e7f9b10')).toBe('/secumails/inbox/:id');
    expect(pageOf('/help')).toBe('/help');
  });
});
