import { describe, expect, it } from 'vitest';
import { deliveryLinksIn } from './delivery-links';

describe('deliveryLinksIn', () => {
  it("finds this server's delivery links once each, and nothing else", () => {
    const origin = 'https://kuvert.example.org';
    const text = [
      `New delivery: ${origin}/secumails/inbox/abc-1.`,
      `Again (${origin}/secumails/inbox/abc-1)`,
      `<${origin}/secumails/en/download?deliveryUuid=d&shareUuid=s#token=t>`,
      'https://kuvert.example.org.evil.test/secumails/inbox/x',
      'https://other.test/secumails/inbox/y',
    ].join('\n');
    expect(deliveryLinksIn(text, origin)).toEqual([
      `${origin}/secumails/inbox/abc-1`,
      `${origin}/secumails/en/download?deliveryUuid=d&shareUuid=s#token=t`,
    ]);
  });
});
