import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { WebhookReceiver } from '../../test/helpers/webhook-receiver.ts';
import { deliver } from './dispatch.ts';
import { newSecret } from './signature.ts';
import { checkUrl } from './url-guard.ts';

let receiver: WebhookReceiver;
let other: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  other = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.close();
  await other.close();
});

describe('one delivery', () => {
  it('connects to the address the guard checked, not to a new lookup of the name', async () => {
    // the system resolver knows no such name: only the pinned address can have been used
    const target = await checkUrl(`http://hooks.invalid:${receiver.port}/in`, {
      allowPrivate: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const secret = newSecret();
    const a = await deliver(target, secret, 'msg_1', '{"a":1}');
    expect(a).toMatchObject({ status: 200, error: null });
    const got = receiver.received.at(-1)!;
    expect(got.headers.host).toBe(`hooks.invalid:${receiver.port}`);
    expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual({ a: 1 });
  });

  it('does not follow a redirect', async () => {
    receiver.answer = () => ({ status: 307, headers: { location: other.url('/stolen') } });
    const before = other.received.length;
    const a = await deliver(await checkUrl(receiver.url(), { allowPrivate: true }), newSecret(), 'msg_2', '{}');
    receiver.answer = () => ({ status: 200 });
    expect(a.status).toBe(307);
    expect(a.error).toContain('not followed');
    expect(other.received.length).toBe(before);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const a = await deliver(await checkUrl(`http://127.0.0.1:${port}/`, { allowPrivate: true }), newSecret(), 'msg_3', '{}', 300);
    silent.close();
    expect(a).toMatchObject({ status: null, error: expect.stringContaining('no answer') });
  });
});
