export { ReportService, MAX_PERIODS, type ReportData, type ReportGroup, type ReportQuery } from './report-service.ts';
export { reportAjaxActions, REPORT_ARGS } from './report-ajax.ts';
