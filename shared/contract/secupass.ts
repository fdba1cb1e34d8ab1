import { z } from 'zod';

/**
 * The personal passphrase (SecuPass, SPEC §1) on the wire: our design (DESIGN §3).
 *
 * IMPORTANT: the server only ever sees the *wrapped* private-key blob and public keys. The
 * passphrase and private keys never leave the browser (shared/crypto). So the server checks
 * shapes only; it cannot and does not check that the blob opens.
 *
 * | call | who | what |
 * |---|---|---|
 * | GET  /user/secupass | signed in | own state, public keys and wrapped blob |
 * | POST /user/secupass | signed in | first set (201); 409 ConflictException when one is active |
 * | PUT  /user/secupass | signed in | replace the blob (passphrase change, v2 → v3 upgrade): the key pairs stay, so the public keys must equal the stored ones (400 ValidationException otherwise); 404 AccessDescriptorNotFoundException when none is active |
 * | GET  /users/{userUuid}/public-keys | signed in: oneself, or someone sharing a delivery with the user (its sender, or a recipient of one the caller sent or drafted) | the user's public keys (404 NotFoundException for an unknown user and for a stranger alike; `keys` empty when no SecuPass): the live keys, then the user's earlier SIGNING keys marked `retired` (revoked by a reset or a new SecuPass; only for verifying old signatures, never to encrypt to); rate limited per caller (429 `RateLimitExceededException`) |
 * | GET  /secupass/policy | public | the passphrase policy (admins change it through `ftapi.secupass.policy.*` settings) |
 * | POST /admin/users/{userUuid}/secupass/reset | ROLE_ADMIN, ROLE_USER_ADMIN (an administrator's only by ROLE_ADMIN, else 403) | invalidates the blob and every access copy for that user, audit entry, mail to the user (204); 404 NotFoundException for an unknown user |
 */
export const SECUPASS_PATHS = {
  own: '/user/secupass',
  publicKeysOf: (userUuid: string) => `/users/${encodeURIComponent(userUuid)}/public-keys`,
  publicKeysRoute: '/users/:userUuid/public-keys',
  policy: '/secupass/policy',
  adminReset: (userUuid: string) => `/admin/users/${encodeURIComponent(userUuid)}/secupass/reset`,
  adminResetRoute: '/admin/users/:userUuid/secupass/reset',
} as const;

/** base64url without padding (RFC 4648 §5), as shared/crypto writes it. */
const base64Url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/, 'base64url expected');

export const KeyUsageSchema = z.enum(['encryption', 'signing']);

/** One public key of a user: SPKI (base64url) and its id. */
export const PublicKeySchema = z
  .object({
    keyId: z.string().min(1).max(128),
    usage: KeyUsageSchema,
    /** SPKI, base64url. P-256 SPKI is 91 bytes; the cap leaves room, nothing more. */
    publicKey: base64Url(1024),
  })
  .strict()
  .meta({ id: 'PublicKey' });
export type PublicKey = z.infer<typeof PublicKeySchema>;

const WrappedPrivateKeySchema = z
  .object({
    keyId: z.string().min(1).max(128),
    usage: KeyUsageSchema,
    publicKey: base64Url(1024),
    iv: base64Url(64),
    /** AES-256-GCM(PKCS8) ‖ tag, base64url. */
    wrappedKey: base64Url(4096),
  })
  .strict();

/** The wrapped private-key blob of shared/crypto/secupass.ts (v3; v2 blobs are only ever read). */
export const SecuPassBlobSchema = z
  .discriminatedUnion('version', [
    z
      .object({
        version: z.literal(3),
        kdf: z
          .object({
            name: z.literal('argon2id'),
            memoryKiB: z.number().int().positive(),
            iterations: z.number().int().positive(),
            parallelism: z.number().int().positive(),
            salt: base64Url(128),
          })
          .strict(),
        keys: z.array(WrappedPrivateKeySchema).min(1).max(8),
      })
      .strict(),
    z
      .object({
        version: z.literal(2),
        kdf: z.object({ name: z.literal('pbkdf2-sha256'), iterations: z.number().int().positive(), salt: base64Url(128) }).strict(),
        keys: z.array(WrappedPrivateKeySchema).min(1).max(8),
      })
      .strict(),
  ])
  .meta({ id: 'SecuPassBlob' });
