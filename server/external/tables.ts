/** The external path's table, merged into the core's `Database` type (times epoch ms). */
export interface DeliverySignupsTable {
  /** delivery_recipients.id (the share). */
  recipient_id: number;
  /** E.164, given by the sender; null = none. */
  phone_number: string | null;
  /** SHA-256 hex of the signup link token; null once used or never issued. */
  token_hash: string | null;
  /** SHA-256 hex of `salt:code` of the open SMS code. */
  code_hash: string | null;
  code_salt: string | null;
  code_attempts: number;
  code_sent_at: number | null;
  code_expires_at: number | null;
  updated_at: number;
}

export interface ExternalTables {
  delivery_signups: DeliverySignupsTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends ExternalTables {}
}
