import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { AUTH_APP_CODE_LENGTH } from '@shared/contract/constants';
import { RATE_LIMIT_BUCKETS, type RateLimiter } from './rate-limiter';

/**
 * TOTP (RFC 6238) as every authenticator app understands it: SHA1, 6 digits, 30 s.
 * One step either side is accepted for clock drift between phone and server.
 */
const TOTP_ALGORITHM = 'SHA1';
const TOTP_PERIOD_SECONDS = 30;
const TOTP_ACCEPTED_DRIFT_STEPS = 1;
/** 160 bits, the RFC 4226 recommended secret length. */
const TOTP_SECRET_BYTES = 20;
export const TOTP_ISSUER = 'Kuvert';

function totpFor(secretBase32: string, label = 'Kuvert', issuer = TOTP_ISSUER): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: TOTP_ALGORITHM,
    digits: AUTH_APP_CODE_LENGTH,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh random secret, base32 encoded (what users type in by hand). */
export function generateTotpSecret(): string {
  return new Secret({ size: TOTP_SECRET_BYTES }).base32;
}

export function totpUri(secretBase32: string, accountLabel: string, issuer = TOTP_ISSUER): string {
  return totpFor(secretBase32, accountLabel, issuer).toString();
}

/** Whitespace is removed first (SPEC §7: the code "whitespace removed"). */
export function verifyTotpCode(secretBase32: string, code: string, timestamp = Date.now()): boolean {
  const token = code.replace(/\s+/g, '');
  if (!/^\d+$/.test(token) || token.length !== AUTH_APP_CODE_LENGTH) return false;
  return totpFor(secretBase32).validate({ token, timestamp, window: TOTP_ACCEPTED_DRIFT_STEPS }) !== null;
}

/**
 * The time step (counter) the code belongs to, or null when it is not valid now. Used to
 * refuse a second use of the same code (see `acceptTotpCodeOnce`).
 */
export function totpStepOf(secretBase32: string, code: string, timestamp = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d+$/.test(token) || token.length !== AUTH_APP_CODE_LENGTH) return null;
  const delta = totpFor(secretBase32).validate({ token, timestamp, window: TOTP_ACCEPTED_DRIFT_STEPS });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Long enough to outlive every step a code is accepted in (3 steps of 30 s). */
const USED_TOTP_MEMORY_MS = (2 * TOTP_ACCEPTED_DRIFT_STEPS + 2) * TOTP_PERIOD_SECONDS * 1000;

/**
 * Verifies a code and remembers its time step for the user, so a code seen by someone
 * looking over the shoulder (or replayed from a log) cannot be used a second time
 * (RFC 6238 §5.2). NB: two requests with the same code at the very same moment may both
 * pass; the window for that is milliseconds, not the 90 s of a plain check.
 */
export async function acceptTotpCodeOnce(
  limiter: RateLimiter,
  userId: number,
  secretBase32: string,
  code: string,
  timestamp = Date.now(),
): Promise<boolean> {
  const step = totpStepOf(secretBase32, code, timestamp);
  if (step === null) return false;
  const subject = `${userId}:${step}`;
  if ((await limiter.count(RATE_LIMIT_BUCKETS.totpUsedStep, subject, USED_TOTP_MEMORY_MS)) > 0) return false;
  await limiter.record(RATE_LIMIT_BUCKETS.totpUsedStep, subject);
  return true;
}

/** The current code (tests, and never for anything a user sees). */
export function currentTotpCode(secretBase32: string, timestamp = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp });
}

export function qrCodeDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}
