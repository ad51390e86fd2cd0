import type { Props } from '../ui.tsx';
import { Builder } from '../builder/builder.tsx';
import { ResourceScreen, UploadScreen } from '../resource.tsx';
import { AuditLog } from './audit-log.tsx';
import { Clients } from './clients.tsx';
import { Dashboard } from './dashboard.tsx';
import { ImportExport } from './import-export.tsx';
import { DocumentList } from './document-list.tsx';
import { Payments } from './payments.tsx';
import { Reports } from './reports.tsx';
import { Settings } from './settings.tsx';

/** The component of each screen the server's shell names (core/admin/app-screens.ts). */
export const SCREENS: Record<string, (p: { props: Props }) => any> = {
  dashboard: Dashboard,
  invoices: ({ props }) => <DocumentList props={props} kind="invoice" />,
  quotes: ({ props }) => <DocumentList props={props} kind="quote" />,
  invoice: ({ props }) => <Builder props={props} kind="invoice" />,
  quote: ({ props }) => <Builder props={props} kind="quote" />,
  payments: Payments,
  clients: Clients,
  reports: Reports,
  settings: Settings,
  options: Settings,
  audit: AuditLog,
  import: ImportExport as (p: { props: Props }) => any,
  // the screens plugins declare as data (core/admin/resource-screen.ts)
  resource: ResourceScreen as (p: { props: Props }) => any,
  upload: UploadScreen as (p: { props: Props }) => any,
};
