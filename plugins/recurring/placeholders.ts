import { formatDate } from '../../core/plugin-api.ts';

/**
 * A recurring template's title, item names and descriptions may say which period they bill
 * (docs/recurring.md): `text` with the placeholders of the service period `period` expanded: its first and last day printed
 * like the document's dates (in `locale`), the name of its first day's month in `locale` (the document's language)
 * and that day's year. Anything else in braces stays as written.
 */
export function expandPlaceholders(text: string, period: { start: string; end: string }, locale: string): string {
  if (!text.includes('{')) return text;
  const first = new Date(`${period.start}T00:00:00Z`);
  const values: Record<string, () => string> = {
    '{period_start}': () => formatDate(period.start, locale),
    '{period_end}': () => formatDate(period.end, locale),
    // the calendar date's own month: read in UTC, where the date was made, whatever the server's zone
    '{month}': () => new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(first),
    '{year}': () => period.start.slice(0, 4),
  };
  return text.replace(/\{(?:period_start|period_end|month|year)\}/g, (p) => values[p]!());
}
