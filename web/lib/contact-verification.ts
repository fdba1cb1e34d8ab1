/**
 * Contact verification without UI (issue 12 §4): what a fingerprint QR code holds, how a scanned
 * code is judged against the contact being verified, and which badge a contact's key gets.
 */

export type KeyUsage = 'encryption' | 'signing';

/** The text of a verification QR code: the person's own Kuvert shows it; the other person scans it. */
export const verificationQrText = (userUuid: string, usage: KeyUsage, fingerprint: string) => `kuvert-key:1:${userUuid}:${usage}:${fingerprint.toLowerCase()}`;

export interface ScannedKey {
  userUuid: string;
  usage: KeyUsage;
  /** Lower-case hex. */
  fingerprint: string;
}

const QR_TEXT = /^kuvert-key:1:([0-9a-f-]{1,64}):(encryption|signing):([0-9a-f]{16,128})$/;

/** A scanned text as a Kuvert key code, or null when it is something else. */
export function parseVerificationQr(text: string): ScannedKey | null {
  const match = QR_TEXT.exec(text.trim().toLowerCase());
  if (!match) return null;
  return { userUuid: match[1]!, usage: match[2] as KeyUsage, fingerprint: match[3]! };
}

/**
 * The verdict on a scanned code: `match` (this contact, this key), `otherKey` (this contact, but
 * another key or the other usage — a changed or substituted key), `otherPerson` (someone else's
 * code), `notKuvert` (not a key code at all). Only `match` may mark the contact verified.
 */
export type ScanVerdict = 'match' | 'otherKey' | 'otherPerson' | 'notKuvert';

export function judgeScannedCode(text: string, expected: ScannedKey): ScanVerdict {
  const scanned = parseVerificationQr(text);
  if (!scanned) return 'notKuvert';
  if (scanned.userUuid !== expected.userUuid.toLowerCase()) return 'otherPerson';
  if (scanned.usage !== expected.usage || scanned.fingerprint !== expected.fingerprint.replace(/\s+/g, '').toLowerCase()) return 'otherKey';
  return 'match';
}

/**
 * The badge of a contact's key: `verified` (the key is the pinned one and the user verified it),
 * `pinned` (seen and pinned before, not verified), `unseen` (a key this user's pins do not hold:
 * first contact, or a new key since).
 */
export type ContactKeyState = 'verified' | 'pinned' | 'unseen';

export function contactKeyState(pins: { pinned: string | undefined; verified: string | undefined }, fingerprint: string): ContactKeyState {
  if (pins.pinned !== fingerprint) return 'unseen';
  return pins.verified === fingerprint ? 'verified' : 'pinned';
}
