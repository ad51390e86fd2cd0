import {
  durable,
  type BillingDocument,
  type ListenerDeclaration,
  type Payment,
  type PluginContext,
  type RestRepresentations,
} from '../../core/plugin-api.ts';
import { newEventId } from './signature.ts';

/** The events a subscription can ask for (docs/webhooks.md); `["*"]` asks for all of them. */
export const EVENTS = [
  'invoice.created',
  'invoice.updated',
  'invoice.sent',
  'invoice.status_changed',
  'invoice.paid',
  'invoice.trashed',
  'quote.created',
  'quote.sent',
  'quote.accepted',
  'quote.declined',
  'payment.completed',
  'payment.refunded',
  'payment.failed',
  'credit_note.created',
] as const;

export type EventName = (typeof EVENTS)[number];

/** The outbox topic of events: one row per event, written in the transaction of the change. */
export const EVENT_TOPIC = 'webhooks.event';

type Kind = 'invoice' | 'quote' | 'payment' | 'credit_note';

/** What the event row carries: its id and time, fixed once, and the object as it was at the event. */
export type EventRow = {
  event_id: string;
  type: EventName;
  timestamp: string;
  kind: Kind;
  object: Record<string, unknown>;
};

function event(type: EventName, kind: Kind, object: BillingDocument | Payment): EventRow {
  return { event_id: newEventId(), type, timestamp: new Date().toISOString(), kind, object: JSON.parse(JSON.stringify(object)) };
}

/**
 * One durable listener per event: the core writes the event row to the outbox inside the transaction
 * that fires the hook, so an event exists exactly when its change committed. Its id and timestamp are
 * fixed there, so every delivery and every retry of it carries the same `webhook-id`.
 */
export const EVENT_LISTENERS: ListenerDeclaration<PluginContext>[] = [
  durable('billing_invoice_created', EVENT_TOPIC, (_id, invoice) => event('invoice.created', 'invoice', invoice)),
  durable('billing_invoice_updated', EVENT_TOPIC, (_id, invoice) => event('invoice.updated', 'invoice', invoice)),
  durable('billing_invoice_sent', EVENT_TOPIC, (_id, invoice) => event('invoice.sent', 'invoice', invoice)),
  durable('billing_invoice_status_changed', EVENT_TOPIC, (_id, invoice) => event('invoice.status_changed', 'invoice', invoice)),
  durable('billing_invoice_status_changed', EVENT_TOPIC, (_id, invoice, _old, status) =>
    status === 'paid' ? event('invoice.paid', 'invoice', invoice) : null,
  ),
  durable('billing_invoice_trashed', EVENT_TOPIC, (_id, invoice) => event('invoice.trashed', 'invoice', invoice)),
  durable('billing_quote_created', EVENT_TOPIC, (_id, quote) => event('quote.created', 'quote', quote)),
  durable('billing_quote_sent', EVENT_TOPIC, (_id, quote) => event('quote.sent', 'quote', quote)),
  durable('billing_quote_accepted', EVENT_TOPIC, (_id, quote) => event('quote.accepted', 'quote', quote)),
  durable('billing_quote_declined', EVENT_TOPIC, (_id, quote) => event('quote.declined', 'quote', quote)),
  durable('billing_payment_completed', EVENT_TOPIC, (_id, _invoice, payment) => event('payment.completed', 'payment', payment)),
  durable('billing_payment_refunded', EVENT_TOPIC, (_id, _invoice, payment) => event('payment.refunded', 'payment', payment)),
  durable('billing_payment_failed', EVENT_TOPIC, (_id, _invoice, payment) => event('payment.failed', 'payment', payment)),
  durable('billing_credit_note_created', EVENT_TOPIC, (_id, _invoice, creditNote) =>
    event('credit_note.created', 'credit_note', creditNote),
  ),
];

const DATE_FIELDS = new Set(['date', 'createdAt', 'updatedAt', 'sentAt', 'first', 'last']);

/** The object of an event row with its Dates back, as the representations take it. */
function revive<T>(object: Record<string, unknown>): T {
  return JSON.parse(JSON.stringify(object), (key, v) => (DATE_FIELDS.has(key) && typeof v === 'string' ? new Date(v) : v)) as T;
}

/** The delivery body: `{id, type, timestamp, data}`, `data` being the REST representation at the event. */
export async function eventBody(row: EventRow, represent: RestRepresentations): Promise<string> {
  const data =
    row.kind === 'invoice'
      ? await represent.invoice(revive(row.object))
      : row.kind === 'quote'
        ? await represent.quote(revive(row.object))
        : row.kind === 'payment'
          ? await represent.payment(revive(row.object))
          : await represent.creditNote(revive(row.object));
  return JSON.stringify({ id: row.event_id, type: row.type, timestamp: row.timestamp, data });
}
