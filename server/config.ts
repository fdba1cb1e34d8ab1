import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * One typed configuration schema (DESIGN §8, after Send's `server/config.js`): each
 * setting has its type, its default and the environment variable it comes from, and
 * the whole configuration is validated strictly once at start.
 */

/** Default request body limit: JSON calls are small; uploads get their own limits later. */
export const DEFAULT_BODY_LIMIT_BYTES = 1_048_576;

/**
 * Upload part size (DESIGN §4): 8 records of 512 KiB = 4 MiB, plus room for the E2E
 * record tags and header (16 bytes a record, < 1 KiB header) so one E2E part fits too.
 * Tests lower it to exercise several parts with small files.
 */
export const DEFAULT_UPLOAD_PART_SIZE = 4 * 1_048_576 + 4096;

const port = z.coerce.number().int().min(0).max(65_535);
const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional());

/** What each setting is called in the environment; `secret` ones are never logged. */
const SETTINGS = {
  port: { env: 'PORT', secret: false },
  host: { env: 'HOST', secret: false },
  dataDir: { env: 'KUVERT_DATA_DIR', secret: false },
  publicUrl: { env: 'KUVERT_PUBLIC_URL', secret: false },
  adminEmail: { env: 'KUVERT_ADMIN_EMAIL', secret: false },
  /** NB: secret, never logged or put into an error message. */
  adminPassword: { env: 'KUVERT_ADMIN_PASSWORD', secret: true },
  /** NB: secret (may hold a password), never logged. */
  databaseUrl: { env: 'DATABASE_URL', secret: true },
  /** NB: secret (may hold a password), never logged. */
  smtpUrl: { env: 'SMTP_URL', secret: true },
  /** NB: secret (may carry an API key), never logged. */
  smsGatewayUrl: { env: 'KUVERT_SMS_GATEWAY_URL', secret: true },
  /** KUVERT_CLAMD (the brief's name); CLAMD_ADDRESS (DESIGN §7a) is read as an alias, see loadConfig. */
  clamdAddress: { env: 'KUVERT_CLAMD', secret: false },
  clamdTimeoutMs: { env: 'KUVERT_CLAMD_TIMEOUT', secret: false },
  scanAttempts: { env: 'KUVERT_SCAN_ATTEMPTS', secret: false },
  scanRetryDelayMs: { env: 'KUVERT_SCAN_RETRY_DELAY', secret: false },
  jobPollIntervalMs: { env: 'KUVERT_JOB_POLL_INTERVAL', secret: false },
  s3Endpoint: { env: 'S3_ENDPOINT', secret: false },
  s3Bucket: { env: 'S3_BUCKET', secret: false },
  s3Region: { env: 'S3_REGION', secret: false },
  s3AccessKeyId: { env: 'S3_ACCESS_KEY_ID', secret: true },
  /** NB: secret, never logged. */
  s3SecretAccessKey: { env: 'S3_SECRET_ACCESS_KEY', secret: true },
  webRoot: { env: 'KUVERT_WEB_ROOT', secret: false },
  bodyLimit: { env: 'KUVERT_BODY_LIMIT', secret: false },
  logLevel: { env: 'KUVERT_LOG_LEVEL', secret: false },
  trustProxy: { env: 'KUVERT_TRUST_PROXY', secret: false },
  loginDelayMs: { env: 'KUVERT_LOGIN_DELAY', secret: false },
  loginDelayMaxMs: { env: 'KUVERT_LOGIN_DELAY_MAX', secret: false },
  oidcIssuer: { env: 'KUVERT_OIDC_ISSUER', secret: false },
  oidcClientId: { env: 'KUVERT_OIDC_CLIENT_ID', secret: false },
  /** NB: secret, never logged. */
  oidcClientSecret: { env: 'KUVERT_OIDC_CLIENT_SECRET', secret: true },
  uploadPartSize: { env: 'KUVERT_UPLOAD_PART_SIZE', secret: false },
  /** NB: secret, never logged: the key that encrypts TOTP secrets at rest (security/secret-box.ts). */
  secretKey: { env: 'KUVERT_SECRET_KEY', secret: true },
} as const;

