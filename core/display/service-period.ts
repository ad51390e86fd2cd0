/**
 * `1 Jan 2026 – 31 Jan 2026` (in German `01.01.2026 – 31.01.2026`): a document's service period as its
 * PDF and page print it, after the label `document.service_period`; an open end stays open
 * (`1 Jan 2026 –`). Null when the document has no period, so nothing is printed.
 */
export function servicePeriodText(
  period: { start: string | null; end: string | null } | null | undefined,
  texts: { date(ymd: string): string },
): string | null {
  if (!period || (!period.start && !period.end)) return null;
  if (period.start && period.start === period.end) return texts.date(period.start);
  return [period.start ? texts.date(period.start) : '', period.end ? texts.date(period.end) : ''].join(' – ').trim();
}
