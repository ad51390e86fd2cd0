import { CronExpressionParser } from 'cron-parser';

/** 5 fields, or 6 with seconds first. */
export function validCron(expression: string): boolean {
  const fields = expression.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return false;
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    return true;
  } catch {
    return false;
  }
}