/** proxy-addr's named ranges, accepted in KUVERT_TRUST_PROXY beside addresses and CIDRs. */
const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_ADDR_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export type ConfigKey = keyof typeof SETTINGS;

export const ConfigSchema = z
  .object({
    port: port.default(8080),
    host: z.string().min(1).default('127.0.0.1'),
    dataDir: z.string().min(1).default('./data'),
    /** Address users reach the server at; links in mails use it. Default http://HOST:PORT. */
    publicUrl: optionalUrl,
    adminEmail: z.string().email().optional(),
    adminPassword: z.string().min(1).optional(),
    databaseUrl: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'DATABASE_URL must be a postgres:// URL',
    }),
    smtpUrl: optionalUrl.refine((v) => v === undefined || /^smtps?:\/\//.test(v), {
      message: 'SMTP_URL must be an smtp:// or smtps:// URL',
    }),
    /** HTTP(S) endpoint of a real SMS gateway (POST JSON `{to, text}`); unset = SMS go to the local mailbox folder. */
    smsGatewayUrl: optionalUrl.refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: 'KUVERT_SMS_GATEWAY_URL must be an http:// or https:// URL',
    }),
    /**
     * clamd for the virus scan (DESIGN §4): `tcp://host:port` or a unix socket path. Unset:
     * no scanning (attachments "not scanned", downloadable at once).
     */
    clamdAddress: z
      .string()
      .trim()
      .min(1)
      .optional()
      .refine((v) => v === undefined || /^tcp:\/\/[^/:]+:\d{1,5}\/?$/.test(v) || (!v.includes('://') && v.startsWith('/')), {
        message: 'KUVERT_CLAMD must be tcp://host:port or an absolute unix socket path',
      }),
    /** One scan (connect, stream, answer) may take this long before it counts as failed (ms). */
    clamdTimeoutMs: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** Scan attempts before a delivery is blocked as "scan failed" (scanner down or timing out). */
    scanAttempts: z.coerce.number().int().min(1).max(20).default(5),
    /** First retry after this (ms), doubling each time: 30 s, 1, 2, 4 min by default (~7.5 min for clamd to come back). */
    scanRetryDelayMs: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
    /** How often each server looks for due jobs in the database queue (ms); new jobs of its own start at once. */
    jobPollIntervalMs: z.coerce.number().int().min(50).max(600_000).default(5_000),
    /** Recorded now, used by the S3 blob store later. */
    s3Endpoint: optionalUrl,
    s3Bucket: z.string().min(1).optional(),
    s3Region: z.string().min(1).optional(),
    s3AccessKeyId: z.string().min(1).optional(),
    s3SecretAccessKey: z.string().min(1).optional(),
    webRoot: z.string().min(1).default('dist/web'),
    bodyLimit: z.coerce.number().int().positive().default(DEFAULT_BODY_LIMIT_BYTES),
    /** Bytes per upload part (KUVERT_UPLOAD_PART_SIZE); at least 1 KiB, at most 64 MiB. */
    uploadPartSize: z.coerce.number().int().min(1024).max(64 * 1_048_576).default(DEFAULT_UPLOAD_PART_SIZE),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * Behind a reverse proxy / load balancer: the proxies' addresses or CIDR ranges
     * (`10.0.0.5, 10.1.0.0/16`; also proxy-addr's `loopback`, `linklocal`, `uniquelocal`). The
     * client address is then taken from X-Forwarded-For, but only from a request that came from
     * one of them (Fastify's `trustProxy`). Unset / `false`: X-Forwarded-For is ignored. `true`
     * is refused: trusting every sender would let any client pick its own address and escape
     * the per-address limits.
     */
    trustProxy: z
      .union([z.literal(false), z.array(z.string()), z.string()])
      .default(false)
      .transform((v, ctx) => {
        if (v === false) return false as const;
        const entries = (Array.isArray(v) ? v : v.split(',')).map((e) => e.trim()).filter(Boolean);
        if (entries.length === 0 || (entries.length === 1 && ['false', '0'].includes(entries[0]!))) return false as const;
        const bad = entries.filter((e) => !isTrustedProxyEntry(e));
        if (bad.length > 0) {
          ctx.addIssue({ code: 'custom', message: `not an IP address, CIDR range or proxy-addr name: ${bad.join(', ')} (list the proxies; "true" is not accepted)` });
          return z.NEVER;
        }
        return entries;
      }),
    /**
     * Sign-in throttling (server/README.md "Sign-in throttling"): the first progressive delay
     * (ms) once an account has LOGIN_DELAY_FREE_FAILURES failed sign-ins; it doubles with each
     * further failure up to `loginDelayMaxMs`. 0 turns the delays off (tests do, to stay fast).
     */
    loginDelayMs: z.coerce.number().int().min(0).max(3_600_000).default(1_000),
    /** The longest delay between two sign-in tries of one account (ms); 5 minutes by default. */
    loginDelayMaxMs: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
    /**
     * Single sign-on by OpenID Connect (DESIGN §9): the provider's issuer URL (discovery at
     * `/.well-known/openid-configuration`) and this server's client registration there. The
     * redirect URI to register is `{KUVERT_PUBLIC_URL}/webui/sso/callback`.
     */
    oidcIssuer: optionalUrl,
    oidcClientId: z.string().min(1).optional(),
    oidcClientSecret: z.string().min(1).optional(),
    /**
     * 32 bytes, base64 or base64url: encrypts TOTP secrets in the database. Unset: the key file
     * `<dataDir>/secret.key` (made 0600 on first start). Several servers need the same key.
     */
    secretKey: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, { message: 'KUVERT_SECRET_KEY must be 32 bytes in base64' })
      .optional(),
  })
  .strict()
  .refine((c) => (c.oidcIssuer === undefined) === (c.oidcClientId === undefined), {
    message: 'KUVERT_OIDC_ISSUER and KUVERT_OIDC_CLIENT_ID go together',
    path: ['oidcClientId'],
  })
  .refine((c) => (c.adminEmail === undefined) === (c.adminPassword === undefined), {
    message: 'KUVERT_ADMIN_EMAIL and KUVERT_ADMIN_PASSWORD go together',
    path: ['adminPassword'],
  })
  .transform((c) => ({ ...c, publicUrl: (c.publicUrl ?? `http://${c.host}:${c.port}`).replace(/\/+$/, '') }));

