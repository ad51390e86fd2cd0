import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { AttachmentService } from '../documents/attachments/attachment-service.ts';
import type { QuoteService } from '../documents/quote-service.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Authenticator } from '../http/auth.ts';
import type { Identity } from '../identity/identity.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import type { GatewayRuntime } from '../payments/gateways/gateway-runtime.ts';
import type { Translations } from '../i18n/translations.ts';
import type { PdfRenderer } from '../pdf/pdf-renderer.ts';

/** What the customer's pages need from the rest of the service. */
export interface PublicPagesDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  pdf: PdfRenderer;
  translations: Translations;
  quotes: QuoteService;
  auth: Authenticator;
  /** Signs the links a gateway sends the customer back to (they carry no access key). */
  links: Pick<Identity, 'signLink' | 'checkLink'>;
  gateways: GatewayRuntime;
  log: Logger;
  attachments: AttachmentService;
}
