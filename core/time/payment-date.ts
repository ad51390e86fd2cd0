import { zoneOffset } from './site-time.ts';
import { invalidParam } from '../validation/invalid-param.ts';

/** `Y-m-d`, `Y-m-d H:i:s` (or with a `T`): how payment dates and date filters are written. */
export const SITE_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}:\\d{2})?$';

const PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * The instant a wall-clock time of the site's timezone names (`2026-03-01 10:00:00` in Europe/Paris is
 * 09:00 UTC). A date alone is its midnight. Throws 400 `rest_invalid_param` on `param` for text that is
 * not a real date and time. In a DST gap the time is read with the offset before the change.
 */
export function parseSiteDateTime(text: string, timeZone: string, param = 'date'): Date {
  const m = PARTS.exec(text);
  const bad = () => invalidParam(param, `${param} must be a real date, Y-m-d or Y-m-d H:i:s.`);
  if (!m) throw bad();
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    throw bad();
  // two passes: the offset at the first guess may differ from the offset at the answer across a DST change
  const first = wall - zoneOffset(wall, timeZone);
  return new Date(wall - zoneOffset(first, timeZone));
}
