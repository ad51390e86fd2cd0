import { describe, expect, it } from '@jest/globals';
import { sqlLiterals } from './sql-literals.ts';

describe('sqlLiterals', () => {
  it('writes each value as a quoted literal, quotes doubled', () => {
    expect(sqlLiterals(['available', 'partial', 'unpaid'])).toBe("'available', 'partial', 'unpaid'");
    expect(sqlLiterals(["o'brien"])).toBe("'o''brien'");
  });
});
