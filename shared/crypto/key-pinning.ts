// Pinning of contacts' public keys on first use (DESIGN §3): a changed key is reported, never used silently.
import { ContactKeyChangedError } from './errors';

export type PinVerdict =
  | { status: 'first-use'; fingerprint: string }
  | { status: 'match'; fingerprint: string }
  | { status: 'changed'; pinnedFingerprint: string; presentedFingerprint: string };

/** Where pinned fingerprints live (IndexedDB in the browser, a map in tests); keyed by contact id. */
export interface KeyPinStore {
  get(contactId: string): Promise<string | undefined>;
  set(contactId: string, fingerprint: string): Promise<void>;
  /** Stores that keep verifications (the server-stored list): whether this key of the contact was verified in person. */
  isVerified?(contactId: string, fingerprint: string): boolean;
  /** The user compared the fingerprint (or scanned the QR code): this key is verified (and pinned). */
  markVerified?(contactId: string, fingerprint: string): Promise<void>;
}

export class MemoryKeyPinStore implements KeyPinStore {
  private readonly pins = new Map<string, string>();
  async get(contactId: string): Promise<string | undefined> {
    return this.pins.get(contactId);
  }
  async set(contactId: string, fingerprint: string): Promise<void> {
    this.pins.set(contactId, fingerprint);
  }
}

/** Compares a presented key with the pin; pins it when the contact has none yet. Never overwrites a pin. */
export async function checkContactKey(store: KeyPinStore, contactId: string, fingerprint: string): Promise<PinVerdict> {
  const pinned = await store.get(contactId);
  if (pinned === undefined) {
    await store.set(contactId, fingerprint);
    return { status: 'first-use', fingerprint };
  }
  if (pinned === fingerprint) return { status: 'match', fingerprint };
  return { status: 'changed', pinnedFingerprint: pinned, presentedFingerprint: fingerprint };
}

/** Throws ContactKeyChangedError for a changed key; use before wrapping a file key to a contact. */
export function assertKeyUsable(verdict: PinVerdict): void {
  if (verdict.status === 'changed') throw new ContactKeyChangedError('The contact key changed; compare fingerprints and confirm it first');
}

/** Where a contact's earlier (replaced) key is remembered: `<contactId>:previous:<fingerprint>`. */
export const previousPinId = (contactId: string, fingerprint: string): string => `${contactId}:previous:${fingerprint}`;

/**
 * The user compared fingerprints and accepts the new key: only now does the pin move. The key
 * it replaces stays known as a previous key, so signatures made with it (old deliveries) still verify.
 */
export async function confirmChangedKey(store: KeyPinStore, contactId: string, fingerprint: string): Promise<void> {
  const current = await store.get(contactId);
  if (current !== undefined && current !== fingerprint) await store.set(previousPinId(contactId, current), current);
  await store.set(contactId, fingerprint);
}

/**
 * A RETIRED key of a contact (kept by the server only to verify signatures made before a reset):
 * `match` when it is the pinned key or a previous one; first contact → remembered as a previous key
 * (the current pin is left for the live key); otherwise `changed` — a retired key the user never
 * saw is as suspicious as a new key and needs the same comparison (`confirmRetiredKey`).
 */
export async function checkRetiredContactKey(store: KeyPinStore, contactId: string, fingerprint: string): Promise<PinVerdict> {
  const pinned = await store.get(contactId);
  if (pinned === fingerprint || (await store.get(previousPinId(contactId, fingerprint))) === fingerprint) return { status: 'match', fingerprint };
  if (pinned === undefined) {
    await store.set(previousPinId(contactId, fingerprint), fingerprint);
    return { status: 'first-use', fingerprint };
  }
  return { status: 'changed', pinnedFingerprint: pinned, presentedFingerprint: fingerprint };
}

/** The user compared and accepts a retired key for old signatures; the current pin stays. */
export async function confirmRetiredKey(store: KeyPinStore, contactId: string, fingerprint: string): Promise<void> {
  await store.set(previousPinId(contactId, fingerprint), fingerprint);
}
