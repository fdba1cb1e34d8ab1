import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import fp from 'fastify-plugin';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { logSafePath, TOKEN_HEADER_LOG_PATHS } from './core/log-redaction';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ConfigError, type KuvertConfig } from './config';
import { setPasswordHashing } from './users/passwords';
import { createAuditLog } from './audit/audit-log';
import { installAccessControl } from './core/access';
import { registerEndpoint } from './core/endpoint-route';
import { ensurePrivateDirSync } from './db/private-files';
import { installSecurityHeaders } from './core/security-headers';
import { thirdPartyOrigins } from './settings/operator-profile';
import { frameworkErrorHandler, installErrorHandling, sendError } from './core/error-handler';
import { notFound } from './core/http-error';
import { openApiBase, openApiTransform, openApiTransformObject, publishedOpenApi } from './core/openapi';
import { ACCESS_PLUGIN } from './core/route-plugin';
import './services';
import { openDatabase, pingDatabase, type DatabaseHandle } from './db/database';
import { reasonOf, retryWhileDatabaseUnavailable } from './db/availability';
import { withStartLock } from './db/start-lock';
import { migrateToLatest } from './db/migrate';
import { authEscalationRoutes } from './auth-escalation/routes';
import { oidcSsoRoutes } from './auth/oidc-sso';
import { deliveryE2eRoutes } from './deliveries/e2e-routes';
import { deliveryRoutes } from './deliveries/routes';
import { roomRoutes } from './rooms/routes';
import { roomRequestRoutes } from './rooms/requests/requests-routes';
import { requestBeforeSend, requestOnSent } from './rooms/requests/requests-delivery';
import { roomRequestJobs } from './rooms/requests/requests-copy';
import { roomAdminRoutes } from './rooms/admin/admin-routes';
import { roomTrashRetentionJobs } from './rooms/admin/admin-trash';
import { roomRetentionJobs } from './rooms/plain/retention';
import { senderAdminRoutes } from './deliveries/sender-routes';
import { deliveryScanOperations } from './deliveries/scan-operations';
import { virusScanJobs } from './virus-scan/scan-job';
import { roomScanJobs } from './rooms/plain/scan';
import { roomSweepJobs } from './rooms/plain/sweep';
import { periodicJob, startJobRunner, type JobRunner } from './jobs/job-queue';
import { deliverySweepJobs } from './deliveries/cleanup';
import { escalationCleanupJobs } from './auth-escalation/cleanup';
import { devMailboxRoutes } from './mail/dev-mailbox-routes';
import { mailSettingsFrom } from './mail/mail-settings';
import { licenceRoutes } from './licence/licence-routes';
import { themeRoutes } from './theme/theme-routes';
import { loadThemeAsset } from './theme/theme-assets';
import { createMailer, type Mailer } from './mail/mailer';
import { createSmsGateway, type SmsGateway } from './sms/sms-gateway';
import { externalRoutes } from './external/routes';
import { submitBoxRoutes } from './submit-box/routes';
import { submissionMailSubject, submitSessionDelivery } from './submit-box/tickets';
import { formRoutes } from './forms/routes';
import { formEmbedRoutes } from './forms/embed';
import { formUploadChecks } from './forms/hardening';
import { formSessionDelivery } from './forms/submissions';
import { flowRoutes } from './forms/flow-routes';
import { attachBeforeSend, handOffOnSent } from './forms/flow-handoff';
import { flowWebhookJobs } from './forms/flow-webhook';
import { formLayoutRoutes } from './forms/layout-images';
import { submissionCompletionJobs, submissionFormOf, submissionOnSent, submissionSweepJobs } from './forms/submission-completion';
import { adminRoutes } from './routes/admin-routes';
import { authRoutes } from './routes/auth-routes';
import { configRoutes } from './routes/config-routes';
import { legacyRoutes } from './routes/legacy-routes';
import { secuPassRoutes } from './routes/secupass-routes';
import { userRoutes } from './routes/user-routes';
import { sendSpaFallback, webClientRoutes } from './routes/web-client-routes';
import { addinRoutes } from './routes/addin-routes';
import { wizardRoutes } from './routes/wizard-routes';
import { adminUsersRoutes } from './user-admin/admin-users-routes';
import { signupRoutes } from './user-admin/signup-routes';
import { createCaptchaStore } from './security/captcha';
import { createLoginThrottle } from './security/login-throttle';
import { systemClock, type Clock } from './security/clock';
import { createRateLimiter } from './security/rate-limiter';
import { createSecretBox, isInstallationSecretKey, loadServerSecretKey, sealPlaintextTotpSecrets, SECRET_KEY_MISMATCH } from './security/secret-box';
import { mailboxExposed } from './mail/mailbox-exposure';
import { createVerificationCodes } from './security/verification-codes';
import { createSecuPassRepository } from './secupass/secupass-repository';
import { createSessionsStore } from './sessions/sessions-store';
import { createSettingsStore } from './settings/settings-store';
import { openBlobStore } from './storage/open-blob-store';
import { installMetrics } from './operations/metrics';
import { operationsRoutes } from './operations/operations-routes';
import { reportRoutes } from './reports/routes';
import { receiptToPartner, trustReceiptJobs } from './trust-networks/inbound';
import { partnerRelease, partnerReleaseItems, releaseNeededToPartner, trustReleaseJobs } from './trust-networks/release';
import { keepPartnerDescriptors, partnerRecipientKeys, partnerSenderKeys, partnerSenderOf } from './trust-networks/e2e';
import { partnerServedRecipients, partnerServerStates, transferOnSent, trustTransferJobs } from './trust-networks/transfers';
import { trustNetworkRoutes } from './trust-networks/routes';
import { createUsersRepository } from './users/users-repository';

