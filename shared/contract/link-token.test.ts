import { describe, expect, it } from 'vitest';
import { fragmentValue, ROOM_LINK_TOKEN_HEADER, tokenHeadersSchema } from './link-token';
import { roomLinkPagePath } from './room-links';

describe('one-time tokens in headers and fragments (issue 28)', () => {
  const token = 'Ab_-'.repeat(10) + 'xyz';

  it('the headers schema takes the token and keeps every other header', () => {
    const parsed = tokenHeadersSchema(ROOM_LINK_TOKEN_HEADER).parse({ [ROOM_LINK_TOKEN_HEADER]: token, cookie: 'a=b', accept: '*/*' });
    expect(parsed).toEqual({ [ROOM_LINK_TOKEN_HEADER]: token, cookie: 'a=b', accept: '*/*' });
  });

  it.each([undefined, '', 'short', `${token} `, `${token},${token}`, 'x'.repeat(101)])('the headers schema refuses %j', (value) => {
    expect(tokenHeadersSchema(ROOM_LINK_TOKEN_HEADER).safeParse({ [ROOM_LINK_TOKEN_HEADER]: value }).success).toBe(false);
  });

  it('the landing page holds the token in the fragment, and fragmentValue reads it back', () => {
    expect(roomLinkPagePath(token)).toBe(`/room-link#token=${token}`);
    expect(fragmentValue(new URL(`https://kuvert.test${roomLinkPagePath(token)}`).hash, 'token')).toBe(token);
    expect(fragmentValue('#dar=abc&x=1', 'dar')).toBe('abc');
    expect(fragmentValue('', 'dar')).toBeNull();
    expect(fragmentValue('#dar=', 'dar')).toBeNull();
  });
});
