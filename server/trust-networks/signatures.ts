import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { TRUST_SIGNATURE_WINDOW_SECONDS, type TrustRefusalReason } from '@shared/contract/trust-networks';
import { createSigner, createVerifier, httpbis, type SignatureParameters } from 'http-message-signatures';

/**
 * RFC 9421 HTTP Message Signatures between two trust-network partners (docs/trust-networks.md):
 * Ed25519 (`alg="ed25519"`), key id = SHA-256 of the signer's raw public key (hex), `created` and a
 * `nonce` always present; a request covers `@method`, `@target-uri` and `content-digest` (RFC 9530,
 * SHA-256 of the body), an answer `@status` and `content-digest`.
 */

export const REQUEST_COMPONENTS = ['@method', '@target-uri', 'content-digest'];
export const ANSWER_COMPONENTS = ['@status', 'content-digest'];
const PARAMS = ['created', 'keyid', 'alg', 'nonce'];
const ALG = 'ed25519';

/** A refusal with its reason (the partner endpoint answers it; the test maps it to a step). */
export class TrustRefusal extends Error {
  override readonly name = 'TrustRefusal';
  constructor(
    readonly reason: TrustRefusalReason,
    message: string,
    /** The key id the call was signed with, when it carried one. */
    readonly keyId?: string,
  ) {
    super(message);
  }
}

export interface TrustKeyPair {
  /** Base64 of the 32 raw bytes. */
  publicKey: string;
  fingerprint: string;
  /** PKCS#8 DER, base64 (to be sealed before it is stored). */
  privateKey: string;
}

const rawPublicKey = (publicKey: string) => Buffer.from(publicKey, 'base64');

export const keyFingerprint = (publicKey: string): string => createHash('sha256').update(rawPublicKey(publicKey)).digest('hex');

export function generateTrustKeyPair(): TrustKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(jwk.x!, 'base64url').toString('base64');
  return { publicKey: raw, fingerprint: keyFingerprint(raw), privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') };
}

const publicKeyObject = (publicKey: string): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: rawPublicKey(publicKey).toString('base64url') }, format: 'jwk' });

const privateKeyObject = (privateKey: string): KeyObject => createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' });

/** `Content-Digest` (RFC 9530) of a body: `sha-256=:<base64>:`. */
export const contentDigest = (body: string): string => `sha-256=:${createHash('sha256').update(body, 'utf8').digest('base64')}:`;

/** `Content-Digest` of bytes whose SHA-256 (hex) is known, such as a stored part. */
export const contentDigestOfSha256 = (sha256Hex: string): string => `sha-256=:${Buffer.from(sha256Hex, 'hex').toString('base64')}:`;

/** The SHA-256 (hex) a `Content-Digest` header names, or null when it names none. */
export function sha256OfDigest(digest: string): string | null {
  const match = /^sha-256=:([A-Za-z0-9+/]{43}=):$/.exec(digest.trim());
  return match ? Buffer.from(match[1]!, 'base64').toString('hex') : null;
}

export interface Signing {
  privateKey: string;
  keyId: string;
  /** Tests sign with another time (a stale request). */
  created?: Date;
}

/** The headers of a signed JSON POST to `url` (or, with `part`, a PUT of bytes whose SHA-256 is known: a file part). */
export async function signRequest(url: string, body: string, signing: Signing, part?: { sha256: string }): Promise<{ headers: Record<string, string>; nonce: string }> {
  const nonce = randomBytes(16).toString('base64url');
  const message = part
    ? { method: 'PUT', url, headers: { 'content-type': 'application/octet-stream', 'content-digest': contentDigestOfSha256(part.sha256) } }
    : { method: 'POST', url, headers: { 'content-type': 'application/json', 'content-digest': contentDigest(body) } };
  const signed = await httpbis.signMessage(
    { key: createSigner(privateKeyObject(signing.privateKey), ALG, signing.keyId), fields: REQUEST_COMPONENTS, params: PARAMS, paramValues: { nonce, ...(signing.created ? { created: signing.created } : {}) } },
    message,
  );
  return { headers: flat(signed.headers), nonce };
}

