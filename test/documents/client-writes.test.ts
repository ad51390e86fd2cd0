import { beforeAll, describe, expect, it } from '@jest/globals';
import { useService, type RestClient } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';

const svc = useService();
let admin: RestClient;
let viewer: RestClient;

beforeAll(async () => {
  admin = svc.rest(await svc.makeUser('owner', 'administrator'));
  viewer = svc.rest(await svc.makeUser('peek', 'billing_viewer'));
});

describe('POST /clients, GET|PUT /clients/{id}', () => {
  it('creates a client with its address and locale, reads it back, and changes only what is sent', async () => {
    const created = await admin.post('/clients', {
      name: 'Müller GmbH',
      email: 'rechnung@mueller.test',
      company: 'Müller',
      country: 'de',
      vat: 'DE123456789',
      address: 'Hauptstr. 1\n10115 Berlin',
      locale: 'DE-at',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${svc.kernel.config.baseUrl}/wp-json/billing/v1/clients/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: 'Müller GmbH',
      email: 'rechnung@mueller.test',
      country: 'DE',
      address: 'Hauptstr. 1\n10115 Berlin',
      locale: 'de-AT',
      counts: { invoices: 0, quotes: 0 },
    });
    const id = created.body.id as number;
    expect((await viewer.get(`/clients/${id}`)).body).toEqual(created.body);

    const changed = await admin.put(`/clients/${id}`, { locale: 'fr' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ locale: 'fr', address: 'Hauptstr. 1\n10115 Berlin', vat: 'DE123456789' });
    // a document made for it now prints in its language
    const inv = await admin.post('/invoices', { client_id: id, items: [{ name: 'Audit', quantity: 1, price: '10' }] });
    expect(inv.body.locale).toBe('fr');
    expect((await admin.put(`/clients/${id}`, { locale: null })).body.locale).toBeNull();
  });

  it('refuses a malformed locale, a missing name or e-mail, and a second client with the same e-mail, creating nothing', async () => {
    const before = Number((await admin.get('/clients')).headers.get('x-wp-total'));
    for (const body of [
      { name: 'X', email: 'x@example.com', locale: 'en_US' },
      { name: 'X', email: 'x@example.com', locale: 'x' },
      { email: 'x@example.com' },
      { name: 'X' },
      { name: 'X', email: 'not-an-email' },
    ]) {
      const res = await admin.post('/clients', body);
      expect([body, res.status]).toEqual([body, 400]);
    }
    expect((await admin.post('/clients', { name: 'A', email: 'same@example.com' })).status).toBe(201);
    expect((await admin.post('/clients', { name: 'B', email: 'same@example.com' })).status).toBe(409);
    expect(Number((await admin.get('/clients')).headers.get('x-wp-total'))).toBe(before + 1);
  });

  it('needs bill_edit_clients to write; an unknown client is 404', async () => {
    const c = await admin.post('/clients', { name: 'Scoped', email: 'scoped@example.com' });
    expect((await viewer.post('/clients', { name: 'No', email: 'no@example.com' })).status).toBe(403);
    expect((await viewer.put(`/clients/${c.body.id}`, { name: 'No' })).status).toBe(403);
    expect((await admin.get('/clients/999999')).status).toBe(404);
    expect((await admin.put('/clients/999999', { name: 'No' })).status).toBe(404);
    expect((await admin.get(`/clients/${c.body.id}`)).body.name).toBe('Scoped');
  });
});

describe('billing user create --locale --address', () => {
  it('makes a client whose documents print in its language', async () => {
    const res = await billing(svc.databaseUrl, [
      'user',
      'create',
      'rossi',
      '--email',
      'rossi@example.it',
      '--role',
      'billing_client',
      '--locale',
      'it',
      '--address',
      'Via Roma 1, Milano',
    ]);
    expect(res.stderr).toBe('');
    const id = Number(res.stdout.trim());
    expect((await admin.get(`/clients/${id}`)).body).toMatchObject({ locale: 'it', address: 'Via Roma 1, Milano' });
    const bad = await billing(svc.databaseUrl, [
      'user',
      'create',
      'bad',
      '--email',
      'bad@example.it',
      '--role',
      'billing_client',
      '--locale',
      'it_IT',
    ]);
    expect(bad.code).toBe(1);
  });
});
