import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordHashing, verifyPassword } from './passwords';

describe('password hashing (KUVERT_PASSWORD_HASHING)', () => {
  afterEach(() => setPasswordHashing('standard'));

  it('standard hashes with 64 MiB and 3 passes, minimum with OWASP’s 19 MiB and 2 passes', async () => {
    expect(await hashPassword('correct horse')).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    setPasswordHashing('minimum');
    expect(await hashPassword('correct horse')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('a hash made under one setting verifies under the other; a wrong password or a broken hash does not', async () => {
    const standard = await hashPassword('correct horse');
    setPasswordHashing('minimum');
    const minimum = await hashPassword('correct horse');
    expect(await verifyPassword(standard, 'correct horse')).toBe(true);
    setPasswordHashing('standard');
    expect(await verifyPassword(minimum, 'correct horse')).toBe(true);
    expect(await verifyPassword(minimum, 'correct horsE')).toBe(false);
    expect(await verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$broken', 'correct horse')).toBe(false);
  });
});
