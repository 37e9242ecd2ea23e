import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('dashboard passwords', () => {
  it('hashes with a random salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats malformed or hostile hashes as a mismatch', async () => {
    for (const bad of ['', 'plain', 'scrypt$1$8$1$AAAA$BBBB', 'bcrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43), 'scrypt$99999999$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43)]) {
      expect(await verifyPassword('whatever1234', bad)).toBe(false);
    }
  });
});
