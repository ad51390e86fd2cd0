import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { UNREAD_BODY_LIMIT } from '../../core/http/ajax/ajax-dispatcher.ts';
import { useService, Session } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let signedIn: Session;

beforeAll(async () => {
  k = svc.kernel;
  await svc.makeUser('clerk', 'administrator', 'clerk-pass-1');
  signedIn = new Session(svc.url);
  expect((await signedIn.signIn('clerk', 'clerk-pass-1')).status).toBe(302);
});

// A body that parsing answers in its own way (400 with billing_bad_request as JSON): if the answer is
// the visitor's plain `0` instead, the body was refused before anyone parsed it.
const unreadable = '{"a":'.repeat(180 * 1024);
const bigForm = (action: string) => `action=${action}&` + Array.from({ length: 5000 }, (_, i) => `f${i}=${'x'.repeat(30)}`).join('&');

async function post(b: Session | null, query: string, body: string, type: string) {
  const init = { method: 'POST', body, headers: { 'content-type': type } };
  const res = b ? await b.fetch(`/wp-admin/admin-ajax.php${query}`, init) : await fetch(`${k.url}/wp-admin/admin-ajax.php${query}`, init);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('admin-ajax bodies', () => {
  it('refuses a visitor a large body for an action that needs a user without parsing it', async () => {
    expect(unreadable.length).toBeGreaterThan(UNREAD_BODY_LIMIT);
    const res = await post(null, '?action=billing_save_invoice', unreadable, 'application/json');
    expect(res).toMatchObject({ status: 400, text: '0' });
    // the action named inside a large form body is found without parsing it
    const form = bigForm('billing_save_invoice');
    expect(form.length).toBeGreaterThan(UNREAD_BODY_LIMIT);
    expect(await post(null, '', form, 'application/x-www-form-urlencoded')).toMatchObject({ status: 400, text: '0' });
    // without an action it is not read either
    expect(await post(null, '', unreadable, 'application/json')).toMatchObject({ status: 400, text: '0' });
  });

  it("parses the same body for a signed-in user, and for a public action's visitor", async () => {
    const mine = await post(signedIn, '?action=billing_save_invoice', unreadable, 'application/json');
    expect(mine.status).toBe(400);
    expect(JSON.parse(mine.text)).toMatchObject({ success: false, data: { code: 'billing_bad_request' } });
    const visitor = await post(null, '?action=billing_accept_quote', unreadable, 'application/json');
    expect(visitor.status).toBe(400);
    expect(JSON.parse(visitor.text)).toMatchObject({ success: false, data: { code: 'billing_bad_request' } });
  });

  it('counts the fields of a form before parsing it: more than 10,000 is a 400', async () => {
    const many = 'action=billing_search_invoices&' + Array.from({ length: 10_001 }, (_, i) => `k${i}=1`).join('&');
    const res = await post(signedIn, '', many, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      success: false,
      data: { code: 'billing_bad_request', message: expect.stringContaining('10000') },
    });
  });

  it('still serves small bodies to visitors as before', async () => {
    expect(await post(null, '', 'action=billing_save_invoice', 'application/x-www-form-urlencoded')).toMatchObject({
      status: 400,
      text: '0',
    });
    const res = await post(null, '', 'action=billing_accept_quote&quote_id=1&token=short', 'application/x-www-form-urlencoded');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(res.text)).toMatchObject({ success: false });
  });
});
