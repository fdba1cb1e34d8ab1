import { z } from 'zod';
import { booleanSetting, checkedEntries, isTrustedProxyEntry, listEntries } from './config-values';
import { isAllowEntry } from './outbound/outbound-guard';
import { parseClamdAddress } from './virus-scan/clamd';

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
const httpUrl = optionalUrl.refine((v) => v === undefined || /^https?:\/\//.test(v), { message: 'must be an http:// or https:// URL' });

/**
 * One setting: the environment variable it comes from (and older names still read), whether it
 * is secret (never logged, never echoed in an error), its schema with the default, and the
 * documentation the README's configuration table shows (a test keeps the two equal).
 */
export interface Setting<S extends z.ZodType = z.ZodType> {
  env: string;
  /** Older names, read when `env` is unset. */
  aliases?: readonly string[];
  secret: boolean;
  schema: S;
  /** The default as the README shows it; '–' = unset. */
  default: string;
  doc: string;
}

/** A licence cap (`KUVERT_LICENCE_*`): a whole number ≥ 0; unset = no cap. */
const licenceCap = z.coerce.number().int().min(0).max(10_000_000).optional();

const setting = <S extends z.ZodType>(definition: Setting<S>): Setting<S> => definition;

/** Every setting, once (DESIGN §8). Add one here and to the README's table; nothing else reads the environment. */
export const SETTINGS = {
  port: setting({ env: 'PORT', secret: false, schema: port.default(8080), default: '8080', doc: 'HTTP port' }),
  host: setting({ env: 'HOST', secret: false, schema: z.string().min(1).default('127.0.0.1'), default: '127.0.0.1', doc: 'address to listen on' }),
  dataDir: setting({ env: 'KUVERT_DATA_DIR', secret: false, schema: z.string().min(1).default('./data'), default: './data', doc: 'SQLite file, blobs, mailbox' }),
  publicUrl: setting({
    env: 'KUVERT_PUBLIC_URL',
    secret: false,
    schema: optionalUrl,
    default: 'http://HOST:PORT',
    doc: 'the address users reach; used in mails, cookies (`Secure` unless localhost) and as the server of `/api/2/openapi.json`',
  }),
  adminEmail: setting({
    env: 'KUVERT_ADMIN_EMAIL',
    secret: false,
    schema: z.string().email().optional(),
    default: '–',
    doc: 'with `KUVERT_ADMIN_PASSWORD`: create the first administrator non-interactively (scripts, CI); without both, the installation wizard at `/webui/wizard` creates it on the first start',
  }),
  adminPassword: setting({ env: 'KUVERT_ADMIN_PASSWORD', secret: true, schema: z.string().min(1).optional(), default: '–', doc: "the first administrator's password (see `KUVERT_ADMIN_EMAIL`); secret" }),
  databaseUrl: setting({
    env: 'DATABASE_URL',
    secret: true,
    schema: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), { message: 'DATABASE_URL must be a postgres:// URL' }),
    default: '–',
    doc: '`postgres://…` switches from SQLite to PostgreSQL; secret',
  }),
  s3Endpoint: setting({
    env: 'S3_ENDPOINT',
    secret: false,
    schema: optionalUrl.refine((v) => v === undefined || /^https?:\/\//.test(v), { message: 'S3_ENDPOINT must be an http:// or https:// URL' }),
    default: '–',
    doc: "an S3-compatible store's address (`https://minio.example:9000`, `https://s3.eu-central-1.amazonaws.com`); needs `S3_BUCKET`. Unset with `S3_BUCKET` set: AWS S3 in `S3_REGION`",
  }),
  s3Bucket: setting({
    env: 'S3_BUCKET',
    secret: false,
    schema: z.string().trim().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET must be a bucket name (3–63 of a-z, 0-9, ".", "-")').optional(),
    default: '–',
    doc: 'set: file bytes go to this bucket instead of `KUVERT_DATA_DIR/blobs` (the bucket must exist; the start checks that it can write, read and delete there and stops with one line naming the setting to fix otherwise). Needed for several servers; see `server/README.md`, "Storage"',
  }),
  s3Region: setting({ env: 'S3_REGION', secret: false, schema: z.string().trim().min(1).default('us-east-1'), default: 'us-east-1', doc: "the bucket's region (signed into every request; most self-hosted stores accept `us-east-1`)" }),
  s3AccessKeyId: setting({
    env: 'S3_ACCESS_KEY_ID',
    secret: true,
    schema: z.string().min(1).optional(),
    default: '–',
    doc: "with `S3_SECRET_ACCESS_KEY`: the key pair for the bucket (rights: read, write, list, delete). Both unset: the AWS SDK's own chain (`AWS_*` variables, the machine's instance role); secret",
  }),
  s3SecretAccessKey: setting({ env: 'S3_SECRET_ACCESS_KEY', secret: true, schema: z.string().min(1).optional(), default: '–', doc: 'the secret of `S3_ACCESS_KEY_ID`; secret' }),
  s3ForcePathStyle: setting({
    env: 'S3_FORCE_PATH_STYLE',
    secret: false,
    schema: booleanSetting('S3_FORCE_PATH_STYLE'),
    default: 'false',
    doc: '`true`: address the bucket in the path (`https://endpoint/bucket/key`), as MinIO, Ceph RGW and most self-hosted stores need; `false`: as a host name (`https://bucket.endpoint/key`, AWS)',
  }),
  smtpUrl: setting({
    env: 'SMTP_URL',
    secret: true,
    schema: optionalUrl.refine((v) => v === undefined || /^smtps?:\/\//.test(v), { message: 'SMTP_URL must be an smtp:// or smtps:// URL' }),
    default: '–',
    doc: '`smtp://user:pass@host:587` sends mail by SMTP instead of the local mailbox (see "The development mailbox" above); secret',
  }),
  smsGatewayUrl: setting({
    env: 'KUVERT_SMS_GATEWAY_URL',
    secret: true,
    schema: optionalUrl.refine((v) => v === undefined || /^https?:\/\//.test(v), { message: 'KUVERT_SMS_GATEWAY_URL must be an http:// or https:// URL' }),
    default: '–',
    doc: 'HTTP(S) endpoint of an SMS gateway (POST JSON `{to, text}`); unset: SMS go to the local mailbox folder (see `server/README.md`); secret',
  }),
  clamdAddress: setting({
    env: 'KUVERT_CLAMD',
    aliases: ['CLAMD_ADDRESS'],
    secret: false,
    schema: z
      .string()
      .trim()
      .min(1)
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        const address = parseClamdAddress(v);
        if (!address) ctx.addIssue({ code: 'custom', message: 'KUVERT_CLAMD must be tcp://host:port or an absolute unix socket path' });
        return address ?? undefined;
      }),
    default: '–',
    doc: 'clamd for the virus scan: `tcp://host:3310` or an absolute unix socket path (e.g. `/run/clamav/clamd.ctl`). Unset: no scanning, attachments are "not scanned" and downloadable at once. Set: level 1/2 attachments are downloadable, and recipients mailed, only after a clean scan; a scanner that is down or times out blocks the delivery ("scan failed"), never passes it (see `server/README.md`, "Virus scan")',
  }),
  clamdTimeoutMs: setting({
    env: 'KUVERT_CLAMD_TIMEOUT',
    secret: false,
    schema: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    default: '60000',
    doc: "one scan's deadline (connect, stream, answer; ms)",
  }),
  scanAttempts: setting({ env: 'KUVERT_SCAN_ATTEMPTS', secret: false, schema: z.coerce.number().int().min(1).max(20).default(5), default: '5', doc: 'scan attempts before "scan failed"' }),
  scanRetryDelayMs: setting({
    env: 'KUVERT_SCAN_RETRY_DELAY',
    secret: false,
    schema: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
    default: '30000',
    doc: 'first scan retry after this (ms), doubling each time',
  }),
  jobPollIntervalMs: setting({
    env: 'KUVERT_JOB_POLL_INTERVAL',
    secret: false,
    schema: z.coerce.number().int().min(50).max(600_000).default(5_000),
    default: '5000',
    doc: 'ms between looks at the database job queue (each server; jobs it queues itself start at once)',
  }),
  webRoot: setting({ env: 'KUVERT_WEB_ROOT', secret: false, schema: z.string().min(1).default('dist/web'), default: 'dist/web', doc: 'the built web client the server serves' }),
  bodyLimit: setting({
    env: 'KUVERT_BODY_LIMIT',
    secret: false,
    schema: z.coerce.number().int().positive().default(DEFAULT_BODY_LIMIT_BYTES),
    default: String(DEFAULT_BODY_LIMIT_BYTES),
    doc: 'largest JSON request body (bytes); upload parts have their own limit',
  }),
  uploadPartSize: setting({
    env: 'KUVERT_UPLOAD_PART_SIZE',
    secret: false,
    schema: z.coerce.number().int().min(1024).max(64 * 1_048_576).default(DEFAULT_UPLOAD_PART_SIZE),
    default: String(DEFAULT_UPLOAD_PART_SIZE),
    doc: 'bytes per upload part (at least 1 KiB, at most 64 MiB)',
  }),
  logLevel: setting({
    env: 'KUVERT_LOG_LEVEL',
    secret: false,
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    default: 'info',
    doc: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  }),
  metricsToken: setting({
    env: 'KUVERT_METRICS_TOKEN',
    secret: true,
    schema: z.string().trim().min(24, 'KUVERT_METRICS_TOKEN must be at least 24 characters (e.g. `openssl rand -hex 24`)').optional(),
    default: '–',
    doc: 'set: Prometheus metrics at `/metrics`, for a scraper that sends `Authorization: Bearer <token>` (at least 24 characters); unset: `/metrics` answers 404. See "Health, readiness and metrics"; secret',
  }),
  shutdownTimeoutMs: setting({
    env: 'KUVERT_SHUTDOWN_TIMEOUT',
    secret: false,
    schema: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
    default: '30000',
    doc: 'on SIGTERM/SIGINT the server stops taking requests, hands running jobs back and lets running requests (uploads, downloads) finish for up to this long (ms) before it exits',
  }),
  trustProxy: setting({
    env: 'KUVERT_TRUST_PROXY',
    secret: false,
    /**
     * The proxies' addresses or CIDR ranges (also proxy-addr's `loopback`, `linklocal`,
     * `uniquelocal`). The client address is then taken from X-Forwarded-For, but only from a
     * request that came from one of them (Fastify's `trustProxy`). `true` is refused: trusting
     * every sender would let any client pick its own address and escape the per-address limits.
     */
    schema: z
      .union([z.literal(false), z.array(z.string()), z.string()])
      .default(false)
      .transform((v, ctx) => {
        if (v === false) return false as const;
        const entries = listEntries(v);
        if (entries.length === 0 || (entries.length === 1 && ['false', '0'].includes(entries[0]!))) return false as const;
        return checkedEntries(entries, isTrustedProxyEntry, 'not an IP address, CIDR range or proxy-addr name', ctx, ' (list the proxies; "true" is not accepted)');
      }),
    default: '–',
    doc: "off; behind a reverse proxy: its addresses or CIDR ranges, comma-separated (`10.0.0.5, 10.1.0.0/16`). The client address is then taken from `X-Forwarded-For`, only on requests from those proxies; unset, `X-Forwarded-For` is ignored. `true` is refused (it would let any client pick its address and escape the per-address limits)",
  }),
  passwordHashing: setting({
    env: 'KUVERT_PASSWORD_HASHING',
    secret: false,
    schema: z.enum(['standard', 'minimum']).default('standard'),
    default: 'standard',
    doc: "Argon2id cost of new password hashes: `standard` (64 MiB, 3 passes) or `minimum` (OWASP's minimum, 19 MiB, 2 passes, ~6× less CPU per sign-in: for small machines). Stored hashes carry their own cost and verify under either",
  }),
  loginDelayMs: setting({
    env: 'KUVERT_LOGIN_DELAY',
    secret: false,
    // The first progressive delay once an account has LOGIN_DELAY_FREE_FAILURES failed sign-ins; doubles per further failure.
    schema: z.coerce.number().int().min(0).max(3_600_000).default(1_000),
    default: '1000',
    doc: 'sign-in throttling: after 5 failed sign-ins an account waits this long (ms) before the next try (429 with `Retry-After`), doubling per further failure up to `KUVERT_LOGIN_DELAY_MAX`; `0` turns the delays off. The captcha after 3 failures, the per-address limit and the notice mail to the owner stay (see `server/README.md`, "Abuse limits")',
  }),
  loginDelayMaxMs: setting({
    env: 'KUVERT_LOGIN_DELAY_MAX',
    secret: false,
    schema: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
    default: '300000',
    doc: 'the longest delay between two sign-in tries of one account (ms)',
  }),
  secretKey: setting({
    env: 'KUVERT_SECRET_KEY',
    secret: true,
    schema: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, { message: 'KUVERT_SECRET_KEY must be 32 bytes in base64' })
      .optional(),
    default: '–',
    doc: '32 bytes in base64: the key that encrypts two-factor (TOTP) secrets in the database. Unset: `KUVERT_DATA_DIR/secret.key`, created (mode 0600) on the first start. Several servers need the same key (a server whose key differs from the one recorded in the database stops at start); losing it means every user registers the authentication app again; secret',
  }),
  oidcIssuer: setting({
    env: 'KUVERT_OIDC_ISSUER',
    secret: false,
    schema: optionalUrl,
    default: '–',
    doc: "single sign-on by OpenID Connect: the provider's issuer URL (discovery at `/.well-known/openid-configuration`); with `KUVERT_OIDC_CLIENT_ID`. Register the redirect URI `{KUVERT_PUBLIC_URL}/webui/sso/callback`; the login page then shows the SSO button. Accounts must exist with the same email address",
  }),
  oidcClientId: setting({ env: 'KUVERT_OIDC_CLIENT_ID', secret: false, schema: z.string().min(1).optional(), default: '–', doc: "this server's client id at the OpenID provider" }),
  oidcClientSecret: setting({ env: 'KUVERT_OIDC_CLIENT_SECRET', secret: true, schema: z.string().min(1).optional(), default: '–', doc: "this server's client secret at the OpenID provider, when it issued one; secret" }),
  licenceSenders: setting({ env: 'KUVERT_LICENCE_SENDERS', secret: false, schema: licenceCap, default: '–', doc: 'licence cap: how many accounts may hold the sender licence (Administration › Licence). Unset: no cap. At the cap, licensing one more (or creating a licensed user) is refused with `LicenseLimitExceededException`; nothing is asked of a licence server' }),
  licenceDataRoomCreators: setting({ env: 'KUVERT_LICENCE_DATAROOM_CREATORS', secret: false, schema: licenceCap, default: '–', doc: 'licence cap: how many accounts may hold `ROLE_SECUROOMS_CREATOR` (create data rooms). Unset: no cap' }),
  licenceActiveForms: setting({ env: 'KUVERT_LICENCE_ACTIVE_FORMS', secret: false, schema: licenceCap, default: '–', doc: 'licence cap: how many web forms may be active at once. Unset: no cap' }),
  // Product help and analytics (issue 17 §4): third-party hosts the browser loads from or sends to, so
  // the operator decides (the Content-Security-Policy admits exactly these origins); off while unset.
  productHelpEndpoint: setting({ env: 'KUVERT_PRODUCT_HELP_ENDPOINT', secret: false, schema: httpUrl, default: '–', doc: "the product-help widget's script URL (`ftapi.productHelp.config.endpoint`); unset: Help opens the bundled help page" }),
  productHelpWorkspaceCode: setting({ env: 'KUVERT_PRODUCT_HELP_WORKSPACE_CODE', secret: false, schema: z.string().trim().min(1).optional(), default: '–', doc: 'the workspace code the widget is initialised with (`ftapi.productHelp.config.workspaceCode`)' }),
  analyticsEnabled: setting({ env: 'KUVERT_ANALYTICS_ENABLED', secret: false, schema: booleanSetting('KUVERT_ANALYTICS_ENABLED'), default: 'false', doc: 'opt-in usage analytics (`ftapi.pip.config.pip.enabled`); needs `KUVERT_ANALYTICS_API_KEY` and `KUVERT_ANALYTICS_URL`. Off: the SDK is not even loaded' }),
  analyticsApiKey: setting({ env: 'KUVERT_ANALYTICS_API_KEY', secret: false, schema: z.string().trim().min(1).optional(), default: '–', doc: "the analytics project's browser key (`ftapi.pip.config.pip.apikey`; every browser sees it, so not a secret)" }),
  analyticsUrl: setting({ env: 'KUVERT_ANALYTICS_URL', secret: false, schema: httpUrl, default: '–', doc: 'where the analytics SDK uploads events (`ftapi.pip.config.pip.url`), e.g. `https://api.eu.amplitude.com/2/httpapi`' }),
  customerId: setting({ env: 'KUVERT_CUSTOMER_ID', secret: false, schema: z.string().trim().min(1).optional(), default: '–', doc: 'this installation\'s customer id (`ftapi.customerId`): the analytics `customer_id` group' }),
  webhookAttempts: setting({ env: 'KUVERT_WEBHOOK_ATTEMPTS', secret: false, schema: z.coerce.number().int().min(1).max(50).default(8), default: '8', doc: "attempts of a Flows webhook (a form's process service) before its hand-off is \"failed\"" }),
  webhookRetryDelayMs: setting({ env: 'KUVERT_WEBHOOK_RETRY_DELAY', secret: false, schema: z.coerce.number().int().min(10).max(3_600_000).default(30_000), default: '30000', doc: 'first webhook retry after this (ms), doubling each time' }),
  // The outbound guard (server/outbound/outbound-guard.ts): what a user-chosen address may reach.
  outboundAllow: setting({
    env: 'KUVERT_OUTBOUND_ALLOW',
    secret: false,
    schema: z.union([z.array(z.string()), z.string()]).default([]).transform((v, ctx) => checkedEntries(listEntries(v).map((e) => e.toLowerCase()), isAllowEntry, 'not an IP address, CIDR range or host name', ctx)),
    default: '–',
    doc: 'internal targets a Flows webhook or a trust-network partner (docs/trust-networks.md) may reach although they are loopback, private, link-local or otherwise internal: IP addresses, CIDR ranges and exact host names, comma-separated (`10.20.0.0/16, hooks.intranet.example`). A host name admits whatever it resolves to; a range never admits a cloud metadata address (only that very address does). Unset: only public addresses (see `server/README.md`, "Outbound requests")',
  }),
  outboundAllowHttp: setting({
    env: 'KUVERT_OUTBOUND_ALLOW_HTTP',
    secret: false,
    schema: booleanSetting('KUVERT_OUTBOUND_ALLOW_HTTP'),
    default: 'false',
    doc: '`true`: a Flows webhook or a trust-network partner may also be a plain `http://` address; `false`: `https://` only (a webhook save answers 400 `httpNotAllowed`, a stored http webhook is refused at its next attempt, a partner\'s test connection ends in error at the step "unreachable" with that reason)',
  }),
} as const;

