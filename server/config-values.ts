import { isIP } from 'node:net';
import { z } from 'zod';

/** Value checks the settings in config.ts share (kept apart so that file stays a readable table). */

/** proxy-addr's named ranges, accepted in KUVERT_TRUST_PROXY beside addresses and CIDRs. */
const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_ADDR_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list (or an array) as trimmed, non-empty entries. */
export const listEntries = (v: string | string[]): string[] => (Array.isArray(v) ? v : v.split(',')).map((e) => e.trim()).filter(Boolean);

/** The entries when each one is `valid`; otherwise one issue naming the bad ones. */
export function checkedEntries(entries: string[], valid: (entry: string) => boolean, problem: string, ctx: z.RefinementCtx, hint = ''): string[] {
  const bad = entries.filter((e) => !valid(e));
  if (bad.length === 0) return entries;
  ctx.addIssue({ code: 'custom', message: `${problem}: ${bad.join(', ')}${hint}` });
  return z.NEVER;
}

/** `true`/`false` (also `1`/`0`, `yes`/`no`); anything else is refused rather than read as true. */
export function booleanSetting(name: string) {
  return z
    .union([z.boolean(), z.string()])
    .default(false)
    .transform((v, ctx) => {
      if (typeof v === 'boolean') return v;
      const value = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(value)) return true;
      if (['false', '0', 'no'].includes(value)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });
}
