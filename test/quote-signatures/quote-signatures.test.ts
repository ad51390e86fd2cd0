import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { billing } from '../helpers/cli.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import pngjs from 'pngjs';
import { pngBytes, pngDataUrl } from './png-fixture.ts';
import { badFilterPng, duplicateHeaderPng } from '../security/hostile-files.ts';
import { contentSha256 } from '../../plugins/quote-signatures/signatures.ts';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { cleanPng } from '../../core/images/clean-png.ts';
import { BillingError } from '../../core/errors.ts';
import { SIGNATURE_BOUNDS } from '../../plugins/quote-signatures/png.ts';

const svc = useService();
let k: Kernel;
let admin: TestUser;
const UA = 'Mozilla/5.0 (signature test)';

async function ajax(fields: Record<string, string>) {
  const res = await fetch(`${k.url}/wp-admin/admin-ajax.php`, {
    method: 'POST',
    headers: { 'user-agent': UA },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

async function fetchText(path: string) {
  const res = await fetch(`${k.url}${path}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const tokenOf = (page: string) => /name="token"\s+value="([^"]+)"/.exec(page)?.[1] ?? null;

/** An open quote and its public page as the customer opens it. */
async function openQuote(name = 'Zoë Quinn', locale = 'en') {
  const quote = await k.api.quotes.create(
    {
      items: [{ name: 'Website', quantity: 1, price: 2500 }],
      locale,
      customer_name: name,
      customer_email: 'zoe@example.com',
      status: 'available',
      expiry_date: '2099-01-01',
    } as never,
    { actor: CLI, source: 'api' },
  );
  const key = await k.api.quotes.accessKey(quote.id);
  const page = await fetchText(`/billing/quote/${quote.id}?key=${encodeURIComponent(key)}`);
  expect(page.status).toBe(200);
  return { quote, key, page: page.text, token: tokenOf(page.text)! };
}

const signatureRows = (quoteId: number) => k.db.query('select * from quote_signatures where quote_id = $1', [quoteId]);

async function unchanged(quoteId: number) {
  const quote = await k.api.quotes.get(quoteId);
  expect(quote.status).toBe('available');
  expect(quote.accepted).toBeNull();
  expect(quote.invoiceId).toBeNull();
  expect(await signatureRows(quoteId)).toEqual([]);
}

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('owner', 'administrator');
  const activated = await billing(svc.databaseUrl, ['plugin', 'activate', 'quote-signatures']);
  expect(activated.code).toBe(0);
  await waitFor(() => k.plugins.isLoaded('quote-signatures'), { what: 'quote-signatures to load' });
}, 60_000);

beforeEach(async () => {
  await k.options.set('quote_signature_required', true, CLI);
});

// after useService's afterAll: the image checkers outlive the service
afterAll(() => closeBoundedWorkers());

describe('the public quote page', () => {
  it('has the pad and a name field inside the Accept form, with the pad’s script from this service', async () => {
    const { page } = await openQuote();
    const accept = /<form[^>]*data-billing-answer="accept">([\s\S]*?)<\/form>/.exec(page)![1]!;
    expect(accept).toContain('<canvas id="signature-pad"');
    expect(accept).toContain('name="signature"');
    expect(accept).toMatch(/name="signer_name"[^>]*required/);
    const src = /<script src="([^"]+)" defer><\/script>/.exec(accept)![1]!;
    expect(src.startsWith('/')).toBe(true); // same origin: the page's script-src 'self' allows it
    const script = await fetchText(src);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.text).toContain("toDataURL('image/png')");
  });
});

describe('accepting with a signature, over HTTP', () => {
  it('stores it with the content hash, shows "Signed by" on the quote and its invoice, pages and PDFs', async () => {
    const { quote, key, token } = await openQuote();
    const signed: unknown[] = [];
    k.hooks.addAction(
      'billing_quote_signed' as never,
      ((id: number, _q: unknown, s: unknown) => {
        if (id === quote.id) signed.push(s);
      }) as never,
    );
    const image = pngBytes(600, 180);
    const res = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token,
      signature: pngDataUrl(image),
      signer_name: '  Zoë   Quinn ',
    });
    expect(res).toMatchObject({ status: 200, body: { success: true, data: { quote_id: quote.id, status: 'accepted' } } });
    const invoiceId = res.body.data.invoice_id as number;
    expect(invoiceId).toBeGreaterThan(0);

    const [row] = await signatureRows(quote.id);
    const stored = row!.image as Buffer;
    expect(row).toMatchObject({
      signer_name: 'Zoë Quinn',
      user_agent: UA,
      image_sha256: createHash('sha256').update(stored).digest('hex'),
    });
    expect(row!.ip).toMatch(/127\.0\.0\.1/);
    // what is kept is the image decoded and encoded again: the same pixels, none of the sender's bytes
    expect(pngjs.PNG.sync.read(stored).data.equals(pngjs.PNG.sync.read(image).data)).toBe(true);

    // the representation's accepted gains the signature
    const body = (await svc.rest(admin).get(`/quotes/${quote.id}`)).body as { accepted: { signature: Record<string, string> } };
    expect(body.accepted.signature).toEqual({
      signer_name: 'Zoë Quinn',
      signed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      content_sha256: row!.content_sha256,
    });
    expect(row!.content_sha256).toMatch(/^[0-9a-f]{64}$/);
    await waitFor(() => signed.length === 1, { what: 'the signed hook to fire once' });
    expect(signed[0]).toEqual(body.accepted.signature);
    const line = `Signed by Zoë Quinn on ${body.accepted.signature.signed_at}`;

    // the quote's page and PDF
    const page = await fetchText(`/billing/quote/${quote.id}?key=${encodeURIComponent(key)}`);
    expect(page.text).toContain(line);
    expect(page.text).toContain(`src="data:image/png;base64,${stored.toString('base64')}"`);
    expect(page.text).not.toContain('id="signature-pad"'); // accepted: no form any more
    const quotePdf = await fetch(`${k.url}/billing/quote/${quote.id}/pdf?key=${encodeURIComponent(key)}`);
    expect(quotePdf.status).toBe(200);
    expect((await pdfText(new Uint8Array(await quotePdf.arrayBuffer()))).text).toContain(line);

    // the invoice made from it: page and PDF
    const invoiceKey = await k.api.invoices.accessKey(invoiceId);
    const invoicePage = await fetchText(`/billing/invoice/${invoiceId}?key=${encodeURIComponent(invoiceKey)}`);
    expect(invoicePage.text).toContain(line);
    const invoicePdf = await svc.rest(admin).get(`/invoices/${invoiceId}/pdf`);
    expect(invoicePdf.status).toBe(200);
    expect((await pdfText(new Uint8Array(invoicePdf.bytes))).text).toContain(line);
  }, 60_000);

  it('stores the hash of the quote as it was signed: one per content', async () => {
    const a = await openQuote('Same Person');
    const b = await openQuote('Same Person');
    for (const q of [a, b]) {
      const r = await ajax({
        action: 'billing_accept_quote',
        quote_id: String(q.quote.id),
        token: q.token,
        signature: pngDataUrl(pngBytes(300, 90)),
        signer_name: 'S P',
      });
      expect(r.status).toBe(200);
    }
    const [ra] = await signatureRows(a.quote.id);
    const [rb] = await signatureRows(b.quote.id);
    // the hash of exactly the content the customer saw; different numbers: different content
    expect(ra!.content_sha256).toBe(contentSha256(a.quote));
    expect(rb!.content_sha256).toBe(contentSha256(b.quote));
    expect(ra!.content_sha256).not.toBe(rb!.content_sha256);
  });
});

describe('refusals: 400 billing_signature_required, nothing written, the token still good', () => {
  it('refuses accepting without a signature or without a name while it is required', async () => {
    const { quote, token } = await openQuote();
    const missing: Record<string, string>[] = [
      {},
      { signer_name: 'Zoë Quinn' },
      { signature: pngDataUrl(pngBytes(600, 180)) },
      { signature: '', signer_name: '' },
    ];
    for (const fields of missing) {
      const res = await ajax({ action: 'billing_accept_quote', quote_id: String(quote.id), token, ...fields });
      expect(res).toMatchObject({ status: 400, body: { success: false, data: { code: 'billing_signature_required' } } });
      await unchanged(quote.id);
    }
    // the same one-time token still works once the customer signs
    const ok = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token,
      signature: pngDataUrl(pngBytes(600, 180)),
      signer_name: 'Zoë Quinn',
    });
    expect(ok.status).toBe(200);
  });

  it('says why it refuses in the quote’s language (the page shows the message in its answer box)', async () => {
    const { quote, token } = await openQuote('Zoë Quinn', 'de');
    const refused = async (fields: Record<string, string>) =>
      (await ajax({ action: 'billing_accept_quote', quote_id: String(quote.id), token, ...fields })).body.data.message;
    expect(await refused({})).toBe('Bitte unterschreiben Sie im Feld und geben Sie Ihren Namen ein, um dieses Angebot anzunehmen.');
    expect(await refused({ signer_name: 'Zoë Quinn' })).toBe('Bitte unterschreiben Sie im Feld, um dieses Angebot anzunehmen.');
    expect(await refused({ signature: pngDataUrl(pngBytes(600, 180)) })).toBe('Bitte geben Sie neben Ihrer Unterschrift Ihren Namen ein.');
    expect(await refused({ signature: pngDataUrl(pngBytes(600, 180)), signer_name: 'x'.repeat(201) })).toBe(
      'Der Name darf höchstens 200 Zeichen lang sein.',
    );
    await unchanged(quote.id);
  });

  it('refuses a signature over 200 KB, not a PNG, or of the wrong dimensions', async () => {
    const { quote, token } = await openQuote();
    const big = pngBytes(300, 200, { noise: true });
    expect(big.length).toBeGreaterThan(200 * 1024);
    const bad = [
      pngDataUrl(big),
      `data:image/jpeg;base64,${Buffer.from('not a png').toString('base64')}`,
      `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`,
      pngDataUrl(pngBytes(3000, 20)),
    ];
    for (const signature of bad) {
      const res = await ajax({ action: 'billing_accept_quote', quote_id: String(quote.id), token, signature, signer_name: 'Zoë Quinn' });
      expect(res).toMatchObject({ status: 400, body: { success: false, data: { code: 'billing_signature_required' } } });
      expect(res.body.data.message).toMatch(/signature is not accepted/);
      await unchanged(quote.id);
    }
    const [{ n }] = await k.db.query<{ n: string }>(`select count(*) as n from billing_documents where kind = 'invoice'`);
    const again = await ajax({ action: 'billing_decline_quote', quote_id: String(quote.id), token });
    expect(again.status).toBe(200); // the token was never spent by the refusals
    const [{ n: after }] = await k.db.query<{ n: string }>(`select count(*) as n from billing_documents where kind = 'invoice'`);
    expect(after).toBe(n);
  });

  it('accepts without a signature when it is optional, but still refuses a bad one', async () => {
    await k.options.set('quote_signature_required', false, CLI);
    const { quote, token, page } = await openQuote();
    expect(page).toContain('Signature (optional)');
    const bad = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token,
      signature: 'data:image/png;base64,AAAA',
      signer_name: 'Zoë',
    });
    expect(bad.status).toBe(400);
    await unchanged(quote.id);
    const res = await ajax({ action: 'billing_accept_quote', quote_id: String(quote.id), token, signature: '', signer_name: '' });
    expect(res.status).toBe(200);
    const accepted = await k.api.quotes.get(quote.id);
    expect(accepted.status).toBe('accepted');
    expect(accepted.accepted).not.toHaveProperty('signature');
    expect(await signatureRows(quote.id)).toEqual([]);
  });
});

describe('bounded refusals and verified images', () => {
  it('spends the page’s token after five refused signatures: the page must be opened again', async () => {
    const { quote, key, token } = await openQuote();
    const bad = [duplicateHeaderPng(), badFilterPng(), pngBytes(3000, 20), duplicateHeaderPng(), badFilterPng()];
    for (const [i, image] of bad.entries()) {
      const res = await ajax({
        action: 'billing_accept_quote',
        quote_id: String(quote.id),
        token,
        signature: pngDataUrl(image),
        signer_name: 'Zoë',
      });
      expect([i, res.status, res.body.data.code]).toEqual([i, 400, 'billing_signature_required']);
    }
    // a sixth try, even with a good signature, finds the token spent: nothing is decoded any more
    const spent = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token,
      signature: pngDataUrl(pngBytes(600, 180)),
      signer_name: 'Zoë',
    });
    expect(spent).toMatchObject({ status: 403, body: { data: { code: 'billing_invalid_token' } } });
    await unchanged(quote.id);
    // the page again: a fresh token, and the customer can sign
    const page = await fetchText(`/billing/quote/${quote.id}?key=${encodeURIComponent(key)}`);
    const ok = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token: tokenOf(page.text)!,
      signature: pngDataUrl(pngBytes(600, 180)),
      signer_name: 'Zoë',
    });
    expect(ok.status).toBe(200);
  }, 60_000);

  it('answers 503 billing_busy with Retry-After when every image checker is busy, and does not charge the token', async () => {
    const { quote, token } = await openQuote();
    // a drawing checked nowhere before (a checked one is remembered, and needs no checker)
    const signature = pngDataUrl(pngBytes(601, 181));
    // the image checkers of this process taken up by other work (each a different large drawing, none remembered)
    const drawings = Array.from({ length: 40 }, (_, i) => pngBytes(1999 - i, 1000));
    const flood = drawings.map((d) => cleanPng(d, SIGNATURE_BOUNDS).catch((e: BillingError) => e.code));
    const res = await fetch(`${k.url}/wp-admin/admin-ajax.php`, {
      method: 'POST',
      body: new URLSearchParams({
        action: 'billing_accept_quote',
        quote_id: String(quote.id),
        token,
        signature,
        signer_name: 'Busy',
      }),
    });
    expect(await Promise.all(flood)).toContain('billing_busy');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ success: false, data: { code: 'billing_busy' } });
    await unchanged(quote.id);
    // once they are free, the same token takes the signature
    const again = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token,
      signature,
      signer_name: 'Busy',
    });
    expect(again.status).toBe(200);
  }, 120_000);

  it('leaves a stored image that fails its check out of the quote’s and the invoice’s PDFs, which still render', async () => {
    const { quote, key, token } = await openQuote('Stored Before');
    const res = await ajax({
      action: 'billing_accept_quote',
      quote_id: String(quote.id),
      token,
      signature: pngDataUrl(pngBytes(600, 180)),
      signer_name: 'Stored Before',
    });
    expect(res.status).toBe(200);
    const invoiceId = res.body.data.invoice_id as number;
    // images stored before they were re-encoded (or altered in the database): a render must not trust them
    for (const image of [badFilterPng(), duplicateHeaderPng()]) {
      await k.db.query('update quote_signatures set image = $2 where quote_id = $1', [quote.id, image]);
      const started = Date.now();
      const quotePdf = await fetch(`${k.url}/billing/quote/${quote.id}/pdf?key=${encodeURIComponent(key)}`);
      const quoteBytes = Buffer.from(await quotePdf.arrayBuffer());
      const invoicePdf = await svc.rest(admin).get(`/invoices/${invoiceId}/pdf`);
      expect([quotePdf.status, invoicePdf.status]).toEqual([200, 200]);
      expect(Date.now() - started).toBeLessThan(20_000);
      for (const pdf of [quoteBytes, invoicePdf.bytes]) {
        const { text } = await pdfText(new Uint8Array(pdf));
        expect(text).toContain('Signed by Stored Before');
        expect(text).toContain('the drawn signature cannot be shown');
      }
    }
  }, 90_000);
});

describe('deactivated', () => {
  it('leaves the page and the accept action as the core has them, and keeps the signatures', async () => {
    const signed = await openQuote();
    expect(
      (
        await ajax({
          action: 'billing_accept_quote',
          quote_id: String(signed.quote.id),
          token: signed.token,
          signature: pngDataUrl(pngBytes(200, 60)),
          signer_name: 'Kept',
        })
      ).status,
    ).toBe(200);
    expect((await billing(svc.databaseUrl, ['plugin', 'deactivate', 'quote-signatures'])).code).toBe(0);
    await waitFor(() => !k.plugins.isLoaded('quote-signatures'), { what: 'quote-signatures to unload' });
    try {
      const { quote, token, page } = await openQuote();
      expect(page).not.toContain('signature-pad');
      const res = await ajax({ action: 'billing_accept_quote', quote_id: String(quote.id), token });
      expect(res.status).toBe(200);
      expect(await signatureRows(signed.quote.id)).toHaveLength(1);
      const key = await k.api.quotes.accessKey(signed.quote.id);
      expect((await fetchText(`/billing/quote/${signed.quote.id}?key=${encodeURIComponent(key)}`)).text).not.toContain('Signed by');
    } finally {
      await billing(svc.databaseUrl, ['plugin', 'activate', 'quote-signatures']);
      await waitFor(() => k.plugins.isLoaded('quote-signatures'), { what: 'quote-signatures to load again' });
    }
  }, 30_000);
});
