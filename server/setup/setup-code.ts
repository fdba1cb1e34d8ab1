import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The installation wizard's setup code: printed by the start command, asked by the wizard,
 * so that a fresh server reachable from a network cannot be claimed by whoever opens
 * /webui/wizard first (the way Jenkins and Grafana guard their first start). Only its
 * SHA-256 is stored (in the settings table, so that every server of an installation knows
 * it); the code is cleared when the wizard finishes.
 */
/** Where the installation wizard lives (routes/wizard-routes.ts serves it). */
export const WIZARD_PATH = '/webui/wizard';

export const SETUP_CODE_HASH_KEY = 'kuvert.wizard.setupCodeHash';

/** No 0/O, 1/I/L: read off a terminal and typed by hand. 31^12 ≈ 2^59 codes. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newSetupCode(): string {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8].map((at) => chars.slice(at, at + 4).join('')).join('-');
}

/** Case, spaces and dashes do not matter when typing it. */
export function hashSetupCode(code: string): string {
  return createHash('sha256').update(code.toUpperCase().replace(/[\s-]/g, '')).digest('hex');
}

export function setupCodeMatches(given: string, storedHash: unknown): boolean {
  if (typeof storedHash !== 'string' || storedHash.length !== 64) return false;
  return timingSafeEqual(Buffer.from(hashSetupCode(given), 'hex'), Buffer.from(storedHash, 'hex'));
}
