import { z } from 'zod';
import { PublicKeySchema, WrappedFileKeySchema } from './secupass';

/**
 * Trust networks, slice 1 (issue 30; SPEC §1, §2 `trust-networks`, §3 trust connection, §4 states,
 * §5 validation, §6 administrator, §8 create/edit errors; DESIGN §9). Two administrators connect
 * their servers: each creates a connection (the server makes its own Ed25519 key pair), they
 * exchange public keys, each enters the other's, and "test connection" makes a signed round trip
 * (RFC 9421 HTTP Message Signatures) to the partner's `POST /api/2/trust/ping`. docs/trust-networks.md
 * is the protocol a partner implements. Slice 2 (issue 30 §2): level 1/2 deliveries across a
 * connection, pushed by the sender's server, and receipts back; levels 3/4 add signed key look-ups, wrapped keys with the announce and the release across.
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /admin/trust-networks | ROLE_ADMIN | the connections, newest first |
 * | POST /admin/trust-networks | ROLE_ADMIN | a new connection with its own key pair (201) |
 * | GET /admin/trust-networks/{connectionId} | ROLE_ADMIN | one connection |
 * | PUT /admin/trust-networks/{connectionId} | ROLE_ADMIN | partner URL, domains and key (a change makes it `testable` again) |
 * | DELETE /admin/trust-networks/{connectionId} | ROLE_ADMIN | 204; its keys stop being accepted at once |
 * | POST /admin/trust-networks/{connectionId}/test | ROLE_ADMIN | the signed round trip; answers the connection with its result |
 * | POST /trust/ping | a partner server (signature, not a session) | signed ping, signed answer |
 * | POST /trust/deliveries | a partner server (signature) | announces a delivery; answers the parts still missing |
 * | PUT /trust/deliveries/{transferId}/files/{fileId}/parts/{index} | a partner server (signature) | one part, checked against its signed digest |
 * | POST /trust/deliveries/{transferId}/complete | a partner server (signature) | into the recipients' inboxes; they are mailed by this server |
 * | POST /trust/receipts | a partner server (signature) | a recipient's first download of a delivery pushed to the partner |
 * | POST /trust/keys | a partner server (signature) | levels 3/4: the public keys of this server's users at addresses the partner asks about (signed answer) |
 * | POST /trust/deliveries/{transferId}/release | a partner server (signature) | levels 3/4: the sender released the delivery to a recipient here who set a passphrase since |
 * | POST /trust/release-needed | a partner server (signature) | levels 3/4: a recipient there set a passphrase and waits for the sender here to release |
 */

/**
 * SPEC §4: `pending` (partner key missing), `testable` (partner key entered, not tested since the
 * last change), `established` (the last test succeeded), `error` (the last test failed).
 */
export const TRUST_CONNECTION_STATES = ['pending', 'testable', 'established', 'error'] as const;
export type TrustConnectionState = (typeof TRUST_CONNECTION_STATES)[number];

/**
 * The step of a test that failed (docs/trust-networks.md, "Test connection"): the partner could not
 * be reached (`unreachable`, also a refusal by the outbound guard), its TLS certificate was not
 * accepted (`tls`), one side does not know the other's key (`unknownKey`), a signature or digest
 * did not verify (`badSignature`), the clocks are more than the window apart (`clockSkew`), the
 * partner answered something else than a signed ping answer (`answer`).
 */
export const TRUST_TEST_STEPS = ['unreachable', 'tls', 'unknownKey', 'badSignature', 'clockSkew', 'answer'] as const;
export type TrustTestStep = (typeof TRUST_TEST_STEPS)[number];

/** Why the partner endpoint refused a call (`metadata.reason` of its 401 answer; written to the audit log). */
export const TRUST_REFUSAL_REASONS = ['missingSignature', 'unknownKey', 'revokedKey', 'badSignature', 'badDigest', 'clockSkew', 'replayed'] as const;
export type TrustRefusalReason = (typeof TRUST_REFUSAL_REASONS)[number];

/** Error class of a refused partner call (401). */
export const TRUST_SIGNATURE_ERROR = 'TrustSignatureException';

/**
 * A public key as exchanged between administrators: the 32 raw bytes of the Ed25519 key, base64
 * (44 characters with padding; 43 without is accepted). The bounds of SPEC §5 are these lengths.
 */
