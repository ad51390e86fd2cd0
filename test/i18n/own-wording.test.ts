import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService, type RestClient } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService();
const cli = (...args: string[]) => billing(svc.databaseUrl, args, { BASE_URL: svc.kernel.config.baseUrl });
let a: Kernel;
let b: Kernel;
let admin: RestClient;
let viewer: RestClient;

/** A German client's invoice, opened on instance `k`: its page's title and its PDF's text. */
async function germanInvoice() {
  const client = await a.identity.users.create(
    { login: `kunde-${Math.random().toString(36).slice(2, 8)}`, email: `k${Date.now()}@example.com`, role: 'billing_client', locale: 'de' },
    CLI,
  );
  const res = await admin.post('/invoices', {
    client_id: client.id,
    status: 'available',
    items: [{ name: 'Beratung', quantity: 1, price: '100' }],
  });
  expect(res.status).toBe(201);
  const key = await a.api.invoices.accessKey(res.body.id);
  return {
    number: res.body.number as string,
    title: async (k: Kernel) =>
      /<title>([^<]*)<\/title>/.exec(await (await fetch(`${k.url}/billing/invoice/${res.body.id}?key=${key}`)).text())![1],
    pdf: async (k: Kernel) =>
      (await pdfText(new Uint8Array(await (await fetch(`${k.url}/billing/invoice/${res.body.id}/pdf?key=${key}`)).arrayBuffer()))).text,
  };
}

const overrideOf = (body: { keys: Array<{ key: string; override: string | null }> }, key: string) =>
  body.keys.find((e) => e.key === key)?.override;

beforeAll(async () => {
  a = svc.kernel;
  // a second instance on the same database, serving HTTP on its own port
  b = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => b.stop());
  admin = svc.rest(await svc.makeUser('owner', 'administrator'));
  viewer = svc.rest(await svc.makeUser('peek', 'billing_viewer'));
});

describe('GET|PUT /translations/{locale}', () => {
  it('lists every key with its shipped text and the override; only for bill_manage_settings', async () => {
    const res = await admin.get('/translations/de');
    expect(res.status).toBe(200);
    expect(res.body.locale).toBe('de');
    expect(res.body.keys).toContainEqual({ key: 'document.invoice', text: 'Rechnung', override: null });
    expect(res.body.keys).toContainEqual({ key: 'document.service_period', text: 'Leistungszeitraum', override: null });
    expect((await viewer.get('/translations/de')).status).toBe(403);
    expect((await viewer.put('/translations/de', { 'document.invoice': 'X' })).status).toBe(403);
    expect((await admin.get('/translations/pt')).status).toBe(400);
  });

  it('refuses an unknown key, a dropped or added placeholder, a broken message and a text too long, changing nothing', async () => {
    for (const body of [
      { 'document.nope': 'x' },
      { 'document.invoice_number': 'Faktura' },
      { 'document.invoice_number': 'Faktura {number} {customer}' },
      { 'document.invoice_number': 'Faktura {number' },
      { 'document.invoice_number': `{number} ${'x'.repeat(2001)}` },
      { 'document.invoice': 'Faktura', 'document.quote_number': 'Offerte' },
    ]) {
      const res = await admin.put('/translations/de', body);
      expect([Object.keys(body), res.status, res.body.code]).toEqual([Object.keys(body), 400, 'rest_invalid_param']);
    }
    const after = await admin.get('/translations/de');
    expect(overrideOf(after.body, 'document.invoice')).toBeNull();
    expect(overrideOf(after.body, 'document.invoice_number')).toBeNull();
  });

  it('sets an override that holds on another instance at its next request, and clears it with null', async () => {
    const inv = await germanInvoice();
    expect(await inv.title(b)).toBe(`Rechnung ${inv.number}`);
    expect(await inv.pdf(b)).toContain(`Rechnung ${inv.number}`);

    const set = await admin.put('/translations/de', { 'document.invoice_number': 'Faktura Nr. {number}', 'document.invoice': 'Faktura' });
    expect(set.status).toBe(200);
    expect(overrideOf(set.body, 'document.invoice_number')).toBe('Faktura Nr. {number}');
    // instance b renders it at once: a page and a PDF
    expect(await inv.title(b)).toBe(`Faktura Nr. ${inv.number}`);
    expect(await inv.pdf(b)).toContain(`Faktura Nr. ${inv.number}`);
    expect(await inv.pdf(b)).toContain('FAKTURA');
    // other languages keep their shipped text
    expect((await b.translations.translator('fr')).t('document.invoice')).toBe('Facture');

    const cleared = await admin.put('/translations/de', { 'document.invoice_number': null, 'document.invoice': null });
    expect(overrideOf(cleared.body, 'document.invoice_number')).toBeNull();
    expect(await inv.title(b)).toBe(`Rechnung ${inv.number}`);
  });
});

describe('billing translations export / import', () => {
  it('exports what prints, imports the same JSON (shipped texts are no overrides), and refuses a broken file whole', async () => {
    const exported = JSON.parse((await cli('translations', 'export', 'nl', '--format', 'json')).stdout);
    expect(exported['document.invoice']).toBe('Factuur');
    const dir = mkdtempSync(join(tmpdir(), 'translations-'));
    const file = join(dir, 'nl.json');
    writeFileSync(file, JSON.stringify({ ...exported, 'document.invoice': 'Rekening' }));
    const imported = await cli('translations', 'import', 'nl', file);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('1 overrides of nl');
    const listed = (await admin.get('/translations/nl')).body;
    expect(listed.keys.filter((e: { override: string | null }) => e.override !== null)).toEqual([
      { key: 'document.invoice', text: 'Factuur', override: 'Rekening' },
    ]);
    expect(JSON.parse((await cli('translations', 'export', 'nl', '--format', 'json')).stdout)['document.invoice']).toBe('Rekening');

    writeFileSync(file, JSON.stringify({ 'document.invoice': 'Nota', 'pay.nothing_left': 'Niets meer' }));
    const bad = await cli('translations', 'import', 'nl', file);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/pay\.nothing_left must use exactly the placeholders/);
    expect(overrideOf((await admin.get('/translations/nl')).body, 'document.invoice')).toBe('Rekening');
  });
});
