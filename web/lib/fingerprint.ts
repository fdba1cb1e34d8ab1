/**
 * A fingerprint as groups of 4 hex digits for reading aloud and comparing: accepts the crypto API's
 * `fingerprintDisplay` ("AB12 CD34 …") or plain hex; anything else gives no groups.
 */
export function fingerprintGroups(fingerprint: string): string[] {
  const hex = fingerprint.replace(/\s+/g, '').toUpperCase();
  if (!hex || !/^[0-9A-F]+$/.test(hex) || hex.length % 4 !== 0) return [];
  return hex.match(/.{4}/g) ?? [];
}

/** A fingerprint (hex or already grouped) as the groups joined by blanks, for display. */
export const displayFingerprint = (fingerprint: string): string => {
  const groups = fingerprintGroups(fingerprint);
  return groups.length > 0 ? groups.join(' ') : fingerprint;
};
