import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/http-error';
import { parseBasicCredentials } from './basic-credentials';

const encode = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('parseBasicCredentials', () => {
  it('reads login and password, the password may contain colons and non-ASCII', () => {
    expect(parseBasicCredentials(`Basic ${encode('jane@example.org:pa:ss wörd')}`)).toEqual({ login: 'jane@example.org', password: 'pa:ss wörd' });
    expect(parseBasicCredentials(`basic   ${encode('a:')}`)).toEqual({ login: 'a', password: '' });
  });

  it('answers null without a header', () => {
    expect(parseBasicCredentials(undefined)).toBeNull();
    expect(parseBasicCredentials('  ')).toBeNull();
  });

  it.each([
    ['another scheme', 'Bearer abc'],
    ['no payload', 'Basic'],
    ['not base64', 'Basic ***'],
    ['bad padding', 'Basic YWJj='],
    ['no colon', `Basic ${encode('no-colon')}`],
    ['invalid UTF-8', `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`],
    ['too long', `Basic ${'A'.repeat(5000)}`],
  ])('refuses %s with a 400', (_name, header) => {
    try {
      parseBasicCredentials(header);
      expect.fail('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(400);
    }
  });
});