export const TRUST_KEY_LENGTH = { min: 43, max: 44 } as const;
export const TRUST_PARTNER_URL_MAX = 500;
export const TRUST_DOMAINS_MAX = 100;
/** Seconds a signature's `created` may lie before or after the receiver's clock; also how long a nonce is remembered. */
export const TRUST_SIGNATURE_WINDOW_SECONDS = 300;
/** The partner endpoint, under the partner's public URL. */
export const TRUST_PING_PATH = '/api/2/trust/ping';

export const TRUST_MESSAGES = {
  invalidUrl: 'Invalid URL',
  invalidDomain: 'Invalid domain',
  noDomain: 'You must add at least 1 domain',
  invalidKey: 'Invalid key',
} as const;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const isTrustKey = (value: string): boolean =>
  value.length >= TRUST_KEY_LENGTH.min && value.length <= TRUST_KEY_LENGTH.max && /^[A-Za-z0-9+/]{43}=?$/.test(value) && atob(value.length === 43 ? `${value}=` : value).length === 32;

const PartnerUrlSchema = z
  .string()
  .trim()
  .max(TRUST_PARTNER_URL_MAX, TRUST_MESSAGES.invalidUrl)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
    } catch {
      return false;
    }
  }, TRUST_MESSAGES.invalidUrl);

const DomainsSchema = z
  .array(z.string().trim().toLowerCase().regex(DOMAIN, TRUST_MESSAGES.invalidDomain))
  .min(1, TRUST_MESSAGES.noDomain)
  .max(TRUST_DOMAINS_MAX);

const PartnerKeySchema = z.string().trim().refine(isTrustKey, TRUST_MESSAGES.invalidKey);

export const TrustConnectionInputSchema = z
  .object({
    partnerUrl: PartnerUrlSchema,
    partnerDomains: DomainsSchema,
    /** Empty or left out: not entered yet (the connection stays `pending`). */
    partnerPublicKey: z.union([z.literal(''), PartnerKeySchema]).optional(),
  })
  .strict()
  .meta({ id: 'SaveTrustConnection' });
export type TrustConnectionInput = z.input<typeof TrustConnectionInputSchema>;

/** One spelling, as the server stores it: the URL without a trailing slash (the ping path is appended), each domain once. */
export const normalTrustInput = <T extends { partnerUrl: string; partnerDomains: string[] }>(input: T): T => ({
  ...input,
  partnerUrl: input.partnerUrl.replace(/\/+$/, ''),
  partnerDomains: [...new Set(input.partnerDomains)],
});

export const TrustTestResultSchema = z
  .object({
    ok: z.boolean(),
    /** The step that failed; null when the test succeeded. */
    step: z.enum(TRUST_TEST_STEPS).nullable(),
    /** Why, in words safe to show (no address, nothing internal the partner sent). */
    reason: z.string().nullable(),
    at: z.number(),
  })
  .meta({ id: 'TrustTestResult' });
export type TrustTestResult = z.infer<typeof TrustTestResultSchema>;