export type KuvertConfig = z.output<typeof ConfigSchema>;
export type KuvertConfigInput = z.input<typeof ConfigSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the configuration from the environment (empty variables count as unset). */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: KuvertConfigInput = {}): KuvertConfig {
  const raw: Record<string, string> = {};
  for (const [key, { env: name }] of Object.entries(SETTINGS)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  // DESIGN §7a names CLAMD_ADDRESS; KUVERT_CLAMD wins when both are set.
  if (raw.clamdAddress === undefined && env.CLAMD_ADDRESS) raw.clamdAddress = env.CLAMD_ADDRESS;
  return parseConfig({ ...raw, ...overrides });
}

export function parseConfig(input: KuvertConfigInput): KuvertConfig {
  const result = ConfigSchema.safeParse(input);
  if (!result.success) {
    // Name the variables, never their values: some are secrets.
    const problems = result.error.issues.map((issue) => {
      const key = issue.path[0] as ConfigKey | undefined;
      const name = key && key in SETTINGS ? SETTINGS[key].env : String(key ?? 'config');
      return `${name}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

/** The configuration with secrets replaced, for logging at start. */
export function describeConfig(config: KuvertConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const setting = SETTINGS[key as ConfigKey];
    out[key] = setting?.secret && value !== undefined ? '(set)' : value;
  }
  return out;
}

/** Cookies are Secure except when the public address is plain http on this machine. */
export function cookiesNeedSecure(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return !(url.protocol === 'http:' && local);
}
