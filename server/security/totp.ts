import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { AUTH_APP_CODE_LENGTH } from '@shared/contract/constants';

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

/** The current code (tests, and never for anything a user sees). */
export function currentTotpCode(secretBase32: string, timestamp = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp });
}

export function qrCodeDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}
