import { formatDate } from './format.ts';

/**
 * The label of a document's service period on the PDF and the public page: the one place it is
 * written, so translating it changes both.
 */
export const SERVICE_PERIOD_LABEL = 'Service period';

/**
 * `1 Jan 2026 – 31 Jan 2026`, in the documents' date format; an open end stays open (`1 Jan 2026 –`).
 * Null when the document has no period, so nothing is printed.
 */
export function servicePeriodText(period: { start: string | null; end: string | null } | null | undefined): string | null {
  if (!period || (!period.start && !period.end)) return null;
  if (period.start && period.start === period.end) return formatDate(period.start);
  return [period.start ? formatDate(period.start) : '', period.end ? formatDate(period.end) : ''].join(' – ').trim();
}