/** Expired sessions are swept this often (each request also checks its own session's expiry). */
const SESSION_PURGE_INTERVAL_MS = 10 * 60_000;
const SESSION_PURGE_JOB = 'session-purge';

export interface BuildAppOptions {
  config: KuvertConfig;
  /** PostgreSQL only: schema for this instance (tests use a fresh one per run). */
  databaseSchema?: string;
  /** PostgreSQL only: connections of this instance's pool (default 10). */
  databasePoolSize?: number;
  /** Fastify logger options; default: JSON logs at the configured level, secrets redacted. */
  logger?: FastifyServerOptions['logger'];
  /** With the default logger: write there instead of stdout (tests read the log a real run writes). */
  logStream?: DestinationStream;
  /** Replaces the mailer built from the configuration (e.g. a test double is NOT wanted; a real SMTP URL is). */
  mailer?: Mailer;
  /** Replaces the SMS gateway built from the configuration. */
  sms?: SmsGateway;
  /** The public links' clock (`app.clock`; default `Date.now`): tests move it past a link's date. */
  clock?: Clock;
}

export type KuvertApp = FastifyInstance;

/** Request parts that carry secrets; they never reach the log. */
const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'req.headers.anticsrfattr', 'res.headers["set-cookie"]', ...TOKEN_HEADER_LOG_PATHS];

/**
 * Builds the ready server: database (migrated), services on the instance, every route
 * with its access declaration, OpenAPI at /api/2/openapi.json. Call `listen()` on it.
 */
export async function buildApp(options: BuildAppOptions): Promise<KuvertApp> {
  const { config } = options;
  // The data folder (database, blobs, mailbox) is the server's alone: 0700, tightened if older.
  ensurePrivateDirSync(config.dataDir);
  // The instance first, for its logger: a database that is not there yet is waited for, in the log.
  const app = createFastify(options);
  let database: DatabaseHandle | undefined;
  try {
    database = await retryWhileDatabaseUnavailable('start', () => openAndPing(options, app.log), app.log);
    const { db } = database;
    await retryWhileDatabaseUnavailable('migrations', () => withStartLock(db, () => migrateToLatest(db, config.databaseUrl ? options.databaseSchema : undefined)), app.log);
    await assemble(app, options, database);
    await app.ready();
    return app;
  } catch (err) {
    await app.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    throw err;
  }
}

