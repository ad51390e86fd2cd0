import { describe, expect, it } from '@jest/globals';
import { siteDateTime } from './site-time.ts';
import { parseSiteDateTime } from './payment-date.ts';

describe('parseSiteDateTime', () => {
  it('reads wall-clock times of the site timezone as instants', () => {
    expect(parseSiteDateTime('2026-03-01 10:00:00', 'UTC').toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(parseSiteDateTime('2026-03-01 10:00:00', 'Europe/Paris').toISOString()).toBe('2026-03-01T09:00:00.000Z');
    expect(parseSiteDateTime('2026-07-01T10:00:00', 'Europe/Paris').toISOString()).toBe('2026-07-01T08:00:00.000Z');
    expect(parseSiteDateTime('2026-03-01', 'America/New_York').toISOString()).toBe('2026-03-01T05:00:00.000Z');
    expect(parseSiteDateTime('2026-03-01', 'Asia/Kolkata').toISOString()).toBe('2026-02-28T18:30:00.000Z');
  });

  it('round-trips through siteDateTime around DST changes', () => {
    for (const text of ['2026-03-29 01:59:59', '2026-03-29 03:00:00', '2026-10-25 01:30:00', '2026-10-25 04:00:00']) {
      expect(siteDateTime(parseSiteDateTime(text, 'Europe/Paris'), 'Europe/Paris')).toBe(text);
    }
  });

  it('refuses what is not a real date and time', () => {
    for (const bad of ['2026-02-29', '2026-13-01', '2026-01-01 24:00:00', '2026-01-01 10:60:00', 'yesterday', '2026-1-1', '']) {
      expect(() => parseSiteDateTime(bad, 'UTC')).toThrow(expect.objectContaining({ code: 'rest_invalid_param' }));
    }
  });
});
