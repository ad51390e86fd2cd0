// `npm run bench [-- name …]`: runs every scenario (or the named ones) and prints, for each, our
// throughput and p99 next to a bare baseline measured in the same run, and their ratio.
import { benchEnv, formatRow, type Scenario } from './harness.ts';
import { auth } from './scenarios/auth.ts';
import { csvImport } from './scenarios/csv-import.ts';
import { bank } from './scenarios/bank.ts';
import { databases } from './scenarios/databases.ts';
import { documents } from './scenarios/documents.ts';
import { einvoice } from './scenarios/einvoice.ts';
import { foundation } from './scenarios/foundation.ts';
import { gateways } from './scenarios/gateways.ts';
import { languages } from './scenarios/languages.ts';
import { mail } from './scenarios/mail.ts';
import { memory } from './scenarios/memory.ts';
import { payments } from './scenarios/payments.ts';
import { pdf } from './scenarios/pdf.ts';
import { recurring } from './scenarios/recurring.ts';
import { reminders } from './scenarios/reminders.ts';
import { sandbox } from './scenarios/sandbox.ts';
import { scale } from './scenarios/scale.ts';
import { screens } from './scenarios/screens.ts';
import { webhooks } from './scenarios/webhooks.ts';
import { exportBench, importBench } from './scenarios/transfer.ts';

const SCENARIOS: Scenario[] = [
  foundation,
  auth,
  documents,
  databases,
  pdf,
  languages,
  mail,
  payments,
  gateways,
  einvoice,
  webhooks,
  recurring,
  reminders,
  csvImport,
  sandbox,
  screens,
  scale,
  memory,
  exportBench,
  importBench,
  bank,
];

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const env = benchEnv();
console.log(
  `billing bench: ${env.seconds}s per measurement, ${env.connections} connections, database ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
);
let failed = false;
for (const s of SCENARIOS) {
  // the long ones (a million rows seeded, a million requests) run only when named
  if (wanted.length ? !wanted.includes(s.name) : s.onlyWhenNamed) continue;
  console.log(`\n# ${s.name}: ${s.description}`);
  try {
    for (const c of await s.run(env)) console.log(formatRow(c));
  } catch (err) {
    failed = true;
    console.log(`  failed: ${(err as Error).stack}`);
  }
}
process.exit(failed ? 1 : 0);
