import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_REFUSAL_WINDOW_MS, WebhookThrottle } from './webhook-throttle.ts';

describe('WebhookThrottle', () => {
  let now = 1_000_000;
  const throttle = () => new WebhookThrottle(() => now);

  it('turns an address away after more than `limit` refusals in a window, for a window', () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) t.refused('a', 3);
    expect(t.blocked('a')).toBe(0);
    t.refused('a', 3);
    expect(t.blocked('a')).toBe(WEBHOOK_REFUSAL_WINDOW_MS / 1000);
    expect(t.blocked('b')).toBe(0); // per address
    now += WEBHOOK_REFUSAL_WINDOW_MS / 2;
    expect(t.blocked('a')).toBe(WEBHOOK_REFUSAL_WINDOW_MS / 2000);
    now += WEBHOOK_REFUSAL_WINDOW_MS / 2 + 1;
    expect(t.blocked('a')).toBe(0);
  });

  it('forgets refusals older than the window', () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) t.refused('a', 3);
    now += WEBHOOK_REFUSAL_WINDOW_MS + 1;
    for (let i = 0; i < 3; i++) t.refused('a', 3);
    expect(t.blocked('a')).toBe(0);
  });

  it('remembers a bounded number of addresses, forgetting the least recent first', () => {
    const t = throttle();
    t.refused('first', 1);
    t.refused('first', 1);
    expect(t.blocked('first')).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) t.refused(`10.0.${i >> 8}.${i & 255}`, 1);
    expect(t.blocked('first')).toBe(0);
  });
});
