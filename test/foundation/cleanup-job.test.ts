import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;

beforeAll(async () => {
  k = svc.kernel;
});

const count = async (sql: string) => (await k.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`))[0]!.n;

describe('billing_expired_cleanup', () => {
  it('deletes expired quote tokens, expired sessions, spent sign-in counts and old Idempotency-Keys, and nothing live', async () => {
    const quote = await k.api.quotes.create(
      { items: [{ name: 'Website', quantity: 1, price: 2500 }], customer_name: 'Zoë Quinn', status: 'available' },
      { actor: CLI, source: 'api' },
    );
    // every view of the public quote page mints one of these: 50 views, 30 of them long ago
    for (let i = 0; i < 50; i++) await k.api.quotes.mintToken(quote.id);
    await k.db.query(
      `update billing_quote_tokens set expires_at = now() - interval '1 day'
        where token_hash in (select token_hash from billing_quote_tokens order by token_hash limit 30)`,
    );

    // sessions of a user who never signs in again: only a sign-in swept them before
    await svc.makeUser('gone', 'billing_viewer', 'gone-pass-1');
    for (let i = 0; i < 3; i++) {
      expect(await k.identity.signIn('gone', 'gone-pass-1', { remember: false, ip: '127.0.0.1', userAgent: null })).not.toBeNull();
    }
    await k.db.query(
      `update billing_sessions set expires_at = now() - interval '1 hour'
        where token_hash in (select token_hash from billing_sessions order by token_hash limit 2)`,
    );

    await k.db.query(`insert into billing_signin_failures (key, failures, first_at, locked_until) values
      ('form:account:old', 5, now() - interval '2 hours', now() - interval '1 hour'),
      ('form:address:live', 5, now(), now() + interval '10 minutes')`);
    await k.db.query(`insert into billing_idempotency (user_id, key, route, request_hash, created_at) values
      (1, 'old', 'POST /x', 'h', now() - interval '3 days'), (1, 'new', 'POST /x', 'h', now())`);

    const outcome = await k.jobs.runNow('billing_expired_cleanup');
    expect(outcome).toMatchObject({
      ran: true,
      status: 'succeeded',
      result: { quote_tokens: 30, sessions: 2, signin_failures: 1, idempotency_keys: 1 },
    });
    expect(await count('billing_quote_tokens where expires_at > now()')).toBe(20);
    expect(await count('billing_quote_tokens')).toBe(20);
    expect(await count('billing_sessions')).toBe(1);
    expect((await k.db.query<{ key: string }>('select key from billing_signin_failures')).map((r) => r.key)).toEqual(['form:address:live']);
    expect((await k.db.query<{ key: string }>('select key from billing_idempotency')).map((r) => r.key)).toEqual(['new']);

    // run again: nothing left to delete
    expect(await k.jobs.runNow('billing_expired_cleanup')).toMatchObject({
      result: { quote_tokens: 0, sessions: 0, signin_failures: 0, idempotency_keys: 0 },
    });
  });
});
