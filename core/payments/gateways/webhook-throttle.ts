import { LRUCache } from 'lru-cache';
import type { SettingsDeclaration } from '../../options/option-map.ts';

declare module '../../options/option-map.ts' {
  interface OptionMap {
    gateway_webhook_max_refusals: number;
  }
}

/** The throttle's setting, declared by the payments module. */
export const WEBHOOK_THROTTLE_SETTINGS = {
  gateway_webhook_max_refusals: {
    type: 'integer',
    minimum: 1,
    maximum: 100_000,
    default: 20,
    description:
      'Webhook requests one client address may have refused in a minute (bad signature, naming no payment of ours) before it is turned away for a minute',
  },
} as const satisfies SettingsDeclaration;

/** The window, and how long an address that went over stays turned away. */
export const WEBHOOK_REFUSAL_WINDOW_MS = 60_000;
/** Addresses remembered at once: the least recently refused is forgotten first, so memory stays bounded. */
const MAX_ADDRESSES = 10_000;

interface Count {
  since: number;
  refused: number;
  /** Turned away until then (epoch ms), or 0. */
  until: number;
}

/**
 * Counts, per client address, the webhook requests that did no work: a bad signature, or an unsigned
 * delivery that is unreadable, names no payment of ours or reports nothing to apply. A gateway's own
 * deliveries verify and apply (or repeat what applied), so they are not counted; an address that sends
 * more than `gateway_webhook_max_refusals` of the others in a window is answered 429 before anything is
 * read, for a window. Kept in memory per
 * instance: what it bounds is this instance's work (signature checks, look-ups), and a count in the
 * database would itself be a write per anonymous request.
 */
export class WebhookThrottle {
  private readonly counts = new LRUCache<string, Count>({ max: MAX_ADDRESSES });
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Seconds until `address` may try again, or 0 when it may now. */
  blocked(address: string): number {
    const c = this.counts.peek(address);
    if (!c) return 0;
    const now = this.now();
    if (c.until > now) return Math.ceil((c.until - now) / 1000);
    return 0;
  }

  /** One more request of `address` that did no work; more than `limit` in the window turns it away. */
  refused(address: string, limit: number): void {
    const now = this.now();
    let c = this.counts.peek(address);
    if (!c || now - c.since > WEBHOOK_REFUSAL_WINDOW_MS) c = { since: now, refused: 0, until: 0 };
    c.refused++;
    if (c.refused > limit) c.until = now + WEBHOOK_REFUSAL_WINDOW_MS;
    // set marks it the most recently used: beyond MAX_ADDRESSES the least recently refused goes first
    this.counts.set(address, c);
  }
}
