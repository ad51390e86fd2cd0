import { BillingError, type OutboxItem, type PluginContext } from '../../core/plugin-api.ts';
import { deliver } from './dispatch.ts';
import { EVENT_TOPIC, eventBody, type EventRow } from './events.ts';
import { guard, recordAttempt } from './subscriptions.ts';

/** The outbox topic of one event's delivery to one subscription. */
export const DELIVERY_TOPIC = 'webhooks.deliver';

/** Tries per delivery: the first, then after 30 s, 2 min, 10 min, 30 min, 1 h, 2 h and 4 h (about 8 h in all). */
export const DELIVERY_ATTEMPTS = 8;
const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000];
export const deliveryBackoff = (attempt: number) => RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;

/**
 * An event row, after its change committed: the subscriptions that want it now each get a delivery
 * item, written with the event's body in one transaction. The body is made once (the REST
 * representation of the object as it was at the event) and stored, so every try sends the same bytes.
 * Item keys are (event, subscription): this handler repeated after a crash adds nothing.
 */
async function fanOut(item: OutboxItem, ctx: PluginContext): Promise<void> {
  const row = item.payload as EventRow;
  const subs = await ctx.db.query<{ id: string; events: string[] }>('select id, events from webhooks_subscriptions where active');
  const wanted = subs.filter((s) => s.events.includes('*') || s.events.includes(row.type));
  if (!wanted.length) return;
  const body = await eventBody(row, ctx.api.representations);
  await ctx.db.transaction(async (tx) => {
    await tx.query('insert into webhooks_events (id, type, body) values ($1, $2, $3) on conflict (id) do nothing', [
      row.event_id,
      row.type,
      body,
    ]);
    for (const s of wanted) {
      await ctx.outbox.enqueue(
        tx,
        DELIVERY_TOPIC,
        { event_id: row.event_id, subscription_id: Number(s.id) },
        { key: `webhook:${row.event_id}:${s.id}` },
      );
    }
  });
}

/**
 * One try of one delivery. The guard runs again first (the name may resolve elsewhere now); a refusal
 * is final. Otherwise a non-2xx answer, a redirect or no answer in 10 s is retried by the outbox with
 * the delays above, and the last failure marks the item failed. Every try is in the delivery log.
 */
async function deliverOne(item: OutboxItem, ctx: PluginContext): Promise<void> {
  const { event_id: eventId, subscription_id: subscriptionId } = item.payload as { event_id: string; subscription_id: number };
  // deleted or paused since the event (or the event forgotten): nothing is owed
  const [row] = await ctx.db.query<{ url: string; secret: string; type: string; body: string }>(
    `select s.url, s.secret, e.type, e.body from webhooks_subscriptions s join webhooks_events e on e.id = $2 where s.id = $1 and s.active`,
    [subscriptionId, eventId],
  );
  if (!row) return;
  let outcome: { status: number | null; durationMs: number; error: string | null };
  let retryable = true;
  try {
    outcome = await deliver(await guard(ctx, row.url), row.secret, eventId, row.body);
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    outcome = { status: null, durationMs: 0, error: err.message };
    retryable = false;
  }
  const last = item.attempt >= DELIVERY_ATTEMPTS;
  const result = outcome.error === null ? 'delivered' : retryable && !last ? 'retrying' : 'failed';
  await recordAttempt(ctx, { subscriptionId, eventId, type: row.type, attempt: item.attempt, ...outcome, result });
  if (outcome.error !== null && retryable) throw new Error(`webhook ${eventId} to subscription ${subscriptionId}: ${outcome.error}`);
}

export function webhookQueues(ctx: PluginContext) {
  return [
    {
      topic: EVENT_TOPIC,
      description: 'An event: one delivery per subscription that wants it',
      handle: (item: OutboxItem) => fanOut(item, ctx),
    },
    {
      topic: DELIVERY_TOPIC,
      description: 'One signed POST of an event to one subscription, retried with growing delays',
      attempts: DELIVERY_ATTEMPTS,
      backoff: deliveryBackoff,
      // a lane per subscription: a receiver that hangs for the full timeout holds two of the topic's
      // eight slots on each instance, and the other subscriptions keep theirs
      concurrency: 8,
      lanes: { by: 'subscription_id', concurrency: 2 },
      handle: (item: OutboxItem) => deliverOne(item, ctx),
    },
  ];
}

/** Event bodies and tries older than this are forgotten by `billing_webhooks_cleanup`. */
export const KEEP_DAYS = 30;

export async function cleanup(ctx: PluginContext): Promise<{ events: number; attempts: number }> {
  const attempts = await ctx.db.query(`delete from webhooks_attempts where attempted_at < now() - make_interval(days => $1) returning id`, [
    KEEP_DAYS,
  ]);
  // an event still owed to someone stays: its delivery item would have nothing to send
  const events = await ctx.db.query(
    `delete from webhooks_events e where created_at < now() - make_interval(days => $1)
        and not exists (select 1 from billing_outbox o where o.topic = $2 and o.status = 'pending' and o.payload->>'event_id' = e.id)
      returning id`,
    [KEEP_DAYS, DELIVERY_TOPIC],
  );
  return { events: events.length, attempts: attempts.length };
}
