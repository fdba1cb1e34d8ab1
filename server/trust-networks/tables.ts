import type { Generated } from 'kysely';

/** Tables of trust networks (migration 0059), merged into the core's `Database` type. Times epoch ms. */
export interface TrustConnectionsTable {
  id: Generated<number>;
  uuid: string;
  partner_url: string;
  /** JSON list of lowercase domains. */
  partner_domains: string;
  /** Base64 of the 32 raw bytes of the Ed25519 public key. */
  own_public_key: string;
  /** SHA-256 of the raw public key, lowercase hex: the key id of our signatures. */
  own_key_fingerprint: string;
  /** PKCS#8 DER, base64, sealed by the secret box (`trust_connections.private_key`, bound to `id`). */
  own_private_key: string | null;
  partner_public_key: string | null;
  partner_key_fingerprint: string | null;
  /** TrustConnectionState (shared/contract/trust-networks.ts). */
  status: string;
  last_test_step: string | null;
  last_test_reason: string | null;
  last_tested_at: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface TrustNoncesTable {
  key_fingerprint: string;
  nonce: string;
  expires_at: number;
}

/** Migration 0061, on the sender's server: one per delivery and connection (transfers.ts). */
export interface TrustTransfersTable {
  id: Generated<number>;
  uuid: string;
  delivery_id: number;
  connection_id: number;
  /** JSON list of the lower-cased recipient addresses the transfer carries. */
  recipients: string;
  /** 'pending' | 'delivered' | 'failed' | 'withdrawn'. */
  state: string;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

/** Migration 0061, on the recipient's server: a delivery that came through a connection (inbound.ts). */
export interface TrustInboundTable {
  id: Generated<number>;
  connection_id: number;
  transfer_uuid: string;
  delivery_id: number;
  created_at: number;
  /** Migration 0068, levels 3/4: the sender's user id on the sender's server (null for levels 1/2). */
  sender_user_uuid: Generated<string | null>;
  /** JSON list of the sender's public keys as its server announced them (levels 3/4). */
  sender_keys: Generated<string | null>;
}

/** Migration 0068, on the sender's server: a partner recipient of a level 3/4 draft, its key from the partner's signed look-up (e2e.ts). */
export interface TrustPartnerReadersTable {
  id: Generated<number>;
  delivery_id: number;
  email: string;
  user_uuid: string;
  key_id: string | null;
  /** JSON list of { recipientKeyId, fileId, wrappedKey }; null until the sender's browser wrapped them. */
  descriptors: string | null;
  partner_url: string;
  created_at: number;
}

export interface TrustTables {
  trust_partner_readers: TrustPartnerReadersTable;
  trust_connections: TrustConnectionsTable;
  trust_nonces: TrustNoncesTable;
  trust_transfers: TrustTransfersTable;
  trust_inbound: TrustInboundTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends TrustTables {}
}
