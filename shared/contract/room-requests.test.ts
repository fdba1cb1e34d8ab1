import { describe, expect, it } from 'vitest';
import { ROOM_REQUEST_WEB_LINKS, safeBackPath } from './room-requests';

describe('safeBackPath (the `back` query value)', () => {
  it('keeps a same-origin relative path starting with one slash', () => {
    expect(safeBackPath('/secumails/outbox')).toBe('/secumails/outbox');
    expect(safeBackPath('/datarooms/r1/folders/f1?sort=name#x')).toBe('/datarooms/r1/folders/f1?sort=name#x');
  });

  it.each([null, undefined, '', 'secumails/outbox', 'https://evil.example/', '//evil.example/x', '/\\evil.example', '/a\\b', '/a\nb', 'javascript:alert(1)', `/${'a'.repeat(2000)}`])(
    'ignores %j',
    (value) => {
      expect(safeBackPath(value)).toBeNull();
    },
  );
});

describe('the mailed links', () => {
  it('carry the token in the fragment, encoded (never sent to a server); `back` stays in the query', () => {
    expect(ROOM_REQUEST_WEB_LINKS.send('ab_-9')).toBe('/secumails/send#dar=ab_-9');
    expect(ROOM_REQUEST_WEB_LINKS.send('ab_-9', '/secumails/outbox')).toBe('/secumails/send?back=%2Fsecumails%2Foutbox#dar=ab_-9');
    expect(ROOM_REQUEST_WEB_LINKS.signup('a+b')).toBe('/auth/delivery-signup-dar#token=a%2Bb');
  });
});
