import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import svgCaptcha from 'svg-captcha';
import { CAPTCHA_TTL_MS } from '@shared/contract/auth-escalation';
import type { Database } from '../db/schema';
import { systemClock, type Clock } from './clock';
import './tables';

/**
 * Self-hosted captcha (DESIGN §9: no third-party service). The answer is kept in the
 * database, so any server instance can check it; each captcha is answered once.
 */

/** Characters people confuse in a distorted image are left out. */
const CAPTCHA_OPTIONS = { size: 5, noise: 2, ignoreChars: '0oO1iIlL', color: false, background: '#ffffff' } as const;

export interface IssuedCaptcha {
  captchaId: string;
  svg: string;
}

export interface CaptchaStore {
  issue(): Promise<IssuedCaptcha>;
  /** Consumes the captcha whatever the answer: a wrong guess needs a new captcha. */
  verify(captchaId: string, answer: string): Promise<boolean>;
  /** Deletes expired captchas. */
  prune(): Promise<void>;
}

export function createCaptchaStore(db: Kysely<Database>, clock: Clock = systemClock): CaptchaStore {
  return {
    async issue() {
      const { data, text } = svgCaptcha.create(CAPTCHA_OPTIONS);
      const captchaId = randomBytes(16).toString('base64url');
      await db
        .insertInto('captchas')
        .values({ id: captchaId, answer: text.toLowerCase(), expires_at: clock() + CAPTCHA_TTL_MS })
        .execute();
      return { captchaId, svg: data };
    },
    async verify(captchaId, answer) {
      if (!captchaId || !answer) return false;
      const row = await db.deleteFrom('captchas').where('id', '=', captchaId).returning(['answer', 'expires_at']).executeTakeFirst();
      if (!row || Number(row.expires_at) <= clock()) return false;
      return row.answer === answer.trim().toLowerCase();
    },
    async prune() {
      await db.deleteFrom('captchas').where('expires_at', '<=', clock()).execute();
    },
  };
}
