/**
 * A small typed client for the Billing REST API, on types generated from its OpenAPI document:
 *
 *   npx openapi-typescript http://localhost:8080/wp-json/billing/v1/openapi.json -o docs/examples/billing-api.d.ts
 *
 * (with credentials: see docs/api.md, "A generated client"). Run it as a script to create an invoice
 * and list the first page:
 *
 *   BILLING_URL=http://localhost:8080 BILLING_USER=admin BILLING_APP_PASSWORD='abcd efgh …' node docs/examples/billing-client.ts
 *
 * test/http/openapi-client.test.ts generates the types from a running server, compiles this file
 * against them with tsc and runs it.
 */
import type { components, paths } from './billing-api.d.ts';

export type Invoice = components['schemas']['invoice'];
export type Payment = components['schemas']['payment'];
export type ApiError = components['schemas']['error'];
export type NewInvoice = paths['/billing/v1/invoices']['post']['requestBody']['content']['application/json'];
export type InvoiceQuery = NonNullable<paths['/billing/v1/invoices']['get']['parameters']['query']>;
export type NewPayment = paths['/billing/v1/invoices/{id}/payments']['post']['requestBody']['content']['application/json'];

/** A page of a collection, with what X-WP-Total and X-WP-TotalPages say. */
export interface Page<T> {
  items: T[];
  total: number;
  totalPages: number;
}

/** The WordPress-shaped error body, thrown as an Error with its code and HTTP status. */
export class BillingApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly body: ApiError;

  constructor(body: ApiError) {
    super(`${body.code}: ${body.message}`);
    this.code = body.code;
    this.status = body.data.status;
    this.body = body;
  }
}

export class BillingClient {
  private readonly base: string;
  private readonly authorization: string;

  constructor(siteUrl: string, login: string, applicationPassword: string) {
    this.base = `${siteUrl.replace(/\/+$/, '')}/wp-json`;
    this.authorization = `Basic ${Buffer.from(`${login}:${applicationPassword}`).toString('base64')}`;
  }

  async listInvoices(query: InvoiceQuery = {}): Promise<Page<Invoice>> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined) params.set(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    const res = await this.request('GET', `/billing/v1/invoices?${params}`);
    const items = (await res.json()) as paths['/billing/v1/invoices']['get']['responses']['200']['content']['application/json'];
    return { items, total: Number(res.headers.get('X-WP-Total')), totalPages: Number(res.headers.get('X-WP-TotalPages')) };
  }

  async createInvoice(invoice: NewInvoice): Promise<Invoice> {
    const res = await this.request('POST', '/billing/v1/invoices', invoice);
    return (await res.json()) as paths['/billing/v1/invoices']['post']['responses']['201']['content']['application/json'];
  }

  async getInvoice(id: number): Promise<Invoice> {
    return (await (await this.request('GET', `/billing/v1/invoices/${id}`)).json()) as Invoice;
  }

  /** Records a payment; `idempotencyKey` is not needed here: the same `transaction_id` records once. */
  async recordPayment(invoiceId: number, payment: NewPayment): Promise<Payment> {
    return (await (await this.request('POST', `/billing/v1/invoices/${invoiceId}/payments`, payment)).json()) as Payment;
  }

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: this.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new BillingApiError((await res.json()) as ApiError);
    return res;
  }
}

// run as a script: create an invoice, record a payment on it, list the first page
if (import.meta.url === `file://${process.argv[1]}`) {
  const client = new BillingClient(
    process.env.BILLING_URL ?? 'http://localhost:8080',
    process.env.BILLING_USER ?? 'admin',
    process.env.BILLING_APP_PASSWORD ?? '',
  );
  const invoice = await client.createInvoice({
    customer_name: 'Jane Roe',
    status: 'available',
    items: [{ name: 'Consulting', quantity: 3, price: 120 }],
  });
  const payment = await client.recordPayment(invoice.id, { amount: 60, method: 'cash', status: 'completed' });
  const page = await client.listInvoices({ per_page: 5, status: ['available', 'partial'] });
  console.log(
    JSON.stringify({
      created: invoice.number,
      paid: payment.amount,
      due: (await client.getInvoice(invoice.id)).totals.due,
      total: page.total,
      first: page.items.map((i) => i.number),
    }),
  );
}