export type ConfigKey = keyof typeof SETTINGS;

type SettingsShape = { [K in ConfigKey]: (typeof SETTINGS)[K]['schema'] };
const shape = Object.fromEntries(Object.entries(SETTINGS).map(([key, { schema }]) => [key, schema])) as SettingsShape;

export const ConfigSchema = z
  .object(shape)
  .strict()
  .refine((c) => (c.oidcIssuer === undefined) === (c.oidcClientId === undefined), {
    message: 'KUVERT_OIDC_ISSUER and KUVERT_OIDC_CLIENT_ID go together',
    path: ['oidcClientId'],
  })
  .refine((c) => c.s3Endpoint === undefined || c.s3Bucket !== undefined, { message: 'S3_ENDPOINT needs S3_BUCKET (the bucket for the file bytes)', path: ['s3Bucket'] })
  .refine((c) => (c.s3AccessKeyId === undefined) === (c.s3SecretAccessKey === undefined), {
    message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together',
    path: ['s3SecretAccessKey'],
  })
  .refine((c) => !c.analyticsEnabled || (c.analyticsApiKey !== undefined && c.analyticsUrl !== undefined), {
    message: 'KUVERT_ANALYTICS_ENABLED needs KUVERT_ANALYTICS_API_KEY and KUVERT_ANALYTICS_URL',
    path: ['analyticsApiKey'],
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
  for (const [key, definition] of Object.entries(SETTINGS) as [ConfigKey, Setting][]) {
    // The main name wins over an alias (KUVERT_CLAMD over DESIGN §7a's CLAMD_ADDRESS).
    const value = [definition.env, ...(definition.aliases ?? [])].map((name) => env[name]).find((v) => v !== undefined && v !== '');
    if (value !== undefined) raw[key] = value;
  }
  return parseConfig({ ...raw, ...overrides } as KuvertConfigInput);
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
