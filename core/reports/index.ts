import { defineModule } from '../modules/define-module.ts';
import { reportAjaxActions } from './report-ajax.ts';
import { ReportService } from './report-service.ts';

export { ReportService, MAX_PERIODS, type ReportData, type ReportGroup, type ReportQuery } from './report-service.ts';
export { REPORT_ARGS } from './report-ajax.ts';

/** Reports (contract §6): invoiced, paid and outstanding per period, in SQL, in the site timezone. */
export const reportsModule = defineModule({
  name: 'reports',
  services: (ctx) => new ReportService({ db: ctx.db, options: ctx.options, hooks: ctx.hooks }),
  ajax: (ctx) => reportAjaxActions(ctx.self),
});
