/** How many webhook requests one client address may have refused in a window before it is turned away. */
export const WEBHOOK_REFUSALS_PER_WINDOW = 20;
/** The window, and how long an address that went over stays turned away. */
export const WEBHOOK_REFUSAL_WINDOW_MS = 60_000;
/** Addresses remembered at once: the oldest is forgotten first, so the map cannot grow without bound. */
const MAX_ADDRESSES = 10_000;

interface Count {
  since: number;
  refused: number;
  /** Turned away until then (epoch ms), or 0. */
  until: number;
}

/**
 * Counts, per client address, the webhook requests that did no work: a bad signature, or an unsigned
 * delivery that names no payment of ours or changes nothing. A gateway's own deliveries verify and
 * apply, so they are not counted; an address that sends more than `WEBHOOK_REFUSALS_PER_WINDOW` of the
 * others in a window is answered 429 before anything is read, for a window. Kept in memory per
 * instance: what it bounds is this instance's work (signature checks, look-ups), and a count in the
 * database would itself be a write per anonymous request.
 */
export class WebhookThrottle {
  private readonly counts = new Map<string, Count>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Seconds until `address` may try again, or 0 when it may now. */
  blocked(address: string): number {
    const c = this.counts.get(address);
    if (!c) return 0;
    const now = this.now();
    if (c.until > now) return Math.ceil((c.until - now) / 1000);
    return 0;
  }

  /** One more request of `address` that did no work. */
  refused(address: string): void {
    const now = this.now();
    let c = this.counts.get(address);
    if (!c || now - c.since > WEBHOOK_REFUSAL_WINDOW_MS) {
      this.counts.delete(address);
      c = { since: now, refused: 0, until: 0 };
    } else {
      // re-inserted: the map's order is the order of last use, so the oldest goes first below
      this.counts.delete(address);
    }
    c.refused++;
    if (c.refused > WEBHOOK_REFUSALS_PER_WINDOW) c.until = now + WEBHOOK_REFUSAL_WINDOW_MS;
    this.counts.set(address, c);
    while (this.counts.size > MAX_ADDRESSES) this.counts.delete(this.counts.keys().next().value!);
  }
}
