import { describe, expect, it } from '@jest/globals';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('sign-in passwords', () => {
  it('are stored as salted scrypt with their parameters, and verified', async () => {
    const h = await hashPassword('correct horse');
    expect(h).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(h).not.toContain('correct horse');
    expect(await hashPassword('correct horse')).not.toBe(h);
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('correct horsf', h)).toBe(false);
    expect(await verifyPassword('', h)).toBe(false);
  });

  it('answer false, after the same work, when there is no hash to check against', async () => {
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
    const t0 = performance.now();
    await verifyPassword('anything', null);
    const miss = performance.now() - t0;
    const h = await hashPassword('x');
    const t1 = performance.now();
    await verifyPassword('anything', h);
    const hit = performance.now() - t1;
    // the same scrypt work either way (a loose bound: timing on a shared machine is noisy)
    expect(miss).toBeGreaterThan(hit / 4);
  });
});
