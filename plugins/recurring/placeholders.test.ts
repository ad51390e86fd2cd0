import { describe, expect, it } from '@jest/globals';
import { expandPlaceholders } from './placeholders.ts';

describe('expandPlaceholders', () => {
  const march = { start: '2026-03-01', end: '2026-03-31' };

  it('expands the period, its month in the locale and its year; leaves other braces as written', () => {
    expect(expandPlaceholders('Hosting {month} {year} ({period_start} – {period_end}) {client}', march, 'en')).toBe(
      'Hosting March 2026 (1 Mar 2026 – 31 Mar 2026) {client}',
    );
    expect(expandPlaceholders('{month}', march, 'de')).toBe('März');
    expect(expandPlaceholders('Wartung {month} {year} ({period_start}–{period_end})', march, 'de')).toBe(
      'Wartung März 2026 (01.03.2026–31.03.2026)',
    );
    expect(expandPlaceholders('{month}{month}', { start: '2025-12-31', end: '2026-01-30' }, 'fr')).toBe('décembredécembre');
  });

  it('takes the calendar month whatever the server’s own timezone (the first of the month stays in it)', () => {
    const was = process.env.TZ;
    try {
      process.env.TZ = 'America/Los_Angeles';
      expect(expandPlaceholders('{month} {year}', { start: '2026-01-01', end: '2026-01-31' }, 'en')).toBe('January 2026');
    } finally {
      process.env.TZ = was;
    }
  });
});
