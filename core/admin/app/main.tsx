import { render } from 'preact';
import './style.css';
import { Builder } from './builder.tsx';
import { DocumentList } from './documents.tsx';
import { AuditLog, Clients, Dashboard, Payments, Reports, Settings } from './screens.tsx';
import { ResourceScreen, UploadScreen } from './resource.tsx';
import type { Props } from './ui.tsx';

/** The component of each screen the server's shell names (core/admin/app-screens.ts). */
const SCREENS: Record<string, (p: { props: Props }) => any> = {
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
  // the screens plugins declare as data (core/admin/resource-screen.ts)
  resource: ResourceScreen as (p: { props: Props }) => any,
  upload: UploadScreen as (p: { props: Props }) => any,
};

const mount = document.getElementById('billing-app');
const data = document.getElementById('billing-props');
if (mount && data) {
  const props = JSON.parse(data.textContent ?? '{}') as Props;
  const Screen = SCREENS[props.screen];
  mount.textContent = '';
  if (Screen) render(<Screen props={props} />, mount);
  else mount.textContent = 'This screen is not part of this version of the admin app.';
}
