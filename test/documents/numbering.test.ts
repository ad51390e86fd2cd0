import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { DocumentKind } from '../../core/documents/numbering.ts';
import type { BillingError } from '../../core/errors.ts';
import type { Kernel } from '../../core/kernel.ts';
import { QuoteService } from '../../core/documents/quote-service.ts';
import { useService, usingPostgres, type AjaxClient, type TestUser } from '../../testing/index.ts';
import { ADMIN, moneyServices, type MoneyServices } from '../payments/support.ts';

/**
 * Numbers given by hand on the sequence's path (issue #14): the sequence passes over a number that a
 * document of its kind already bears, so no input can make every later creation fail on the unique
 * key — for invoices, quotes and credit notes, over REST, AJAX, the public Accept and the in-process
 * API, and under concurrent creation on two instances.
 */
const svc = useService();
let k: Kernel;
/** A second instance: its own pool on the same database. */
let other: MoneyServices & { quotes: QuoteService };
let admin: TestUser;
let boss: AjaxClient;

const ctx = { actor: CLI, source: 'api' as const };
const item = { name: 'Work', quantity: 1, price: 100, taxable: false };
const PREFIX = { invoice: 'INV', quote: 'QUO', credit_note: 'CN' } as const;
const nth = (kind: DocumentKind, n: number) => `${PREFIX[kind]}-${String(n).padStart(4, '0')}`;
/** `INV-0001` … `INV-00nn`: the series with no hole. */
const series = (kind: DocumentKind, n: number) => Array.from({ length: n }, (_, i) => nth(kind, i + 1));

async function numbers(kind: DocumentKind): Promise<string[]> {
  const rows = await k.db.query<{ number: string }>('select number from billing_documents where kind = $1 order by number', [kind]);
  return rows.map((r) => r.number);
}

function rest(method: string, path: string, body?: unknown) {
  return svc.rest(admin).request(method, path, body);
}

/** admin-ajax as the signed-in administrator, with their nonce; or as a visitor (the public Accept). */
async function ajax(fields: Record<string, string>, signedIn = true) {
  if (signedIn) return boss.post({ _wpnonce: boss.nonce, ...fields });
  const res = await fetch(`${svc.url}/wp-admin/admin-ajax.php`, { method: 'POST', body: new URLSearchParams(fields) });
  return { status: res.status, body: await res.json() };
}

/** A credit note already in the table with this number, as an import from another system leaves it. */
async function importedCreditNote(number: string, parentId: number): Promise<void> {
  await k.db.query(
    `insert into billing_documents (kind, number, status, currency, issue_date, parent_id, reason, total, access_key)
     values ('credit_note', $1, 'issued', 'USD', current_date, $2, 'imported', 1, $3)`,
    [number, parentId, `imported-${number}`],
  );
}

beforeAll(async () => {
  k = svc.kernel;
  const m = await moneyServices(svc.databaseUrl, usingPostgres ? 10 : 3);
  other = { ...m, quotes: new QuoteService(m, m.invoices) };
  svc.beforeStop(() => other.db.close());
  admin = await svc.makeUser('boss', 'administrator', 'boss-pass-1');
  boss = await svc.ajax('boss', 'boss-pass-1');
});

beforeEach(async () => {
  await k.db.query('truncate billing_documents cascade');
  await k.db.query('update billing_sequences set next_value = 1');
  for (const key of ['invoice_prefix', 'next_invoice_number', 'quote_accept_action'] as const) await k.options.delete(key, CLI);
});

