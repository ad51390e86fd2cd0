import { describe, expect, it } from '@jest/globals';
import { timestamp } from './database.ts';

describe('timestamp', () => {
  it('reads what PostgreSQL writes for a timestamptz, in UTC and in other offsets, to the millisecond', () => {
    const cases: Array<[string, string]> = [
      ['2026-11-22 16:18:02.149+00', '2026-11-22T16:18:02.149Z'],
      ['2026-11-22 16:18:02+00', '2026-11-22T16:18:02.000Z'],
      ['2026-11-22 16:18:02.1+00', '2026-11-22T16:18:02.100Z'],
      ['2026-11-22 16:18:02.123456+00', '2026-11-22T16:18:02.123Z'],
      ['2024-02-29 23:59:59.999+00', '2024-02-29T23:59:59.999Z'],
      ['2026-11-22 16:18:02.149+02', '2026-11-22T14:18:02.149Z'],
      ['2026-11-22 16:18:02.149-05', '2026-11-22T21:18:02.149Z'],
    ];
    for (const [text, iso] of cases) expect(timestamp(text)!.toISOString()).toBe(iso);
    expect(timestamp(null)).toBeNull();
  });
});
