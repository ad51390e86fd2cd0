import { createHmac } from 'node:crypto';
import * as realCrypto from 'node:crypto';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';

/**
 * Every secret is compared in constant time (issue 3). Timing cannot be measured reliably on a shared
 * machine, so this shows it by behaviour instead: `crypto.timingSafeEqual` is replaced by a recording
 * stand-in, and each credential check must (a) hand both values to it and (b) take its answer — so a
 * stand-in that says "equal" makes a wrong secret pass. A check that compared with `===` would do neither.
 */
const calls: Array<[string, string]> = [];
let answer: boolean | null = null;

jest.unstable_mockModule('node:crypto', () => ({
  ...realCrypto,
  default: realCrypto,
  timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    calls.push([
      Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'),
      Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex'),
    ]);
    return answer ?? realCrypto.timingSafeEqual(a, b);
  },
}));

let safeEqual: typeof import('../../core/identity/safe-equal.ts').safeEqual;
let nonces: typeof import('../../core/identity/nonces.ts');
let passwords: typeof import('../../core/identity/passwords.ts');
let gateway: typeof import('../fixtures/plugins/example-gateway/index.ts').default;

beforeAll(async () => {
  ({ safeEqual } = await import('../../core/identity/safe-equal.ts'));
  nonces = await import('../../core/identity/nonces.ts');
  passwords = await import('../../core/identity/passwords.ts');
  gateway = (await import('../fixtures/plugins/example-gateway/index.ts')).default;
});

/** Runs `check` with a stand-in that answers `equal`, and reports whether it was asked and what the check said. */
async function decidedBy<T>(check: () => T | Promise<T>, equal: boolean | null = null): Promise<{ asked: number; result: T }> {
  calls.length = 0;
  answer = equal;
  try {
    const result = await check();
    return { asked: calls.length, result };
  } finally {
    answer = null;
  }
}

const KEY = Buffer.alloc(32, 7);

describe('constant-time comparison of secrets', () => {
  it('safeEqual compares by content, any length, and only through timingSafeEqual for equal lengths', async () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('é', 'e')).toBe(false);
    expect(await decidedBy(() => safeEqual('abc', 'abd'), true)).toEqual({ asked: 1, result: true });
  });

  it('nonces: a wrong nonce is refused by timingSafeEqual, which alone decides', async () => {
    const good = nonces.createNonce(KEY, 'wp_rest', 5, 'token', 1_700_000_000_000);
    const wrong = good.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const honest = await decidedBy(() => nonces.verifyNonce(KEY, wrong, 'wp_rest', 5, 'token', 1_700_000_000_000));
    expect(honest.result).toBe(0);
    expect(honest.asked).toBeGreaterThan(0);
    expect((await decidedBy(() => nonces.verifyNonce(KEY, wrong, 'wp_rest', 5, 'token', 1_700_000_000_000), true)).result).not.toBe(0);
  });

  it('passwords: the scrypt hashes are compared by timingSafeEqual, which alone decides', async () => {
    const stored = await passwords.hashPassword('correct horse');
    const honest = await decidedBy(() => passwords.verifyPassword('wrong horse', stored));
    expect([honest.result, honest.asked]).toEqual([false, 1]);
    expect((await decidedBy(() => passwords.verifyPassword('wrong horse', stored), true)).result).toBe(true);
  });

  it('gateway signatures (the worked example, through the plugin API helper)', async () => {
    const provider = gateway.gateways![0 as never] as any;
    const raw = Buffer.from('{"id":"evt_1"}');
    const ctx = { settings: { example_gateway_secret: 's3cret' } } as any;
    const right = createHmac('sha256', 's3cret').update(raw).digest('hex');
    const wrong = createHmac('sha256', 'other').update(raw).digest('hex');
    const delivery = (sig: string) => ({ raw, headers: { 'x-example-signature': sig }, query: {}, receivedAt: new Date() });
    expect((await decidedBy(() => provider.verify(delivery(right), ctx))).result).toBe(true);
    const honest = await decidedBy(() => provider.verify(delivery(wrong), ctx));
    expect([honest.result, honest.asked]).toEqual([false, 1]);
    expect(calls[0]).toEqual([Buffer.from(wrong).toString('hex'), Buffer.from(right).toString('hex')]);
    expect((await decidedBy(() => provider.verify(delivery(wrong), ctx), true)).result).toBe(true);
  });
});
