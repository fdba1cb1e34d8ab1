import { reduceLanguage } from '@shared/contract/constants';
import { SECUPASS_ENDPOINTS } from '@shared/contract/endpoints/secupass';
import {
  SetSecuPassBodySchema,
  type SecuPassPolicy,
} from '@shared/contract/secupass';
import { SETTING_KEYS } from '@shared/contract/settings';
import { z } from 'zod';
import { badRequest, conflict, HttpError, notFound, rateLimitExceeded } from '../core/http-error';
import { registerEndpoint } from '../core/endpoint-route';
import { manageableUser } from '../core/manageable-user';
import { routePlugin } from '../core/route-plugin';
import { mayLookUpKeysOf } from '../deliveries/e2e-lookups';
import { notifyReleaseNeeded } from '../deliveries/e2e-release';
import { noticeKeyWaiting } from '../rooms/kind/room-notices';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { secuPassBodyProblems } from '../secupass/blob-checks';

/**
 * Key look-ups per caller in 10 minutes: opening a level 3/4 delivery asks once for its sender;
 * an inbox of 200 encrypted deliveries opened one after another stays well inside.
 */
export const PUBLIC_KEYS_LOOKUP_LIMIT = { limit: 200, windowMs: 10 * 60_000 } as const;


const noSecuPass = () => new HttpError(404, 'AccessDescriptorNotFoundException', 'No active SecuPass: set one first');
const noAccessDescriptor = () => new HttpError(404, 'AccessDescriptorNotFoundException', 'No access to this file key (it may have been revoked by a SecuPass reset)');

/** Refuses a body whose blob is not v3, below the KDF floor, or inconsistent with its public keys. */
function assertAcceptableBody(body: z.infer<typeof SetSecuPassBodySchema>): void {
  const problems = secuPassBodyProblems(body);
  if (problems.length > 0) throw badRequest('Invalid SecuPass', { problems });
}

/**
 * SecuPass (SPEC §1, DESIGN §3; contract shared/contract/secupass.ts): the wrapped
 * private-key blob, public keys, policy, administrator reset and wrapped file-key copies.
 * The server never sees a passphrase or a private key in clear.
 */
export const secuPassRoutes = routePlugin('kuvert-secupass-routes', async (app) => {
  registerEndpoint(app, SECUPASS_ENDPOINTS.own, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return app.secupass.getOwn(request.user!.id);
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.create, async (request, reply) => {
    assertAcceptableBody(request.body);
    const userId = request.user!.id;
    if ((await app.secupass.set(userId, request.body)) === 'active') throw conflict('A SecuPass is already active; change it instead');
    // Senders of E2E deliveries waiting for this user learn that a release is needed now.
    await notifyReleaseNeeded(app, request.user!, request.log);
    // Owners of Secure rooms this user belongs to learn that a key grant is awaited.
    await noticeKeyWaiting(app, request.log, request.user!);
    void reply.code(201).header('cache-control', 'no-store');
    return app.secupass.getOwn(userId);
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.update, async (request, reply) => {
    assertAcceptableBody(request.body);
    const userId = request.user!.id;
    const outcome = await app.secupass.replace(userId, request.body);
    if (outcome === 'notActive') throw noSecuPass();
    if (outcome === 'keysDiffer') throw badRequest('The public keys differ from the stored ones: a change keeps the key pairs');
    void reply.header('cache-control', 'no-store');
    return app.secupass.getOwn(userId);
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.publicKeys, async (request) => {
    const caller = request.user!;
    const hit = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.publicKeysUser, String(caller.id), PUBLIC_KEYS_LOOKUP_LIMIT);
    if (!hit.allowed) throw rateLimitExceeded(hit.retryAfterMs);
    const user = await app.users.findByUuid(request.params.userUuid);
    // A trust-network partner's sender, for a recipient of its deliveries here.
    const partnerSender = user ? undefined : await app.deliveryHooks.partners.senderKeys(caller, request.params.userUuid);
    if (partnerSender) return partnerSender;
    // A stranger is answered like an unknown id: user ids are not a directory of addresses.
    if (!user || !(await mayLookUpKeysOf(app, caller, user))) throw notFound('No such user');
    return { userUuid: user.uuid, email: user.email, keys: await app.secupass.publicKeysWithRetiredOf(user.id) };
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.policy, async (): Promise<SecuPassPolicy> => {
    const all = await app.settings.getAll();
    return {
      minLength: Number(all[SETTING_KEYS.secupassMinLength]),
      requireLowercase: all[SETTING_KEYS.secupassRequireLowercase] === true,
      requireUppercase: all[SETTING_KEYS.secupassRequireUppercase] === true,
      requireDigit: all[SETTING_KEYS.secupassRequireDigit] === true,
      requireSpecial: all[SETTING_KEYS.secupassRequireSpecial] === true,
      minStrength: Number(all[SETTING_KEYS.secupassMinStrength]),
    };
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.adminReset, async (request, reply) => {
    const actor = request.user!;
    const subject = await manageableUser(app, actor, request.params.userUuid, "Only administrators may reset an administrator's SecuPass");
    const outcome = await app.secupass.reset({ actorUserId: actor.id, subjectUserId: subject.id, audit: app.auditLog });
    request.log.info({ subject: subject.uuid, ...outcome }, 'SecuPass reset');
    const resetAt = new Date().toISOString().replace('T', ' ').slice(0, 16);
    await app.mailer
      .send({ to: subject.email, template: 'secupassReset', language: reduceLanguage(subject.language), data: { resetAt, link: `${app.config.publicUrl}/` } })
      .catch((error: unknown) => request.log.error({ err: error }, 'SecuPass reset mail failed'));
    return reply.code(204).send(null);
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.accessDescriptor, async (request, reply) => {
    const found = await app.secupass.findAccessDescriptor(request.params.id, request.user!.id);
    if (!found) throw noAccessDescriptor();
    void reply.header('cache-control', 'no-store');
    return { accessDescriptor: found };
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.contactPins, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return app.secupass.contactPinsOf(request.user!.id);
  });

  registerEndpoint(app, SECUPASS_ENDPOINTS.putContactPins, async (request, reply) => {
    const userId = request.user!.id;
    if ((await app.secupass.getOwn(userId)).state !== 'active') throw noSecuPass();
    if ((await app.secupass.putContactPins(userId, request.body.envelope)) === 'conflict') {
      const { counter } = await app.secupass.contactPinsOf(userId);
      throw new HttpError(409, 'ConflictException', 'The contact pin list changed meanwhile: load it again, merge and save with the next counter', { counter });
    }
    void reply.header('cache-control', 'no-store');
    return app.secupass.contactPinsOf(userId);
  });
});
