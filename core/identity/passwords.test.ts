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
    const h = await hashPassword('x');
    const time = async (stored: string | null) => {
      const t0 = performance.now();
      await verifyPassword('anything', stored);
      return performance.now() - t0;
    };
    // the same scrypt work either way. One timing of each is noise on a shared machine (another test
    // file's worker may hold the other core during one of them): the fastest of several interleaved
    // runs is what the work itself costs. A miss without the work would take well under a millisecond.
    const misses: number[] = [];
    const hits: number[] = [];
    for (let i = 0; i < 4; i++) {
      misses.push(await time(null));
      hits.push(await time(h));
    }
    expect(Math.min(...misses)).toBeGreaterThan(Math.min(...hits) / 4);
  });
});