export const TrustConnectionSchema = z
  .object({
    connectionId: z.string(),
    partnerUrl: z.string(),
    partnerDomains: z.array(z.string()),
    ownPublicKey: z.string(),
    /** SHA-256 of the raw public key, lowercase hex; also the key id of our signatures. */
    ownKeyFingerprint: z.string(),
    partnerPublicKey: z.string().nullable(),
    partnerKeyFingerprint: z.string().nullable(),
    status: z.enum(TRUST_CONNECTION_STATES),
    lastTest: TrustTestResultSchema.nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .meta({ id: 'TrustConnection' });
export type TrustConnection = z.infer<typeof TrustConnectionSchema>;

export const TrustConnectionListSchema = z.object({ connections: z.array(TrustConnectionSchema) }).meta({ id: 'TrustConnectionList' });
export type TrustConnectionList = z.infer<typeof TrustConnectionListSchema>;

export const TrustConnectionParamsSchema = z.object({ connectionId: z.string().uuid() });

/** The ping's body (signed; the digest covers it). */
export const TrustPingSchema = z
  .object({
    type: z.literal('ping'),
    /** The fingerprint of the key the sender holds for the receiver (lets the receiver tell a wrong entry). */
    to: z.string(),
  })
  .meta({ id: 'TrustPing' });
export type TrustPing = z.infer<typeof TrustPingSchema>;

/** The ping's answer (signed by the receiver's own key of the connection). */
export const TrustPongSchema = z
  .object({
    type: z.literal('pong'),
    /** The nonce of the ping's signature, so the answer belongs to that very request. */
    nonce: z.string(),
  })
  .meta({ id: 'TrustPong' });
export type TrustPong = z.infer<typeof TrustPongSchema>;

export const TRUST_PATHS = {
  list: '/admin/trust-networks',
  one: (connectionId: string) => `/admin/trust-networks/${connectionId}`,
  test: (connectionId: string) => `/admin/trust-networks/${connectionId}/test`,
} as const;

/**
 * Slice 2 (issue 30 §2): deliveries across a connection, levels 1 to 4. The sender's server pushes
 * (docs/trust-networks.md, "Deliveries"): it announces the delivery, uploads the parts the partner
 * is missing, and completes it; the partner stores it as one of its own deliveries and mails its
 * recipients itself. Receipts flow back the same way, signed by the partner.
 */
export const TRUST_DELIVERY_PATHS = {
  announce: '/api/2/trust/deliveries',
  part: (transferId: string, fileId: string, index: number) => `/api/2/trust/deliveries/${transferId}/files/${fileId}/parts/${index}`,
  complete: (transferId: string) => `/api/2/trust/deliveries/${transferId}/complete`,
  receipts: '/api/2/trust/receipts',
  keys: '/api/2/trust/keys',
  release: (transferId: string) => `/api/2/trust/deliveries/${transferId}/release`,
  releaseNeeded: '/api/2/trust/release-needed',
} as const;

/** Levels that cross a connection, as numbers 1–4 (not the SPEC §4 wire values, which a partner need not know). */
export const TRUST_DELIVERY_LEVELS = [1, 2, 3, 4] as const;

const TrustFileSchema = z.object({
  fileId: z.string().uuid(),
  name: z.string().min(1).max(255),
  size: z.number().int().min(0),
  mimeType: z.string().max(255),
  /** At most 64 MiB (the largest KUVERT_UPLOAD_PART_SIZE). */
  partSize: z.number().int().min(1).max(64 * 1_048_576),
  partCount: z.number().int().min(0).max(1_000_000),
  /** SHA-256 (hex) of each part, in order: the partner checks every part it receives against it. */
  parts: z.array(z.string().regex(/^[0-9a-f]{64}$/)),
  /** Levels 3/4: the file is E2E stream ciphertext (`size` is its size); the header's hash and the bytes before part 1's records. */
  encryption: z.object({ headerSha256: z.string().min(1).max(128), leadingBytes: z.number().int().min(0).max(1_048_576) }).optional(),
});

/** One wrapped key of a partner recipient: a file of the delivery (or `manifest`) for one of its keys. */
const TrustDescriptorSchema = z.object({ recipientKeyId: z.string().min(1).max(128), fileId: z.string().max(64), wrappedKey: WrappedFileKeySchema });
export type TrustDescriptor = z.infer<typeof TrustDescriptorSchema>;

/**
 * Levels 3/4 (issue 30 §2): what the recipient's server needs to serve the ciphertext as one of its
 * own E2E deliveries. The delivery keeps the sender server's id (every wrapped key and the signed
 * manifest are bound to it); the sender is named by its user id and public keys there (the reader's
 * browser checks the manifest signature against them and pins them); `readers` are the recipients
 * whose keys the sender's browser wrapped to (the others wait for a release).
 */
const TrustE2eSchema = z.object({
  deliveryId: z.string().uuid(),
  manifest: z.string().min(1).max(2_000_000).regex(/^[A-Za-z0-9_-]+$/),
  senderUserUuid: z.string().min(1).max(64),
  senderKeys: z.array(PublicKeySchema.extend({ fingerprint: z.string(), retired: z.boolean().optional() })).min(1).max(20),
  readers: z.array(z.object({ email: z.string().email().max(254), descriptors: z.array(TrustDescriptorSchema).min(1).max(2_000) })).max(500),
});

export const TrustDeliveryAnnounceSchema = z
  .object({
    type: z.literal('delivery'),
    /** The sender server's id of this transfer (one per delivery and connection); a repeat is the same delivery. */
    transferId: z.string().uuid(),
    sender: z.object({ email: z.string().email().max(254), firstName: z.string().max(100), lastName: z.string().max(100) }),
    recipients: z.array(z.string().email().max(254)).min(1).max(500),
    subject: z.string().max(1000),
    body: z.string().max(100_000),
    securityLevel: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
    language: z.string().max(10),
    /** Epoch ms; null: permanently available. */
    expiresAt: z.number().int().nullable(),
    files: z.array(TrustFileSchema).max(1000),
    /** Levels 3/4 only (and required there). */
    e2e: TrustE2eSchema.optional(),
  })
  .meta({ id: 'TrustDeliveryAnnounce' });
export type TrustDeliveryAnnounce = z.infer<typeof TrustDeliveryAnnounceSchema>;

/** The partner's answer to an announce: which parts it still needs (all of them the first time; fewer on a resumed transfer). */
export const TrustDeliveryStateSchema = z
  .object({
    type: z.literal('deliveryState'),
    transferId: z.string(),
    /** 'receiving' until completed, then 'delivered'. */
    state: z.enum(['receiving', 'delivered']),
    missing: z.array(z.object({ fileId: z.string(), index: z.number().int() })),
  })
  .meta({ id: 'TrustDeliveryState' });
export type TrustDeliveryState = z.infer<typeof TrustDeliveryStateSchema>;

export const TrustCompleteSchema = z.object({ type: z.literal('complete'), transferId: z.string().uuid() }).meta({ id: 'TrustDeliveryComplete' });

export const TrustReceiptSchema = z
  .object({
    type: z.literal('receipt'),
    transferId: z.string().uuid(),
    recipient: z.string().email().max(254),
    /** `downloaded`: the recipient's first complete download on the partner. */
    event: z.literal('downloaded'),
    /** The file whose complete download it was (for the sender's receipt mail). */
    fileName: z.string().max(255),
    at: z.number().int(),
  })
  .meta({ id: 'TrustReceipt' });
export type TrustReceipt = z.infer<typeof TrustReceiptSchema>;

export const TrustAckSchema = z.object({ type: z.literal('ok') }).meta({ id: 'TrustAck' });
export const TrustTransferParamsSchema = z.object({ transferId: z.string().uuid() });
export const TrustPartParamsSchema = TrustTransferParamsSchema.extend({ fileId: z.string().uuid(), index: z.coerce.number().int().min(0).max(1_000_000) });

/** Why the partner refused a delivery (`metadata.reason` of its 403 `TrustDeliveryRefusedException`). */
export const TRUST_DELIVERY_REFUSALS = ['senderOutsideDomains', 'recipientNotServed', 'recipientKeyNotLive', 'levelNotCarried', 'unknownTransfer', 'incomplete'] as const;
export const TRUST_DELIVERY_ERROR = 'TrustDeliveryRefusedException';

/** Most addresses one signed key look-up asks about. */
export const TRUST_KEY_LOOKUP_MAX = 50;

/** `POST /api/2/trust/keys`: a partner asks for the public keys of this server's users (levels 3/4, the sender's browser wraps file keys to them). */
export const TrustKeyLookupSchema = z
  .object({ type: z.literal('keyLookup'), emails: z.array(z.string().email().max(254)).min(1).max(TRUST_KEY_LOOKUP_MAX) })
  .meta({ id: 'TrustKeyLookup' });
export type TrustKeyLookup = z.infer<typeof TrustKeyLookupSchema>;

/** The signed answer: per address its user id, SecuPass state and live public keys (none without an active SecuPass: release later). */
export const TrustKeysSchema = z
  .object({
    type: z.literal('keys'),
    recipients: z.array(
      z.object({
        email: z.string(),
        userUuid: z.string(),
        secupassState: z.enum(['none', 'active', 'reset']),
        keys: z.array(PublicKeySchema.extend({ fingerprint: z.string() })),
      }),
    ),
  })
  .meta({ id: 'TrustKeys' });
export type TrustKeys = z.infer<typeof TrustKeysSchema>;

/** `POST /api/2/trust/deliveries/{transferId}/release`: the sender's copies for one recipient's new key (every file and the manifest). */
export const TrustReleaseSchema = z
  .object({ type: z.literal('release'), transferId: z.string().uuid(), recipient: z.string().email().max(254), descriptors: z.array(TrustDescriptorSchema).min(1).max(2_000) })
  .meta({ id: 'TrustRelease' });
export type TrustRelease = z.infer<typeof TrustReleaseSchema>;

/** `POST /api/2/trust/release-needed`: a recipient of a transfer set a passphrase on the partner and waits for the sender's release. */
export const TrustReleaseNeededSchema = z
  .object({ type: z.literal('releaseNeeded'), transferId: z.string().uuid(), recipient: z.string().email().max(254) })
  .meta({ id: 'TrustReleaseNeeded' });
export type TrustReleaseNeeded = z.infer<typeof TrustReleaseNeededSchema>;
