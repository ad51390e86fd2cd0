import { describe, expect, it } from '@jest/globals';
import { cookieValue } from './cookies.ts';

describe('cookieValue', () => {
  it('finds one cookie among others, decoded, the first occurrence winning', () => {
    const header = 'theme=dark; billing_logged_in=abc%2Bdef; other="quoted"; billing_logged_in=second';
    expect(cookieValue(header, 'billing_logged_in')).toBe('abc+def');
    expect(cookieValue(header, 'other')).toBe('quoted');
    expect(cookieValue(header, 'missing')).toBeUndefined();
    expect(cookieValue(undefined, 'theme')).toBeUndefined();
  });

  it('keeps a value whose escapes are malformed as it came, and does not match on a prefix', () => {
    expect(cookieValue('a=%E0%A4%A', 'a')).toBe('%E0%A4%A');
    expect(cookieValue('billing_logged_in_x=1; flag', 'billing_logged_in')).toBeUndefined();
  });
});
