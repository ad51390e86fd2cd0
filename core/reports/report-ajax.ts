import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { checkFields } from '../validation/args.ts';
import type { ReportService } from './report-service.ts';

const dateArg = (description: string): ArgSchema => ({ type: 'string', format: 'date-ymd', description });

/** The report's parameters; each may be left out (or sent empty) for its default. */
export const REPORT_ARGS: Record<string, ArgSchema> = {
  start: dateArg('Y-m-d, first day of the range in the site timezone; default 29 days before end'),
  end: dateArg('Y-m-d, last day of the range (included); default today in the site timezone'),
  group: {
    type: 'string',
    enum: ['day', 'week', 'month'],
    description: 'Period of each point: day, week (ISO, from Monday) or month; default day',
  },
  currency: {
    type: 'string',
    pattern: '^[A-Z]{3}$',
    description: 'ISO 4217 code; default option currency. Only amounts in this currency are counted',
  },
};

/**
 * The Reports screen's data (docs/ajax.md). The legacy name `billing_reports_data` is an alias; the
 * legacy table lists it for any signed-in user, but revenue figures are not for every signed-in user
 * (clients are users too), so the alias asks for `bill_view_reports` like the current name.
 */
export function reportAjaxActions(reports: ReportService): AjaxAction[] {
  return [
    {
      action: 'billing_get_report_data',
      aliases: ['billing_reports_data'],
      capability: 'bill_view_reports',
      fields: {
        start: 'Y-m-d, first day (site timezone); default 29 days before end',
        end: 'Y-m-d, last day, included; default today (site timezone)',
        group: '`day` (default), `week` (ISO weeks, from Monday) or `month`',
        currency: 'ISO 4217 code; default the option `currency`',
      },
      handler: async (req) => {
        const given = Object.fromEntries(Object.entries(req.params).filter(([k, v]) => k in REPORT_ARGS && v !== ''));
        const p = checkFields(REPORT_ARGS, given);
        return reports.data({ start: p.start, end: p.end, group: p.group, currency: p.currency, viewer: req.user ?? undefined });
      },
    },
  ];
}
