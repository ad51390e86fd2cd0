import type { Actor } from '../audit/audit.ts';
import { timestamp, type Database } from '../db/database.ts';
import { siteDateTime } from '../time/site-time.ts';

/** One attempt to send a mail, as the delivery log keeps it. */
export interface Delivery {
  id: number;
  document_id: number | null;
  payment_id: number | null;
  template: string;
  recipient: string;
  subject: string;
  transport: 'smtp' | 'outbox';
  result: 'sent' | 'failed';
  /** The SMTP server's final answer (`250 …` when taken, `550 …` when refused), or the outbox file. */
  response: string;
  /** Why it failed (the server's answer, or a connection error); null when sent. */
  error: string | null;
  message_id: string | null;
  actor: string;
  /** `Y-m-d H:i:s` in the site timezone. */
  time: string;
  duration_ms: number;
}

export interface DeliveryEntry {
  documentId: number | null;
  paymentId: number | null;
  template: string;
  recipient: string;
  subject: string;
  transport: 'smtp' | 'outbox';
  result: 'sent' | 'failed';
  response: string;
  error: string | null;
  messageId: string | null;
  actor: Actor;
  durationMs: number;
}

const COLUMNS = `id, document_id, payment_id, template, recipient, subject, transport, result, response, error, message_id,
  actor, attempted_at, duration_ms`;

function fromRow(r: Record<string, any>, timezone: string): Delivery {
  return {
    id: Number(r.id),
    document_id: r.document_id === null ? null : Number(r.document_id),
    payment_id: r.payment_id === null ? null : Number(r.payment_id),
    template: r.template,
    recipient: r.recipient,
    subject: r.subject,
    transport: r.transport,
    result: r.result,
    response: r.response,
    error: r.error,
    message_id: r.message_id,
    actor: r.actor,
    time: siteDateTime(timestamp(r.attempted_at)!, timezone),
    duration_ms: r.duration_ms,
  };
}

/**
 * Records an attempt on its own (not in a caller's transaction): the attempt happened whether or not
 * what follows it commits.
 */
export async function insertDelivery(db: Database, e: DeliveryEntry, timezone: string): Promise<Delivery> {
  const rows = await db.query(
    `insert into billing_mail_log (document_id, payment_id, template, recipient, subject, transport, result, response, error,
       message_id, actor_id, actor, duration_ms)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning ${COLUMNS}`,
    [
      e.documentId,
      e.paymentId,
      e.template,
      e.recipient,
      e.subject,
      e.transport,
      e.result,
      e.response.slice(0, 2000),
      e.error?.slice(0, 2000) ?? null,
      e.messageId,
      e.actor.id,
      e.actor.name,
      e.durationMs,
    ],
  );
  return fromRow(rows[0]!, timezone);
}

/** A document's attempts, newest first. */
export async function listDeliveries(db: Database, documentId: number, timezone: string): Promise<Delivery[]> {
  const rows = await db.query(`select ${COLUMNS} from billing_mail_log where document_id = $1 order by id desc`, [documentId]);
  return rows.map((r) => fromRow(r, timezone));
}
