import { adminModule } from '../admin/index.ts';
import { auditModule } from '../audit/index.ts';
import { documentsModule } from '../documents/index.ts';
import { i18nModule } from '../i18n/index.ts';
import { identityModule } from '../identity/index.ts';
import { importsModule } from '../imports/index.ts';
import { mailModule } from '../mail/index.ts';
import { paymentsModule } from '../payments/index.ts';
import { openapiModule } from '../openapi/index.ts';
import { pdfModule } from '../pdf/index.ts';
import { publicModule } from '../public/index.ts';
import { reportsModule } from '../reports/index.ts';
import { siteModule } from '../site/index.ts';
import { transferModule } from '../transfer/index.ts';
import type { AnyModule } from './define-module.ts';

/** The core's modules. The kernel builds them in the order of their `requires`, whatever this order. */
export const CORE_MODULES: readonly AnyModule[] = [
  identityModule,
  auditModule,
  i18nModule,
  pdfModule,
  documentsModule,
  paymentsModule,
  importsModule,
  mailModule,
  reportsModule,
  publicModule,
  adminModule,
  siteModule,
  transferModule,
  openapiModule,
];
