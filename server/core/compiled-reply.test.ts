import { CurrentUserResponseSchema } from '@shared/contract/user';
import { describe, expect, it } from 'vitest';
import { compiledReplySerializer } from './compiled-reply';

const user = { uuid: 'u-1', id: 7, username: 'ann', email: 'ann@example.test', firstName: 'Ann', lastName: 'Lee', roleNames: ['ROLE_SENDER'], language: 'en', totpEnabled: false };
const compile = (httpStatus: string) => compiledReplySerializer({ schema: CurrentUserResponseSchema, method: 'GET', url: '/user', httpStatus } as never);

describe('compiledReplySerializer', () => {
  it('writes the same JSON as JSON.stringify for a valid answer, and only the schema’s keys', () => {
    const serialize = compile('200');
    expect(serialize({ user })).toBe(JSON.stringify({ user }));
    // A column the handler left in (a password hash) does not leave the server.
    expect(JSON.parse(serialize({ user: { ...user, password_hash: '$argon2id$…' }, extra: 1 }))).toEqual({ user });
  });

  it('fails when a required key is missing', () => {
    const { totpEnabled: _left, ...missing } = user;
    expect(() => compile('200')({ user: missing })).toThrow(/totpEnabled/);
  });

  it('keeps zod’s checking serializer for every other status (an enum member it checks at run time)', () => {
    const wrong = { user: { ...user, language: 'xx' } };
    expect(() => compile('401')(wrong)).toThrow();
    expect(() => compile('200')(wrong)).not.toThrow(); // the 200's check is the handler's type and the route's test
  });
});