export type SecuPassBlobWire = z.infer<typeof SecuPassBlobSchema>;

/** `none`: never set; `active`; `reset`: an administrator reset it and the user must set a new one. */
export const SecuPassStateSchema = z.enum(['none', 'active', 'reset']);
export type SecuPassState = z.infer<typeof SecuPassStateSchema>;

/** GET /user/secupass. */
export const OwnSecuPassResponseSchema = z
  .object({
    state: SecuPassStateSchema,
    /** The blob's scheme version (2 or 3) while active. */
    version: z.number().int().nullable(),
    blob: SecuPassBlobSchema.nullable(),
    publicKeys: z.array(PublicKeySchema),
    /** Epoch ms of the last set/change, null while none. */
    updatedAt: z.number().int().nullable(),
  })
  .meta({ id: 'OwnSecuPassResponse' });
export type OwnSecuPassResponse = z.infer<typeof OwnSecuPassResponseSchema>;

/** POST and PUT /user/secupass: the new blob (v3 only) and the public keys it wraps the private halves of. */
export const SetSecuPassBodySchema = z
  .object({
    blob: SecuPassBlobSchema,
    publicKeys: z.array(PublicKeySchema).min(2).max(8),
  })
  .strict()
  .meta({ id: 'SetSecuPassBody' });
export type SetSecuPassBody = z.infer<typeof SetSecuPassBodySchema>;

/** GET /users/{userUuid}/public-keys. The fingerprint is for display; clients recompute it before trusting a key. */
export const UserPublicKeysResponseSchema = z
  .object({
    userUuid: z.string(),
    email: z.string(),
    /**
     * Live keys first; then retired signing keys (`retired: true`, `retiredAt` epoch ms), newest first,
     * so signatures made before a reset still verify. Retired keys are never encrypted to.
     */
    keys: z.array(PublicKeySchema.extend({ fingerprint: z.string(), retired: z.boolean().optional(), retiredAt: z.number().int().optional() })),
  })
  .meta({ id: 'UserPublicKeysResponse' });
export type UserPublicKeysResponse = z.infer<typeof UserPublicKeysResponseSchema>;

/** GET /secupass/policy (SPEC §5 "meet its policy"). */
export const SecuPassPolicySchema = z
  .object({
    minLength: z.number().int().min(1),
    requireLowercase: z.boolean(),
    requireUppercase: z.boolean(),
    requireDigit: z.boolean(),
    requireSpecial: z.boolean(),
    /** zxcvbn score 0–4 the passphrase must reach (checked in the client; the server never sees it). */
    minStrength: z.number().int().min(0).max(4),
  })
  .meta({ id: 'SecuPassPolicy' });
export type SecuPassPolicy = z.infer<typeof SecuPassPolicySchema>;

/** Which rules of the policy a candidate passphrase breaks (pure; used by web and add-in). */
export function secuPassPolicyProblems(policy: SecuPassPolicy, passphrase: string): Array<'minLength' | 'lowercase' | 'uppercase' | 'digit' | 'special'> {
  const problems: Array<'minLength' | 'lowercase' | 'uppercase' | 'digit' | 'special'> = [];
  if ([...passphrase].length < policy.minLength) problems.push('minLength');
  if (policy.requireLowercase && !/\p{Ll}/u.test(passphrase)) problems.push('lowercase');
  if (policy.requireUppercase && !/\p{Lu}/u.test(passphrase)) problems.push('uppercase');
  if (policy.requireDigit && !/\p{Nd}/u.test(passphrase)) problems.push('digit');
  if (policy.requireSpecial && !/[^\p{L}\p{Nd}]/u.test(passphrase)) problems.push('special');
  return problems;
}

