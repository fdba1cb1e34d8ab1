import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTCHA_TTL_MS } from '@shared/contract/auth-escalation';
import { createCaptchaStore } from './captcha';
import { openTempDatabase } from './temp-database.test-helper';

describe('captcha store (SQLite)', () => {
  let handle: Awaited<ReturnType<typeof openTempDatabase>>;
  let now = 1_700_000_000_000;
  const clock = () => now;
  beforeEach(async () => {
    handle = await openTempDatabase();
  });
  afterEach(() => handle.dispose());

  async function answerOf(id: string): Promise<string> {
    const row = await handle.db.selectFrom('captchas').select('answer').where('id', '=', id).executeTakeFirstOrThrow();
    return row.answer;
  }

  it('issues an SVG with an unguessable id and accepts the answer once, case-insensitively', async () => {
    const store = createCaptchaStore(handle.db, clock);
    const { captchaId, svg } = await store.issue();
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(captchaId.length).toBeGreaterThanOrEqual(22);
    const answer = await answerOf(captchaId);
    expect(await store.verify(captchaId, ` ${answer.toUpperCase()} `)).toBe(true);
    expect(await store.verify(captchaId, answer)).toBe(false);
  });

  it('a wrong answer uses the captcha up', async () => {
    const store = createCaptchaStore(handle.db, clock);
    const { captchaId } = await store.issue();
    const answer = await answerOf(captchaId);
    expect(await store.verify(captchaId, `${answer}x`)).toBe(false);
    expect(await store.verify(captchaId, answer)).toBe(false);
  });

  it('expires after 10 minutes and refuses unknown ids', async () => {
    const store = createCaptchaStore(handle.db, clock);
    const { captchaId } = await store.issue();
    const answer = await answerOf(captchaId);
    now += CAPTCHA_TTL_MS;
    expect(await store.verify(captchaId, answer)).toBe(false);
    expect(await store.verify('nope', 'abcde')).toBe(false);
    expect(await store.verify('', '')).toBe(false);
  });
});
