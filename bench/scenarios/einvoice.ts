import { CLI } from '../../core/audit/audit.ts';
import type { BillingDocument } from '../../core/documents/document.ts';
import type { PluginContext } from '../../core/plugins/define-plugin.ts';
import { ciiXml } from '../../plugins/e-invoicing/cii.ts';
import { einvoiceModel } from '../../plugins/e-invoicing/einvoice-model.ts';
import { facturX, sellerSettings } from '../../plugins/e-invoicing/index.ts';
import { ublXml } from '../../plugins/e-invoicing/ubl.ts';
import { measureHttp, measureOps, type Comparison, type Scenario } from '../harness.ts';

const SELLER: Record<string, unknown> = {
  company_name: 'Lieferant GmbH',
  company_email: 'billing@lieferant.test',
  company_vat_number: 'DE123456789',
  company_street: 'Hauptstraße 1',
  company_city: 'Berlin',
  company_postcode: '10115',
  business_country: 'DE',
  currency: 'EUR',
  tax_rate: 19,
  tax_exempt_items_statement: 'Disbursement paid in the name and for the account of the customer.',
  einvoice_iban: 'DE02120300000000202051',
  einvoice_contact_phone: '+49 30 1234567',
};

/** Distinct invoices, so neither side serves a PDF from the render cache until every one has been asked for. */
const INVOICES = Number(process.env.BENCH_EINVOICES ?? 400);

/**
 * E-invoices per second next to the plain PDF of the same invoices in the same run. In process (the
 * cost of producing a document: every invoice distinct, each PDF a real render in the worker pool) and
 * over HTTP (one invoice asked for again and again: its PDF is served from the render cache, the
 * e-invoice is made anew each time, as the routes do).
 */
export const einvoice: Scenario = {
  name: 'einvoice',
  description: 'UBL and Factur-X documents per second, as a ratio to the plain PDF of the same invoices in the same run',
  async run(env) {
    const database = await env.database();
    const k = await env.kernel(database.url);
    try {
      await k.plugins.activate('e-invoicing', CLI);
      for (let i = 0; i < 100 && !k.plugins.isLoaded('e-invoicing'); i++) await new Promise((r) => setTimeout(r, 50));
      for (const [key, value] of Object.entries(SELLER)) await k.options.set(key as never, value as never, CLI);
      // a German buyer with its address: what a domestic German Peppol invoice needs (else /ubl is 409)
      const buyer = await k.identity.users.create(
        {
          login: 'kaeufer',
          email: 'ap@kaeufer.test',
          role: 'billing_client',
          country: 'DE',
          vat: 'DE987654321',
          address: 'Marktplatz 2\n80331 München',
        },
        CLI,
      );
      const docs: BillingDocument[] = [];
      for (let i = 0; i < INVOICES; i++) {
        docs.push(
          await k.api.invoices.create(
            {
              items: [
                { name: 'Consulting', description: 'Senior, per hour', quantity: 12 + (i % 7), price: '95.50' },
                { name: 'Books', quantity: 3, price: '24.90', tax_rate: 7 },
                { name: 'Court fee', quantity: 1, price: 25, taxable: false },
              ],
              client_id: buyer.id,
              customer_name: `Käufer ${i} AG`,
              discount: { type: 'percent', value: 5 },
              status: 'available',
              notes: `Please quote invoice ${i} with your payment.`,
            },
            { actor: CLI, source: 'cli' },
          ),
        );
      }
      const ctx = { options: k.options, api: k.api } as unknown as PluginContext;
      const concurrency = 4;
      const seconds = env.seconds;
      const cycle = () => {
        let n = 0;
        return () => docs[n++ % docs.length]!;
      };

      // in process, every invoice distinct: the plain PDF first, so its cache holds nothing of Factur-X's
      const pdfNext = cycle();
      const pdf = await measureOps(() => k.api.pdfs.render(pdfNext()), { seconds, concurrency, unit: 'doc/s' });
      const ublNext = cycle();
      const ubl = await measureOps(
        async () => {
          const doc = ublNext();
          return ublXml(einvoiceModel(doc, await sellerSettings(ctx), 'ubl').model);
        },
        { seconds, concurrency, unit: 'doc/s' },
      );
      const fxNext = cycle();
      const fx = await measureOps(() => facturX(ctx, fxNext()), { seconds, concurrency, unit: 'doc/s' });
      const ciiNext = cycle();
      const cii = await measureOps(
        async () => {
          return ciiXml(einvoiceModel(ciiNext(), await sellerSettings(ctx), 'cii').model);
        },
        { seconds, concurrency, unit: 'doc/s' },
      );

      const rows: Comparison[] = [
        { scenario: 'UBL, in process, distinct invoices', ours: ubl, baseline: pdf, baselineName: 'plain PDF' },
        { scenario: 'CII, in process, distinct invoices', ours: cii, baseline: pdf, baselineName: 'plain PDF' },
        {
          scenario: 'Factur-X, in process, distinct invoices',
          ours: fx,
          baseline: pdf,
          baselineName: 'plain PDF',
          note: 'a PDF/A-3b render of its own plus attaching the CII',
        },
      ];

      // over HTTP, the same invoice again and again (its PDFs cached after the first request)
      const user = await k.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const app = await k.identity.appPasswords.create(user, 'bench', CLI);
      const headers = { authorization: `Basic ${Buffer.from(`bench:${app.password}`).toString('base64')}` };
      const id = docs[0]!.id;
      const url = (suffix: string) => `${k.url}/wp-json/billing/v1/invoices/${id}/${suffix}`;
      const httpPdf = await measureHttp({ url: url('pdf'), headers }, env);
      const httpUbl = await measureHttp({ url: url('ubl'), headers }, env);
      const httpFx = await measureHttp({ url: url('facturx'), headers }, env);
      rows.push(
        { scenario: 'GET /ubl, one invoice', ours: httpUbl, baseline: httpPdf, baselineName: 'GET /pdf (cached)' },
        {
          scenario: 'GET /facturx, one invoice',
          ours: httpFx,
          baseline: httpPdf,
          baselineName: 'GET /pdf (cached)',
          note: 'PDF/A render cached; the attaching is redone per request',
        },
      );
      return rows;
    } finally {
      await k.stop();
      await database.close();
    }
  },
};