/** The headers of a signed JSON answer with this status and body. */
export async function signAnswer(status: number, body: string, signing: Signing): Promise<Record<string, string>> {
  const message = { status, headers: { 'content-type': 'application/json', 'content-digest': contentDigest(body) } };
  const signed = await httpbis.signMessage(
    { key: createSigner(privateKeyObject(signing.privateKey), ALG, signing.keyId), fields: ANSWER_COMPONENTS, params: PARAMS, paramValues: { nonce: randomBytes(16).toString('base64url') } },
    message,
  );
  return flat(signed.headers);
}

/** Lowercase names (HTTP/2 and Node's `IncomingMessage` spell them so), one value each. */
const flat = (headers: Record<string, string | string[]>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]));

export interface VerifiedSignature {
  keyId: string;
  nonce: string;
  created: Date;
  /** The signed `content-digest` (for a streamed body the caller checks it while the bytes arrive). */
  digest: string;
}

/**
 * Verifies a signed request or answer: `findKey` answers the public key of a key id (or throws
 * the refusal: unknown or revoked key); then the window around `created`, the signature over the
 * covered components, and the digest of `body` against the signed `content-digest`. A `null` body
 * is one the caller streams (a file part): the signed digest is returned for it to check.
 */
export async function verifySigned(
  message: { method: string; url: string; headers: Record<string, string | string[]> } | { status: number; headers: Record<string, string | string[]> },
  body: string | null,
  components: string[],
  findKey: (keyId: string) => Promise<string>,
  now = Date.now(),
): Promise<VerifiedSignature> {
  const headers = Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name.toLowerCase(), value]));
  if (headers.signature === undefined || headers['signature-input'] === undefined) throw new TrustRefusal('missingSignature', 'The call carries no HTTP message signature');
  let seen: SignatureParameters | undefined;
  let result: boolean | null;
  try {
    result = await httpbis.verifyMessage(
      {
        keyLookup: async (params) => {
          const keyId = typeof params.keyid === 'string' ? params.keyid : undefined;
          if (!keyId) throw new TrustRefusal('badSignature', 'The signature names no key id');
          const publicKey = await findKey(keyId);
          const created = params.created;
          if (!(created instanceof Date) || typeof params.nonce !== 'string' || params.nonce === '') throw new TrustRefusal('badSignature', 'The signature lacks its created time or nonce', keyId);
          if (Math.abs(now - created.getTime()) > TRUST_SIGNATURE_WINDOW_SECONDS * 1000) {
            throw new TrustRefusal('clockSkew', `The signature was created more than ${TRUST_SIGNATURE_WINDOW_SECONDS} seconds from this server's clock`, keyId);
          }
          seen = params;
          return { id: keyId, algs: [ALG], verify: createVerifier(publicKeyObject(publicKey), ALG) };
        },
        // The window is checked above (both directions); these only keep the library from refusing first.
        notAfter: new Date(now + TRUST_SIGNATURE_WINDOW_SECONDS * 1000),
        requiredParams: PARAMS,
        requiredFields: components,
      },
      { ...message, headers } as never,
    );
  } catch (error) {
    if (error instanceof TrustRefusal) throw error;
    throw new TrustRefusal('badSignature', 'The signature could not be read or lacks a required part', typeof seen?.keyid === 'string' ? seen.keyid : undefined);
  }
  const keyId = seen?.keyid as string | undefined;
  if (result !== true || !seen || !keyId) throw new TrustRefusal('badSignature', 'The signature does not verify', keyId);
  const digest = headers['content-digest'];
  if (typeof digest !== 'string' || (body === null ? sha256OfDigest(digest) === null : digest !== contentDigest(body))) {
    throw new TrustRefusal('badDigest', 'The body does not match its signed content digest', keyId);
  }
  return { keyId, nonce: seen.nonce as string, created: seen.created as Date, digest };
}
