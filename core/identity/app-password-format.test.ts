import { describe, expect, it } from '@jest/globals';
import { formatAppPassword, generateAppPassword, normalizeAppPassword } from './app-password-format.ts';

describe('application password format', () => {
  it('is 24 characters of [A-Za-z0-9], different every time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generateAppPassword();
      expect(p).toMatch(/^[A-Za-z0-9]{24}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });

  it('uses the whole alphabet', () => {
    const chars = new Set(Array.from({ length: 300 }, generateAppPassword).join(''));
    expect(chars.size).toBe(62);
  });

  it('is shown in groups of 4 and read back with any separator stripped', () => {
    const p = 'abcdEFGH1234ijklMNOP5678';
    expect(formatAppPassword(p)).toBe('abcd EFGH 1234 ijkl MNOP 5678');
    expect(normalizeAppPassword('abcd EFGH 1234 ijkl MNOP 5678')).toBe(p);
    expect(normalizeAppPassword('abcd-EFGH-1234-ijkl-MNOP-5678')).toBe(p);
  });
});
