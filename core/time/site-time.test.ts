import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { siteDate, siteDateTime } from './site-time.ts';

/** What Intl says directly: the reference the cached offsets must always agree with. */
function intl(date: Date, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Chatham'];

describe('site time', () => {
  it('formats any instant as Intl does in every zone, DST switches included', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }), fc.constantFrom(...ZONES), (ms, zone) => {
        const d = new Date(ms);
        expect(siteDateTime(d, zone)).toBe(intl(d, zone));
        expect(siteDate(d, zone)).toBe(intl(d, zone).slice(0, 10));
      }),
      { numRuns: 5000 },
    );
  });

  it('is right on both sides of a switch inside a cached quarter hour', () => {
    // Europe/Berlin springs forward at 01:00 UTC on 2026-03-29; Lord Howe moves by half an hour
    for (const [zone, at] of [
      ['Europe/Berlin', Date.UTC(2026, 2, 29, 1, 0, 0)],
      ['Europe/Berlin', Date.UTC(2026, 9, 25, 1, 0, 0)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15, 0, 0)],
    ] as const) {
      for (let s = -1800; s <= 1800; s += 7) {
        const d = new Date(at + s * 1000 + 123);
        expect(siteDateTime(d, zone)).toBe(intl(d, zone));
      }
    }
  });
});
