import { defineModule } from '../modules/define-module.ts';
import { reportAjaxActions } from './report-ajax.ts';
import { ReportService } from './report-service.ts';

/** Reports (docs/ajax.md): invoiced, paid and outstanding per period, in SQL, in the site timezone. */
export const reportsModule = defineModule({
  name: 'reports',
  services: (ctx) => new ReportService({ db: ctx.db, options: ctx.options, hooks: ctx.hooks }),
  ajax: (ctx) => reportAjaxActions(ctx.self),
});
