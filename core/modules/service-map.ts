import type { AdminServices } from '../admin/services.ts';
import type { AuditLog } from '../audit/services.ts';
import type { DocumentServices } from '../documents/services.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Identity } from '../identity/identity.ts';
import type { ImportService } from '../imports/import-service.ts';
import type { Translations } from '../i18n/translations.ts';
import type { JobScheduler } from '../jobs/scheduler.ts';
import type { MailService } from '../mail/mail-service.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { PaymentServices } from '../payments/services.ts';
import type { PdfRenderer } from '../pdf/pdf-renderer.ts';
import type { PluginManager } from '../plugins/plugin-manager.ts';
import type { ReportService } from '../reports/report-service.ts';
import type { RestServer } from '../http/rest/rest-server.ts';
import type { TransferDeps } from '../transfer/transfer-deps.ts';

/**
 * The services each core module offers to the modules that require it, by module name. A module sees
 * only the services of the modules it lists in `requires` (typed as a Pick of this map). Type-only
 * imports: the map needs the shapes, not the modules, so it makes no cycle at run time.
 *
 * `plugins`, `jobs`, `outbox` and `hooks` are the kernel's own machinery, offered the same way to the
 * few modules that manage it (the CLI's site commands, the Plugins screen).
 */
export interface ServiceMap {
  hooks: HookRegistry;
  plugins: PluginManager;
  jobs: JobScheduler;
  outbox: Outbox;
  /** Brings the whole schema (infrastructure, modules) up to date; answers the steps applied. */
  schema: { migrate(): Promise<string[]> };
  /** The live REST route registry (the OpenAPI document is made from it). */
  rest: RestServer;
  identity: Identity;
  audit: AuditLog;
  i18n: Translations;
  pdf: PdfRenderer;
  documents: DocumentServices;
  payments: PaymentServices;
  imports: ImportService;
  mail: MailService;
  reports: ReportService;
  admin: AdminServices;
  /** Export, restore and backups (the archive's sections, read and written). */
  transfer: TransferDeps;
  public: void;
  site: void;
  openapi: void;
}

export type ModuleName = keyof ServiceMap;