/** Opens the database and proves it answers (PostgreSQL connects lazily); closes it again when it does not. */
async function openAndPing(options: BuildAppOptions, log: FastifyBaseLogger): Promise<DatabaseHandle> {
  let lastReport = 0;
  const database = await openDatabase({
    databaseUrl: options.config.databaseUrl,
    dataDir: options.config.dataDir,
    databaseSchema: options.databaseSchema,
    poolSize: options.databasePoolSize,
    // A PostgreSQL restart fails every idle connection at once: one line per 10 s is enough.
    onConnectionError: (err) => {
      if (Date.now() - lastReport < 10_000) return;
      lastReport = Date.now();
      log.warn({ reason: reasonOf(err) }, 'database connection lost; the next query opens a new one');
    },
  });
  try {
    await pingDatabase(database.db);
    return database;
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}

function createFastify(options: BuildAppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? {
      level: options.config.logLevel,
      redact: REDACTED_LOG_PATHS,
      // The query string may carry one-time codes (j_auth_app_code, j_verification_code): log the path only,
      // token-like path segments redacted (core/log-redaction.ts).
      serializers: { req: (req) => ({ method: req.method, url: logSafePath(req.url), remoteAddress: req.ip }) },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: options.config.trustProxy,
    bodyLimit: options.config.bodyLimit,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: malformedHttpHandler,
    return503OnClosing: true,
    // Long enough for slow clients, short enough that idle sockets do not pile up.
    connectionTimeout: 60_000,
    keepAliveTimeout: 10_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

async function assemble(app: FastifyInstance, options: BuildAppOptions, database: DatabaseHandle): Promise<void> {
  const { config } = options;
  const { db } = database;

  installErrorHandling(app);
  installBodyParsers(app);

  // Services (fastify/demo style: on the instance, created once).
  const mailer = options.mailer ?? createMailer({ dataDir: config.dataDir, smtpUrl: config.smtpUrl, settings: mailSettingsFrom(createSettingsStore(db), () => loadThemeAsset(db, 'logo')) });
  const sessions = createSessionsStore(db, Date.now, database.hotRead);
  app.decorate('config', config);
  setPasswordHashing(config.passwordHashing);
  app.decorate('db', db);
  app.decorate('databaseKind', database.kind);
  app.decorate('users', createUsersRepository(db));
  app.decorate('sessions', sessions);
  app.decorate('settings', createSettingsStore(db));
  app.decorate('mailer', mailer);
  app.decorate('sms', options.sms ?? createSmsGateway({ mailboxFolder: mailer.mailboxFolder, gatewayUrl: config.smsGatewayUrl }));
  app.decorate('rateLimiter', createRateLimiter(db));
  const secretKey = await loadServerSecretKey(config.dataDir, config.secretKey);
  if (!(await isInstallationSecretKey(db, secretKey))) throw new ConfigError(SECRET_KEY_MISMATCH);
  const secretBox = createSecretBox(secretKey);
  app.decorate('secretBox', secretBox);
  // TOTP secrets stored before encryption at rest are sealed once (idempotent, every start).
  const sealed = await sealPlaintextTotpSecrets(db, secretBox);
  if (sealed > 0) app.log.info({ sealed }, 'TOTP secrets encrypted at rest');
  app.decorate('captchas', createCaptchaStore(db));
  app.decorate('loginThrottle', createLoginThrottle(db, { delayMs: config.loginDelayMs, maxDelayMs: config.loginDelayMaxMs }));
  app.decorate('verificationCodes', createVerificationCodes(db));
  app.decorate('secupass', createSecuPassRepository(db));
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('auditLog', createAuditLog(db));
  const blobs = await openBlobStore(config);
  app.decorate('blobs', blobs.store);
  // The database job queue; the runner starts once every route (and job kind) is in place.
  const jobs: { runner?: JobRunner } = {};
  app.decorate('jobs', { kick: () => jobs.runner?.kick(), whenIdle: async () => jobs.runner?.whenIdle() });
  app.decorate('deliveryHooks', { beforeSend: [attachBeforeSend, requestBeforeSend], sent: [handOffOnSent, submissionOnSent, requestOnSent, transferOnSent],
    mailSubject: (delivery, language) => submissionMailSubject(app, delivery.id, language),
    fromForm: (delivery) => submissionFormOf(app, delivery.id),
    partners: {
      servedRecipients: (deliveryId) => partnerServedRecipients(db, deliveryId),
      serverStates: (deliveryId) => partnerServerStates(db, deliveryId),
      reportDownload: (delivery, recipient, fileName, at) => receiptToPartner(app, delivery, recipient, fileName, at),
      recipientKeys: (delivery, emails) => partnerRecipientKeys(app, delivery, emails),
      keepDescriptors: (delivery, descriptors) => keepPartnerDescriptors(app, delivery, descriptors),
      sender: (deliveryId) => partnerSenderOf(app, deliveryId),
      senderKeys: (caller, userUuid) => partnerSenderKeys(app, caller, userUuid),
      releaseItems: (sender) => partnerReleaseItems(app, sender),
      release: (sender, delivery, descriptors) => partnerRelease(app, sender, delivery, descriptors),
      releaseNeeded: (delivery, email) => releaseNeededToPartner(app, delivery, email),
    },
  });
  // Shutting down (SIGTERM): the running job goes back to the queue at once, so another server
  // takes it while this one lets its running requests finish.
  app.addHook('preClose', async () => {
    await jobs.runner?.stop();
  });
  app.addHook('onClose', async () => {
    // Before the database closes: a running job is handed back for the next server.
    await jobs.runner?.stop();
    if (!options.mailer) await mailer.close();
    blobs.close();
    await database.close();
  });

  // Before any route: the swagger collector and the access declaration check see them all.
  await app.register(fastifySwagger, {
    openapi: openApiBase(),
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(fastifyCookie);
  // Security headers on every answer (404s and errors too): before the access control, whose
  // refusals are answers as well, and before any route, whose `helmet` option it reads.
  await installSecurityHeaders(app, config.publicUrl, thirdPartyOrigins(config));
  // Not encapsulated: the hooks must see every route registered after it.
  await app.register(
    fp(async (instance: FastifyInstance) => installAccessControl(instance, { resolveSession: (token) => sessions.resolveWithUser(token), // A submit session comes from a submit-box ticket or a form submission.
        submitSessionDelivery: async (sessionId) => (await submitSessionDelivery(instance, sessionId)) ?? formSessionDelivery(instance, sessionId) }), {
      name: ACCESS_PLUGIN,
      dependencies: ['@fastify/cookie'],
    }),
  );

  // Counts every request when metrics are on: hooks before the routes (README, "Health, readiness and metrics").
  const metrics = config.metricsToken === undefined ? null : installMetrics(app);
  await app.register(operationsRoutes({ metrics, migrationSchema: config.databaseUrl ? options.databaseSchema : undefined }));

  registerEndpoint(app, ACCOUNT_ENDPOINTS.openApi, async () => publishedOpenApi(app.swagger(), app.config.publicUrl));

  await app.register(authRoutes);
  await app.register(authEscalationRoutes);
  await app.register(oidcSsoRoutes);
  await app.register(devMailboxRoutes);
  await app.register(userRoutes);
  await app.register(configRoutes);
  await app.register(adminRoutes);
  await app.register(adminUsersRoutes);
  await app.register(signupRoutes);
  await app.register(secuPassRoutes);
  await app.register(deliveryRoutes);
  await app.register(deliveryE2eRoutes);
  await app.register(senderAdminRoutes);
  await app.register(roomRoutes);
  await app.register(roomRequestRoutes);
  await app.register(roomAdminRoutes);
  await app.register(externalRoutes);
  await app.register(submitBoxRoutes);
  await app.register(formRoutes);
  await app.register(flowRoutes);
  await app.register(wizardRoutes);
  await app.register(licenceRoutes);
  await app.register(themeRoutes);
  await app.register(legacyRoutes);
  await app.register(webClientRoutes(config.webRoot));
  await app.register(addinRoutes);
  await app.register(reportRoutes);
  await app.register(formEmbedRoutes);
  await app.register(formUploadChecks);
  await app.register(formLayoutRoutes);
  await app.register(trustNetworkRoutes);

  app.addHook('onReady', async () => {
    if (await mailboxExposed(app)) {
      app.log.warn(
        { publicUrl: config.publicUrl },
        'NO SMTP CONFIGURED: mail goes to the local mailbox folder while the public URL is not this machine. Users will not receive mail (password resets, codes, delivery notices); only administrators can read it at /dev/mailbox. Set SMTP_URL or choose SMTP in Administration › System.',
      );
    }
  });

  // House-keeping runs as periodic jobs: once per period across every server on this database.
  const periodic = { ...deliverySweepJobs(app), ...escalationCleanupJobs(app), ...roomSweepJobs(app), ...roomTrashRetentionJobs(app), ...roomRetentionJobs(app), ...submissionSweepJobs(app), [SESSION_PURGE_JOB]: periodicJob(SESSION_PURGE_INTERVAL_MS, async () => void (await sessions.purgeExpired())) };
  jobs.runner = startJobRunner(db, { ...virusScanJobs(app, deliveryScanOperations, roomScanJobs(app)), ...flowWebhookJobs(app), ...submissionCompletionJobs(app), ...roomRequestJobs(app), ...trustTransferJobs(app), ...trustReceiptJobs(app), ...trustReleaseJobs(app), ...periodic }, { pollIntervalMs: config.jobPollIntervalMs, log: app.log });

  app.setNotFoundHandler(async (request, reply) => {
    if (await sendSpaFallback(app, request, reply)) return reply;
    sendError(request, reply, notFound(`No route for ${request.method} ${logSafePath(request.url)}`));
    return reply;
  });
}

/** Requests Node's HTTP parser cannot read (bad chunking, header overflow) still get the error object. */
function malformedHttpHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({
    uuid: randomUUID(),
    requestUri: '',
    error: 'ValidationException',
    message: status === 431 ? 'Request headers too large' : 'Malformed HTTP request',
    metadata: {},
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Only JSON (and the wizard's HTML form) are accepted; any other content type is 415.
 * An empty JSON body counts as no body: clients send POST /auth with a JSON content
 * type and nothing in it.
 */
function installBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}
