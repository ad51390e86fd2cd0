import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { basic, bootKernel, Session, useService, waitFor, type TestUser } from '../../testing/index.ts';

// Two instances on one database: every count and every lock must hold on both.
const svc = useService();
let a: Kernel;
let b: Kernel;
let vera: TestUser;

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => b.stop());
  vera = await svc.makeUser('vera', 'billing_viewer', 'vera-pass-1');
  await svc.makeUser('sam', 'billing_viewer', 'sam-pass-1');
});

/** Sets the limits, and waits until both instances see them. */
async function limits(account: number, address: number): Promise<void> {
  await a.options.set('signin_max_failures_account', account, CLI);
  await a.options.set('signin_max_failures_address', address, CLI);
  const seen = async (k: Kernel) => {
    const o = await k.options.getMany(['signin_max_failures_account', 'signin_max_failures_address']);
    return o.signin_max_failures_account === account && o.signin_max_failures_address === address;
  };
  await waitFor(async () => (await seen(a)) && (await seen(b)), { what: 'both instances to see the limits' });
}

beforeEach(async () => {
  await a.db.query('delete from billing_signin_failures');
  await a.options.set('signin_lockout_seconds', 600, CLI);
  await limits(3, 100);
});

/** The login form posted from a chosen loopback address (127.0.0.2 is another client to the server). */
function signInFrom(k: Kernel, from: string, log: string, pwd: string): Promise<{ status: number; body: string; retryAfter?: string }> {
  const url = new URL('/wp-login.php', k.url);
  const body = new URLSearchParams({ log, pwd }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, retryAfter: res.headers['retry-after'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const me = (k: Kernel, authorization: string) => fetch(`${k.url}/wp-json/billing/v1/users/me`, { headers: { authorization } });

describe('sign-in throttling on the login form', () => {
  it('locks an account after its failures on any instance, with the message and Retry-After, and refuses even the right password', async () => {
    expect((await new Session(a.url).signIn('vera', 'wrong-1')).status).toBe(200);
    // the e-mail is the same account as the login
    expect((await new Session(b.url).signIn('vera@example.com', 'wrong-2')).status).toBe(200);
    const third = await new Session(a.url).signIn('VERA', 'wrong-3');
    expect(third.status).toBe(429);
    const retry = Number(third.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(500);
    expect(retry).toBeLessThanOrEqual(600);
    const page = await third.text();
    expect(page).toContain('id="loginform"');
    expect(page).toContain('Too many failed sign-in attempts. Please try again in 10 minutes.');

    // the other instance refuses too, the right password included, and no password is hashed for it
    const checks = a.identity.signInStats.passwordChecks + b.identity.signInStats.passwordChecks;
    const right = await new Session(b.url).signIn('vera', 'vera-pass-1');
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(new Session(b.url).cookies.size).toBe(0);
    for (let i = 0; i < 5; i++) expect((await new Session(a.url).signIn('vera', `guess-${i}`)).status).toBe(429);
    expect(a.identity.signInStats.passwordChecks + b.identity.signInStats.passwordChecks).toBe(checks);
    // refused attempts are not counted: the lock does not grow
    const [row] = await a.db.query<{ failures: number }>(`select failures from billing_signin_failures where key like 'form:account:%'`);
    expect(row!.failures).toBe(3);

    // another account is not affected
    expect((await new Session(a.url).signIn('sam', 'sam-pass-1')).status).toBe(302);
  });

  it('opens again when the lock has run out, and a success starts the account afresh', async () => {
    for (let i = 0; i < 3; i++) await new Session(a.url).signIn('vera', `wrong-${i}`);
    expect((await new Session(a.url).signIn('vera', 'vera-pass-1')).status).toBe(429);
    // the lock runs out (moved, not waited for)
    await a.db.query(`update billing_signin_failures set locked_until = now() - interval '1 second'`);
    expect((await new Session(b.url).signIn('vera', 'vera-pass-1')).status).toBe(302);
    expect(await a.db.query(`select 1 from billing_signin_failures where key like 'form:account:%'`)).toEqual([]);
    // two failures after the success do not lock yet
    for (let i = 0; i < 2; i++) expect((await new Session(a.url).signIn('vera', `wrong-${i}`)).status).toBe(200);
    expect((await new Session(a.url).signIn('vera', 'vera-pass-1')).status).toBe(302);
  });

  it('locks a client address that fails on many accounts, and only that address', async () => {
    await limits(100, 4);
    const names = ['nobody', 'admin', 'vera', 'root'];
    const answers = [];
    for (const [i, name] of names.entries()) answers.push((await signInFrom(i % 2 ? a : b, '127.0.0.1', name, 'password')).status);
    expect(answers).toEqual([200, 200, 200, 429]);
    const locked = await signInFrom(a, '127.0.0.1', 'sam', 'sam-pass-1');
    expect(locked.status).toBe(429);
    expect(locked.body).toContain('Too many failed sign-in attempts');
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    // the same account from another address signs in
    const elsewhere = await signInFrom(b, '127.0.0.2', 'sam', 'sam-pass-1');
    expect(elsewhere.status).toBe(302);
  });

  it('never lets one address keep more than two password checks under way on an instance', async () => {
    await limits(1000, 1000);
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => new Session(a.url).signIn(`user${i}`, 'guess')));
    for (const s of statuses) expect([200, 429]).toContain(s.status);
    for (const s of statuses.filter((x) => x.status === 429)) {
      expect(s.headers.get('retry-after')).toBe('1');
      expect(await s.text()).toContain('Too many sign-in attempts at once');
    }
    expect(a.identity.signInStats.mostAtOnce).toBeLessThanOrEqual(2);
  });
});

describe('application-password (Basic) throttling', () => {
  it('answers 429 in the REST shape once a name has failed too often, on every instance; the right password still works', async () => {
    const wrong = basic('vera', 'abcd efgh ijkl mnop qrst uvwx');
    expect((await me(a, wrong)).status).toBe(401);
    expect((await me(b, wrong)).status).toBe(401);
    const third = await me(a, wrong);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await third.json()) as { code: string; message: string; data: { status: number; retry_after: number } };
    expect(body).toMatchObject({ code: 'billing_too_many_attempts', data: { status: 429 } });
    expect(body.message).toContain('Too many failed sign-in attempts');
    expect(body.data.retry_after).toBe(Number(third.headers.get('retry-after')));
    expect((await me(b, wrong)).status).toBe(429);
    // a stranger's guesses do not cut off the integration that holds the real password
    expect((await me(b, vera.authorization)).status).toBe(200);
    // nor do they lock the owner out of the login form (each door counts on its own)
    expect((await new Session(a.url).signIn('vera', 'vera-pass-1')).status).toBe(302);
  });
});
