import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, cookiesNeedSecure, describeConfig, loadConfig, SETTINGS } from './config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', dataDir: './data', publicUrl: 'http://127.0.0.1:8080', webRoot: 'dist/web', trustProxy: false });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('reads the environment, treating empty variables as unset', () => {
    const config = loadConfig({ PORT: '9000', HOST: '0.0.0.0', KUVERT_PUBLIC_URL: 'https://kuvert.example.org/', SMTP_URL: '', DATABASE_URL: 'postgres://u:p@db/kuvert' });
    expect(config.port).toBe(9000);
    expect(config.publicUrl).toBe('https://kuvert.example.org');
    expect(config.smtpUrl).toBeUndefined();
    expect(config.databaseUrl).toBe('postgres://u:p@db/kuvert');
  });

  it('KUVERT_CLAMD takes tcp://host:port or an absolute socket path (CLAMD_ADDRESS as an alias); unset = no scanning', () => {
    expect(loadConfig({}).clamdAddress).toBeUndefined();
    expect(loadConfig({ KUVERT_CLAMD: 'tcp://clamd.internal:3310' }).clamdAddress).toEqual({ kind: 'tcp', host: 'clamd.internal', port: 3310 });
    expect(loadConfig({ KUVERT_CLAMD: '/run/clamav/clamd.ctl' }).clamdAddress).toEqual({ kind: 'unix', path: '/run/clamav/clamd.ctl' });
    expect(loadConfig({ CLAMD_ADDRESS: '/run/clamav/clamd.ctl' }).clamdAddress).toEqual({ kind: 'unix', path: '/run/clamav/clamd.ctl' });
    expect(loadConfig({ KUVERT_CLAMD: 'tcp://a:1', CLAMD_ADDRESS: '/x' }).clamdAddress).toEqual({ kind: 'tcp', host: 'a', port: 1 });
    expect(() => loadConfig({ KUVERT_CLAMD: 'clamd:3310' })).toThrow(/KUVERT_CLAMD/);
    expect(() => loadConfig({ KUVERT_CLAMD: 'http://clamd:3310' })).toThrow(/KUVERT_CLAMD/);
    expect(() => loadConfig({ KUVERT_CLAMD: 'run/clamd.sock' })).toThrow(/KUVERT_CLAMD/);
    expect(loadConfig({})).toMatchObject({ clamdTimeoutMs: 60_000, scanAttempts: 5, scanRetryDelayMs: 30_000 });
  });

  it('KUVERT_TRUST_PROXY takes a list of proxy addresses / CIDR ranges; "true" and junk are refused', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ KUVERT_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ KUVERT_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8 , loopback' }).trustProxy).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback']);
    expect(() => loadConfig({ KUVERT_TRUST_PROXY: 'true' })).toThrow(/KUVERT_TRUST_PROXY/);
    expect(() => loadConfig({ KUVERT_TRUST_PROXY: '1' })).toThrow(/KUVERT_TRUST_PROXY/);
    expect(() => loadConfig({ KUVERT_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/KUVERT_TRUST_PROXY/);
    expect(() => loadConfig({ KUVERT_TRUST_PROXY: 'proxy.example.org' })).toThrow(/KUVERT_TRUST_PROXY/);
  });

  it('KUVERT_OUTBOUND_ALLOW takes addresses, CIDR ranges and host names; KUVERT_OUTBOUND_ALLOW_HTTP is a strict boolean; both off by default', () => {
    expect(loadConfig({})).toMatchObject({ outboundAllow: [], outboundAllowHttp: false });
    expect(loadConfig({ KUVERT_OUTBOUND_ALLOW: '10.20.0.0/16, Hooks.Intranet.Example ,127.0.0.1,fd00::/8', KUVERT_OUTBOUND_ALLOW_HTTP: 'true' })).toMatchObject({
      outboundAllow: ['10.20.0.0/16', 'hooks.intranet.example', '127.0.0.1', 'fd00::/8'],
      outboundAllowHttp: true,
    });
    expect(() => loadConfig({ KUVERT_OUTBOUND_ALLOW: '*.intranet.example' })).toThrow(/KUVERT_OUTBOUND_ALLOW: not an IP address, CIDR range or host name: \*\.intranet\.example/);
    expect(() => loadConfig({ KUVERT_OUTBOUND_ALLOW: '10.0.0.0/33' })).toThrow(/KUVERT_OUTBOUND_ALLOW/);
    expect(() => loadConfig({ KUVERT_OUTBOUND_ALLOW_HTTP: 'sometimes' })).toThrow(/KUVERT_OUTBOUND_ALLOW_HTTP must be true or false/);
  });

  it('the sign-in delays are configurable (KUVERT_LOGIN_DELAY, KUVERT_LOGIN_DELAY_MAX); 0 turns them off', () => {
    expect(loadConfig({})).toMatchObject({ loginDelayMs: 1_000, loginDelayMaxMs: 300_000 });
    expect(loadConfig({ KUVERT_LOGIN_DELAY: '0', KUVERT_LOGIN_DELAY_MAX: '60000' })).toMatchObject({ loginDelayMs: 0, loginDelayMaxMs: 60_000 });
    expect(() => loadConfig({ KUVERT_LOGIN_DELAY: '-1' })).toThrow(/KUVERT_LOGIN_DELAY/);
  });

  it('KUVERT_PASSWORD_HASHING is standard or minimum; anything else is refused', () => {
    expect(loadConfig({}).passwordHashing).toBe('standard');
    expect(loadConfig({ KUVERT_PASSWORD_HASHING: 'minimum' }).passwordHashing).toBe('minimum');
    expect(() => loadConfig({ KUVERT_PASSWORD_HASHING: 'fast' })).toThrow(/KUVERT_PASSWORD_HASHING/);
  });

  it('refuses invalid values naming the variable, never echoing a secret', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    } catch (err) {
      expect((err as Error).message).toContain('DATABASE_URL');
      expect((err as Error).message).not.toContain('hunter2');
    }
    expect(() => loadConfig({ KUVERT_ADMIN_EMAIL: 'a@b.test' })).toThrow(/KUVERT_ADMIN_PASSWORD/);
  });

  it('hides secrets when describing itself', () => {
    const described = describeConfig(loadConfig({ KUVERT_ADMIN_EMAIL: 'a@b.test', KUVERT_ADMIN_PASSWORD: 'hunter2-Secret', SMTP_URL: 'smtp://u:pw@mail:25' }));
    expect(JSON.stringify(described)).not.toMatch(/hunter2|pw@/);
    expect(described.adminEmail).toBe('a@b.test');
  });

  it('takes an http(s) SMS gateway URL, keeps it secret and refuses other schemes', () => {
    const config = loadConfig({ KUVERT_SMS_GATEWAY_URL: 'https://kuvert:api-key-123@sms.example/send' });
    expect(config.smsGatewayUrl).toBe('https://kuvert:api-key-123@sms.example/send');
    expect(JSON.stringify(describeConfig(config))).not.toMatch(/api-key-123/);
    expect(() => loadConfig({ KUVERT_SMS_GATEWAY_URL: 'ftp://sms.example' })).toThrow(/KUVERT_SMS_GATEWAY_URL/);
  });

  it('marks cookies Secure except for plain http on this machine', () => {
    expect(cookiesNeedSecure('http://127.0.0.1:8080')).toBe(false);
    expect(cookiesNeedSecure('http://localhost:3000')).toBe(false);
    expect(cookiesNeedSecure('https://localhost')).toBe(true);
    expect(cookiesNeedSecure('http://kuvert.example.org')).toBe(true);
  });
});

