// Signed manifests (DESIGN §3): for levels 3/4 and E2E rooms, file names, sizes, the file list and the
// level-4 message are signed by the sender's ECDSA P-256 key over a canonical JSON form.
import { fromBase64Url, toBase64Url, utf8Encode } from './bytes';
import { ManifestFormatError, ManifestSignatureError } from './errors';
import { subtle } from './subtle';

export type CanonicalJson = null | boolean | number | string | CanonicalJson[] | { [key: string]: CanonicalJson };

export interface ManifestFile {
  fileId: string;
  name: string;
  /** Plaintext size in bytes (the decoder uses it to name truncation exactly). */
  size: number;
  mimeType?: string;
  /** base64url SHA-256 of the file's stream header (binds salt and nonce prefix). */
  headerSha256: string;
}

interface ManifestBody {
  /** Delivery or data-room id. */
  contextId: string;
  senderUserId: string;
  /** Key id of the signing key. */
  signerKeyId: string;
  /** ISO 8601. */
  createdAt: string;
  files: ManifestFile[];
  /** Level 4 only: the message, end-to-end encrypted elsewhere but signed here. */
  message?: { subject: string; body: string };
}

/** The first format: the sender is named by user id only. Still read (deliveries made before v2), never written. */
export interface ManifestV1 extends ManifestBody {
  version: 1;
}

/** The current format: the sender's identity (user id AND address) is signed, so readers show the signer, not the server's claim. */
export interface ManifestV2 extends ManifestBody {
  version: 2;
  /** The sender's e-mail address, lower case (as the server stores user addresses). */
  senderEmail: string;
}

export type Manifest = ManifestV1 | ManifestV2;

/** The version writers produce. */
export const MANIFEST_VERSION = 2;
/** The versions readers accept. */
export const READABLE_MANIFEST_VERSIONS: readonly number[] = [1, 2];

export interface SignedManifest {
  manifest: Manifest;
  /** ECDSA P-256/SHA-256 signature, IEEE P1363 (r ‖ s, 64 bytes) as WebCrypto emits it, base64url. */
  signature: string;
}

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, strings as JSON.stringify
 * writes them, numbers only as safe integers; `undefined` members are left out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new ManifestFormatError('Only safe integers are allowed in a manifest');
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  throw new ManifestFormatError(`A manifest cannot hold a ${typeof value}`);
}

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export async function signManifest(options: { manifest: Manifest; signingKey: CryptoKey }): Promise<SignedManifest> {
  const bytes = utf8Encode(canonicalJson(options.manifest));
  const signature = new Uint8Array(await subtle().sign(ECDSA_SHA256, options.signingKey, bytes as Uint8Array<ArrayBuffer>));
  return { manifest: options.manifest, signature: toBase64Url(signature) };
}

/** Returns the manifest when the signature verifies with the sender's key; throws ManifestSignatureError otherwise. */
export async function verifyManifest(options: { signed: SignedManifest; verifyingKey: CryptoKey }): Promise<Manifest> {
  assertManifestShape(options.signed);
  let valid = false;
  try {
    const bytes = utf8Encode(canonicalJson(options.signed.manifest));
    valid = await subtle().verify(ECDSA_SHA256, options.verifyingKey, fromBase64Url(options.signed.signature) as Uint8Array<ArrayBuffer>, bytes as Uint8Array<ArrayBuffer>);
  } catch (_error) {
    valid = false;
  }
  if (!valid) throw new ManifestSignatureError('The manifest signature does not verify');
  return options.signed.manifest;
}

/** A signed manifest of a version we read, with the members each version needs; ManifestFormatError otherwise. */
function assertManifestShape(signed: SignedManifest): void {
  const manifest = (signed as { manifest?: unknown } | null)?.manifest as Partial<ManifestV2> | undefined;
  if (typeof manifest !== 'object' || manifest === null) throw new ManifestFormatError('Not a signed manifest');
  if (!READABLE_MANIFEST_VERSIONS.includes(manifest.version as number)) throw new ManifestFormatError(`Manifest version ${String(manifest.version)} is not readable`);
  if (typeof manifest.contextId !== 'string' || typeof manifest.senderUserId !== 'string' || typeof manifest.signerKeyId !== 'string' || !Array.isArray(manifest.files)) {
    throw new ManifestFormatError('The manifest lacks its context, sender, signer or file list');
  }
  if (manifest.version === 2 && typeof manifest.senderEmail !== 'string') throw new ManifestFormatError('A version 2 manifest names its sender address');
  if (typeof signed.signature !== 'string') throw new ManifestFormatError('The manifest has no signature');
}
