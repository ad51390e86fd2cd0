import { LRUCache } from 'lru-cache';

/**
 * Dates in the site's timezone (option `timezone`, IANA name): "today" for defaults and overdue,
 * and WordPress's `Y-m-d H:i:s` for timestamps in representations.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

function parts(date: Date, timeZone: string): Record<string, string> {
  return Object.fromEntries(
    formatter(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
}

/** The zone's offset from UTC at an instant, in ms, as Intl computes it (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const p = parts(new Date(ms), timeZone);
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * Offsets by zone and quarter of an hour. Intl's formatToParts costs microseconds a call, and a page of
 * 100 documents formats 300 instants: the offset is asked once per quarter hour instead, and trusted
 * for the whole quarter only when it is the same at both its ends (a change of offset inside it, at a
 * DST switch, sends every instant of that quarter to Intl).
 */
const QUARTER_MS = 15 * 60 * 1000;
// 'varies': the offset changes inside that quarter
const offsets = new LRUCache<string, number | 'varies'>({ max: 50_000 });

/** Milliseconds the zone's wall clock is ahead of UTC at instant `ms` (whole seconds): the one offset function. */
export function zoneOffset(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const quarter = Math.floor(ms / QUARTER_MS);
  const key = `${timeZone} ${quarter}`;
  let known = offsets.get(key);
  if (known === undefined) {
    const start = offsetAt(quarter * QUARTER_MS, timeZone);
    known = start === offsetAt((quarter + 1) * QUARTER_MS - 1, timeZone) ? start : 'varies';
    offsets.set(key, known);
  }
  return known === 'varies' ? offsetAt(ms, timeZone) : known;
}

/** The wall clock of an instant in the zone, as `YYYY-MM-DDTHH:MM:SS` (ISO text of the shifted instant). */
function wallClock(date: Date, timeZone: string): string {
  const ms = date.getTime();
  const shifted = new Date(Math.floor(ms / 1000) * 1000 + zoneOffset(ms, timeZone)).toISOString();
  // years outside 0000–9999 are written with a sign by toISOString: rare enough to ask Intl
  return shifted.length === 24 ? shifted.slice(0, 19) : viaIntl(date, timeZone);
}

function viaIntl(date: Date, timeZone: string): string {
  const p = parts(date, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** `Y-m-d` of the given instant in the site timezone. */
export function siteDate(date: Date, timeZone: string): string {
  return wallClock(date, timeZone).slice(0, 10);
}

/** `Y-m-d H:i:s` of the given instant in the site timezone. */
export function siteDateTime(date: Date, timeZone: string): string {
  return wallClock(date, timeZone).replace('T', ' ');
}

/** A `Y-m-d` date plus whole days. */
export function addDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