describe('a number given by hand on the sequence path is passed over, never a wedge', () => {
  it('invoices: over REST, the AJAX save and duplicate, and the in-process API', async () => {
    expect((await rest('POST', '/invoices', { items: [item], number: 'INV-0002' })).status).toBe(201);
    expect((await rest('POST', '/invoices', { items: [item] })).body.number).toBe('INV-0001');
    // the sequence reaches INV-0002: before the fix, this and every later creation failed with 500
    const third = await rest('POST', '/invoices', { items: [item] });
    expect([third.status, third.body.number]).toEqual([201, 'INV-0003']);
    await k.api.invoices.create({ items: [item], number: 'INV-0004' }, ctx);
    const saved = await ajax({ action: 'billing_save_invoice', invoice: JSON.stringify({ items: [item] }) });
    expect([saved.status, saved.body.data.number]).toEqual([200, 'INV-0005']);
    await k.api.invoices.create({ items: [item], number: 'INV-0006' }, ctx);
    const copy = await ajax({ action: 'billing_duplicate_invoice', id: String(third.body.id) });
    expect([copy.status, copy.body.data.number]).toEqual([200, 'INV-0007']);
    expect((await k.api.invoices.create({ items: [item] }, ctx)).number).toBe('INV-0008');
    // a number in use is still refused as such, on every surface
    expect((await rest('POST', '/invoices', { items: [item], number: 'INV-0008' })).body.code).toBe('billing_rest_number_taken');
    expect(await numbers('invoice')).toEqual(series('invoice', 8));
  });

  it("quotes: over REST, the AJAX save and the in-process API; a customer's Accept when the next invoice number is taken", async () => {
    expect((await rest('POST', '/quotes', { items: [item], number: 'QUO-0001', status: 'available' })).status).toBe(201);
    const quote = await rest('POST', '/quotes', { items: [item], status: 'available', customer_name: 'Jane Roe' });
    expect([quote.status, quote.body.number]).toEqual([201, 'QUO-0002']);
    await k.api.quotes.create({ items: [item], number: 'QUO-0003' }, ctx);
    const saved = await ajax({ action: 'billing_save_quote', quote: JSON.stringify({ items: [item] }) });
    expect([saved.status, saved.body.data.number]).toEqual([200, 'QUO-0004']);
    expect((await k.api.quotes.create({ items: [item] }, ctx)).number).toBe('QUO-0005');
    expect(await numbers('quote')).toEqual(series('quote', 5));

    await rest('POST', '/invoices', { items: [item], number: 'INV-0001' });
    const token = await k.api.quotes.mintToken(quote.body.id);
    const accepted = await ajax({ action: 'billing_accept_quote', quote_id: String(quote.body.id), token }, false);
    expect([accepted.status, accepted.body.data.status]).toEqual([200, 'accepted']);
    expect((await k.api.invoices.get(accepted.body.data.invoice_id)).number).toBe('INV-0002');
  });

  it('credit notes: numbers already in the table (imported) are passed over, over REST and the in-process API', async () => {
    const invoice = await k.api.invoices.create({ items: [item], status: 'available' }, ctx);
    await importedCreditNote('CN-0001', invoice.id);
    await importedCreditNote('CN-0003', invoice.id);
    const viaRest = await rest('POST', `/invoices/${invoice.id}/credit-notes`, { amount: 10, reason: 'Late delivery' });
    expect([viaRest.status, viaRest.body.number]).toEqual([201, 'CN-0002']);
    const inProcess = await k.api.creditNotes.create(invoice.id, { amount: 10, reason: 'Damaged' }, ADMIN);
    expect(inProcess.creditNote.number).toBe('CN-0004');
    expect(await numbers('credit_note')).toEqual(series('credit_note', 4));
  });

  it('passes over a run longer than one probe, numbers made under a prefix set again, and a floor on a taken number', async () => {
    await k.db.query(
      `insert into billing_documents (kind, number, status, currency, issue_date, access_key)
       select 'invoice', 'INV-' || lpad(g::text, 4, '0'), 'draft', 'USD', current_date, 'run-' || g from generate_series(1, 150) g`,
    );
    expect((await k.api.invoices.create({ items: [item] }, ctx)).number).toBe('INV-0151');
    // FAC-0152 given while the prefix is INV; then the prefix becomes FAC
    await k.api.invoices.create({ items: [item], number: 'FAC-0152' }, ctx);
    await k.options.set('invoice_prefix', 'FAC', CLI);
    expect((await k.api.invoices.create({ items: [item] }, ctx)).number).toBe('FAC-0153');
    await k.api.invoices.create({ items: [item], number: 'FAC-0200' }, ctx);
    await k.options.set('next_invoice_number', 200, CLI);
    expect((await k.api.invoices.create({ items: [item] }, ctx)).number).toBe('FAC-0201');
  });

  it('a draft renumbered onto the path is passed over too, and the log tells which number it left', async () => {
    const draft = await k.api.invoices.create({ items: [item] }, ctx);
    await k.api.invoices.update(draft.id, { items: [item], number: 'INV-0003' }, ADMIN);
    expect((await k.api.invoices.create({ items: [item] }, ctx)).number).toBe('INV-0002');
    expect((await k.api.invoices.create({ items: [item] }, ctx)).number).toBe('INV-0004');
    const [entry] = await k.db.query<{ details: unknown }>(
      `select details from billing_audit_log where action = 'invoice.update' and object_id = $1`,
      [String(draft.id)],
    );
    expect(entry!.details).toEqual({ number: { from: 'INV-0001', to: 'INV-0003' } });
  });
});

