import { invalidParam } from '../validation/invalid-param.ts';
import type { ServicePeriod } from './types.ts';

/**
 * The service period of an invoice or credit note from its input fields (`Y-m-d`, already checked as
 * dates): either end may be open, a closed period may not end before it starts (EN 16931 BR-29; the
 * database holds the same check).
 */
export function servicePeriod(start: string | null | undefined, end: string | null | undefined): ServicePeriod {
  const period = { start: start || null, end: end || null };
  if (period.start && period.end && period.end < period.start) {
    throw invalidParam('period_end', `period_end (${period.end}) must not be before period_start (${period.start}).`);
  }
  return period;
}