describe('settings that act', () => {
  it('reads the S3 settings: bucket and endpoint together, key pair together, path style as a strict boolean, secrets hidden', () => {
    const config = loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'kuvert', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'hunter2-key', S3_FORCE_PATH_STYLE: 'true' });
    expect(config).toMatchObject({ s3Endpoint: 'http://127.0.0.1:9000', s3Bucket: 'kuvert', s3Region: 'us-east-1', s3ForcePathStyle: true });
    expect(JSON.stringify(describeConfig(config))).not.toMatch(/hunter2-key|AKIAEXAMPLE/);
    expect(loadConfig({ S3_BUCKET: 'kuvert', S3_FORCE_PATH_STYLE: 'false' }).s3ForcePathStyle).toBe(false);
    expect(loadConfig({}).s3Bucket).toBeUndefined();
    // Empty counts as unset, like every other variable.
    expect(loadConfig({ S3_BUCKET: '' }).s3Bucket).toBeUndefined();
    for (const [env, problem] of [
      [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_BUCKET: S3_ENDPOINT needs S3_BUCKET/],
      [{ S3_BUCKET: 'kuvert', S3_SECRET_ACCESS_KEY: 'hunter2-key' }, /S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
      [{ S3_BUCKET: 'kuvert', S3_FORCE_PATH_STYLE: 'ja' }, /S3_FORCE_PATH_STYLE must be true or false/],
      [{ S3_BUCKET: 'Not_A_Bucket' }, /S3_BUCKET must be a bucket name/],
      [{ S3_BUCKET: 'kuvert', S3_ENDPOINT: 'ftp://store' }, /S3_ENDPOINT must be an http/],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(problem);
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('every setting is read by the server (none accepted and then ignored)', () => {
    const sources = ['server', 'src', 'tests/support']
      .flatMap((dir) => readdirSync(new URL(`../${dir}/`, import.meta.url), { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== join('server', 'config.ts'))
      .map((file) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'))
      .join('\n');
    // `config.key` or destructured: `const { key } = app.config`.
    const read = (key: string) => new RegExp(`config\\.${key}\\b|\\{[^}]*\\b${key}\\b[^}]*\\}\\s*=\\s*(app\\.)?config\\b`).test(sources);
    const unused = Object.keys(SETTINGS).filter((key) => !read(key));
    expect(unused).toEqual([]);
  });
});
