import { Secret, TOTP } from 'otpauth';

const PERIOD_S = 30;

/**
 * The codes of one TOTP secret as an authenticator app shows them, for a test that needs several
 * valid codes in a row. The server accepts each code once, within one time step of drift; so each
 * `next()` takes a step of that window not handed out yet — now, then the next, then the previous —
 * counted from the clock at that call. Deriving them from offsets of `Date.now()` instead gave the
 * same step twice when a slow run crossed a 30-second boundary between two codes (refused as reused).
 */
export function totpCodes(secret: string): { next(): string } {
  const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_S });
  const handedOut = new Set<number>();
  return {
    next() {
      const now = Math.floor(Date.now() / 1000 / PERIOD_S);
      const step = [now, now + 1, now - 1].find((candidate) => !handedOut.has(candidate));
      if (step === undefined) throw new Error('every step of the drift window is used: a fourth code needs the next time step');
      handedOut.add(step);
      return app.generate({ timestamp: step * PERIOD_S * 1000 });
    },
  };
}