describe('under concurrent creation on two instances', () => {
  /** Settles `jobs`; answers the codes of the refusals. */
  async function refusals(jobs: Array<Promise<unknown>>): Promise<string[]> {
    const outs = await Promise.allSettled(jobs);
    return outs
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => (o.reason as BillingError).code ?? String(o.reason));
  }

  it('invoices and quotes: numbers given on the path lose only to the sequence (400), never break it; no duplicate, no hole', async () => {
    for (const kind of ['invoice', 'quote'] as const) {
      const service = (i: number) => (i % 2 ? other : k.api)[kind === 'invoice' ? 'invoices' : 'quotes'];
      // rounds of 24 creations from the sequence and 8 numbers given by hand for the very values it is
      // taking (1 … 8 past the series so far), so claims and creations race for the same numbers; a number
      // given beyond what the sequence reaches would leave a hole until it got there.
      let made = 0;
      for (let round = 0; round < 4; round++) {
        const jobs = Array.from({ length: 32 }, (_, i) =>
          service(i).create({ items: [item], ...(i % 4 === 3 ? { number: nth(kind, made + (i + 1) / 4) } : {}) }, ctx),
        );
        const refused = await refusals(jobs);
        expect(refused.every((code) => code === 'billing_rest_number_taken')).toBe(true);
        made += 32 - refused.length;
        expect(await numbers(kind)).toEqual(series(kind, made));
      }
    }
  });

  it('60 creations at once on two instances, some refused after taking their number: no duplicate, no hole', async () => {
    // refused after the insert, inside the creating transaction: the number it took must come back
    const off = k.hooks.addFilter('billing_invoice_issue_refusals', (refusals, doc) =>
      doc.title === 'refuse' ? [...refusals, { code: 'billing_rest_invalid_state', message: 'refused by the test' }] : refusals,
    );
    try {
      const answers = await Promise.allSettled(
        Array.from({ length: 60 }, (_, i) => {
          const input = { items: [item], status: 'available' as const, title: i % 5 === 2 ? 'refuse' : `n${i}` };
          return i % 2 ? other.invoices.create(input, ctx) : rest('POST', '/invoices', input).then((a) => a.status);
        }),
      );
      const outcome = answers.map((a) => (a.status === 'rejected' ? 'error' : typeof a.value === 'number' ? a.value : 201));
      // refused: the even ones among i % 5 === 2 (2, 12, … 52) went through the instance with the filter
      expect(outcome.filter((o) => o === 201)).toHaveLength(54);
      expect(outcome.filter((o) => o !== 201)).toEqual(Array(6).fill(409));
      expect(await numbers('invoice')).toEqual(series('invoice', 54));
      // each creation's audit row came with it, none with a refused one
      const audited = await k.db.query<{ n: number }>(
        `select count(*)::int as n from billing_audit_log a join billing_documents d on a.object_id = d.id::text
          where a.action = 'invoice.create' and a.details->>'number' = d.number`,
      );
      expect(audited[0]!.n).toBe(54);
    } finally {
      off();
    }
  });

  it('over REST: the sequence and numbers given by hand at once, all answered 201 or 400', async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        rest('POST', '/invoices', { items: [item], ...(i % 4 === 1 ? { number: nth('invoice', (i + 3) / 2) } : {}) }),
      ),
    );
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.every((a) => a.status === 400 && a.body.code === 'billing_rest_number_taken')).toBe(true);
    expect(await numbers('invoice')).toEqual(series('invoice', 16 - refused.length));
  });

  it('credit notes: concurrent notes on several invoices pass over imported numbers', async () => {
    const invoices = await Promise.all(Array.from({ length: 4 }, () => k.api.invoices.create({ items: [item], status: 'available' }, ctx)));
    for (const n of [2, 5, 6, 11]) await importedCreditNote(nth('credit_note', n), invoices[0]!.id);
    const refused = await refusals(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? other.creditNotes : k.api.creditNotes).create(invoices[i % 4]!.id, { amount: 5, reason: `n${i}` }, ADMIN),
      ),
    );
    expect(refused).toEqual([]);
    expect(await numbers('credit_note')).toEqual(series('credit_note', 16));
  });
});