/**
 * Wrapped file-key copies (DESIGN §3 "access copies"), our design. Later features
 * (deliveries, data rooms) write them; an administrator's SecuPass reset invalidates every
 * copy of that user, and reading one then answers 404 AccessDescriptorNotFoundException.
 *
 * | call | who | what |
 * |---|---|---|
 * | GET /user/access-descriptors/{id} | signed in, the recipient only | the wrapped copy; 404 AccessDescriptorNotFoundException when missing, invalidated or someone else's |
 */
export const ACCESS_DESCRIPTOR_PATHS = {
  own: (id: string) => `/user/access-descriptors/${encodeURIComponent(id)}`,
  ownRoute: '/user/access-descriptors/:id',
} as const;

/** shared/crypto/file-key.ts `WrappedFileKey` (HPKE to the recipient's encryption key). */
export const WrappedFileKeySchema = z
  .object({
    version: z.literal(1),
    recipientKeyId: z.string().min(1).max(128),
    enc: base64Url(1024),
    ciphertext: base64Url(1024),
  })
  .strict()
  .meta({ id: 'WrappedFileKey' });
export type WrappedFileKeyWire = z.infer<typeof WrappedFileKeySchema>;

export const AccessDescriptorResourceKindSchema = z.enum(['delivery', 'dataRoom']);

export const AccessDescriptorSchema = z
  .object({
    id: z.string(),
    recipientKeyId: z.string(),
    resourceKind: AccessDescriptorResourceKindSchema,
    resourceId: z.string(),
    fileId: z.string(),
    wrappedKey: WrappedFileKeySchema,
    /** Epoch ms. */
    createdAt: z.number().int(),
  })
  .meta({ id: 'AccessDescriptor' });
export type AccessDescriptor = z.infer<typeof AccessDescriptorSchema>;

export const AccessDescriptorResponseSchema = z.object({ accessDescriptor: AccessDescriptorSchema }).meta({ id: 'AccessDescriptorResponse' });
export type AccessDescriptorResponse = z.infer<typeof AccessDescriptorResponseSchema>;

/**
 * The user's contact pins (DESIGN §9 "Contact pins", issue 12 §4): one list per user, sealed by
 * the client (shared/crypto contact-pins.ts: signed with the own signing key, encrypted to the own
 * encryption key); the server stores it opaque and only enforces the counter.
 *
 * | call | who | what |
 * |---|---|---|
 * | GET /user/contact-pins | signed in, own list only | `{ counter, envelope }`; `counter` 0 and `envelope` null when none; `envelope` null with a counter after a SecuPass reset |
 * | PUT /user/contact-pins | signed in, own list only, active SecuPass | `{ envelope }` whose `counter` is exactly the stored counter + 1 → 200 with the new state; another counter → 409 ConflictException (`metadata.counter`: the stored one; reload, merge, retry); no active SecuPass → 404 AccessDescriptorNotFoundException |
 */
export const CONTACT_PINS_PATHS = { own: '/user/contact-pins' } as const;

export const SealedContactPinsSchema = z
  .object({
    format: z.literal(1),
    counter: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    signerKeyId: z.string().min(1).max(128),
    wrappedKey: WrappedFileKeySchema,
    iv: base64Url(64),
    /** AES-256-GCM ciphertext of the signed list; the cap allows some 10 000 contacts. */
    ciphertext: base64Url(4_000_000),
  })
  .strict()
  .meta({ id: 'SealedContactPins' });
export type SealedContactPinsWire = z.infer<typeof SealedContactPinsSchema>;

export const ContactPinsResponseSchema = z
  .object({ counter: z.number().int().min(0), envelope: SealedContactPinsSchema.nullable() })
  .meta({ id: 'ContactPinsResponse' });
export type ContactPinsResponse = z.infer<typeof ContactPinsResponseSchema>;

export const PutContactPinsBodySchema = z.object({ envelope: SealedContactPinsSchema }).strict().meta({ id: 'PutContactPinsBody' });
export type PutContactPinsBody = z.infer<typeof PutContactPinsBodySchema>;
