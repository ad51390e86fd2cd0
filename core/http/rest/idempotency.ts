import { createHash } from 'node:crypto';
import type { Database, Tx } from '../../db/database.ts';
import type { Migration } from '../../db/migrations.ts';
import { withRideAlong, type RideAlong } from '../../db/ride-along.ts';
import { BillingError, isBillingError } from '../../errors.ts';
import { invalidParam } from '../../validation/invalid-param.ts';
import { restErrorBody } from '../error-bodies.ts';
import { RestResponse } from './route.ts';

/** The REST layer's own schema (owner `rest` in core/schema.ts). */
export const REST_MIGRATIONS: Migration[] = [
  {
    name: '0001_idempotency',
    up: `
      -- one row per (user, Idempotency-Key): the hash of the request it came with, and once answered,
      -- the answer to give again; written in the transaction of what the request created
      create table billing_idempotency (
        user_id bigint not null,
        key text not null,
        route text not null,
        request_hash text not null,
        status int,
        response jsonb,
        created_at timestamptz not null default now(),
        primary key (user_id, key)
      );
      create index billing_idempotency_created on billing_idempotency (created_at);
    `,
  },
];

/** How long a key is remembered (the cleanup job forgets older ones): as Stripe, a day at least. */
export const IDEMPOTENCY_KEEP_HOURS = 48;

/** How long a request waits for the answer of the same request sent at the same time, before a 409. */
const ANSWER_WAIT_MS = 5000;

interface Stored {
  route: string;
  request_hash: string;
  status: number | null;
  response: { data: unknown; headers: Record<string, string>; raw?: { contentType: string; body: string } } | null;
}

/**
 * `Idempotency-Key` on every REST POST of a signed-in caller (docs/security.md, Idempotency): the key
 * is stored per user with a hash of the request, in the first transaction the route's handler opens —
 * the one that creates the document, payment or credit note — so it exists exactly when the creation
 * does. The same key again with the same request answers the first answer (`Idempotent-Replayed: true`);
 * with another request, 409 `billing_rest_idempotency_mismatch`; while the first is still under way
 * (or if it ended without an answer), 409 `billing_conflict`. Requests without the header, and
 * visitors' requests, are not touched.
 */
export class Idempotency {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async run(
    call: { userId: number; header: string | string[] | undefined; route: string; request: unknown },
    handler: () => Promise<RestResponse>,
  ): Promise<RestResponse> {
    const key = idempotencyKey(call.header);
    if (key === undefined) return handler();
    const hash = requestHash(call.request);
    const prior = await this.answered(call.userId, key);
    if (prior) return answerFrom(prior, call.route, hash);

    // set by the ride-along from inside the handler's transactions
    const seen: { written: boolean; taken: boolean } = { written: false, taken: false };
    const ride: RideAlong = {
      join: async (tx: Tx) => {
        if (seen.written) return false;
        seen.written = true;
        // a concurrent request with the same key waits here for the first one's transaction to end
        const rows = await tx.query(
          `insert into billing_idempotency (user_id, key, route, request_hash) values ($1, $2, $3, $4)
           on conflict (user_id, key) do nothing returning key`,
          [call.userId, key, call.route, hash],
        );
        if (!rows.length) {
          seen.taken = true;
          throw new BillingError('billing_conflict', 'A request with this Idempotency-Key is under way.');
        }
        return true;
      },
      rolledBack: () => {
        seen.written = false;
      },
    };
    let out: RestResponse;
    try {
      out = await withRideAlong(ride, handler);
    } catch (err) {
      if (seen.taken) {
        // the same request sent twice at once: the first one's answer, once it has written it
        const now = await this.answered(call.userId, key);
        if (now) return answerFrom(now, call.route, hash);
      }
      // the key committed with a change, and then the request failed: the same failure is the answer again
      if (seen.written) await this.store(call.userId, key, restErrorAnswer(err));
      throw err;
    }
    if (seen.written) await this.store(call.userId, key, out);
    return out;
  }

  /** The row of a key another request has just committed, once it holds its answer (or as it is after a few seconds). */
  private async answered(userId: number, key: string): Promise<Stored | null> {
    const until = Date.now() + ANSWER_WAIT_MS;
    for (;;) {
      const row = await this.find(userId, key);
      if (!row || row.status !== null || Date.now() > until) return row;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private async find(userId: number, key: string): Promise<Stored | null> {
    const rows = await this.db.query<Stored>(
      'select route, request_hash, status, response from billing_idempotency where user_id = $1 and key = $2',
      [userId, key],
    );
    return rows[0] ?? null;
  }

  private async store(userId: number, key: string, out: RestResponse): Promise<void> {
    const response = {
      data: out.data,
      headers: out.headers,
      ...(out.raw ? { raw: { contentType: out.raw.contentType, body: out.raw.body.toString('base64') } } : {}),
    };
    await this.db.query('update billing_idempotency set status = $3, response = $4 where user_id = $1 and key = $2', [
      userId,
      key,
      out.status,
      JSON.stringify(response),
    ]);
  }
}

/** Forgets keys older than `hours` (the cleanup job). */
export async function pruneIdempotencyKeys(db: Database, hours = IDEMPOTENCY_KEEP_HOURS): Promise<number> {
  const rows = await db.query(`delete from billing_idempotency where created_at < now() - make_interval(hours => $1::int) returning 1`, [
    hours,
  ]);
  return rows.length;
}

function answerFrom(prior: Stored, route: string, hash: string): RestResponse {
  if (prior.route !== route || prior.request_hash !== hash) {
    throw new BillingError(
      'billing_rest_idempotency_mismatch',
      'This Idempotency-Key was used with another request: use a new key for a new request.',
    );
  }
  if (prior.status === null || !prior.response) {
    throw new BillingError('billing_conflict', 'A request with this Idempotency-Key is under way, or ended without an answer.');
  }
  const r = prior.response;
  const raw = r.raw ? { contentType: r.raw.contentType, body: Buffer.from(r.raw.body, 'base64') } : undefined;
  return new RestResponse(r.data, prior.status, { ...r.headers, 'Idempotent-Replayed': 'true' }, raw);
}

/** An error the route threw, as the response stored for its key (a replay answers the same). */
function restErrorAnswer(err: unknown): RestResponse {
  const { status, body, headers } = restErrorBody(isBillingError(err) ? err : null);
  return new RestResponse(body, status, headers);
}

/**
 * The header as payment APIs take it: 1–100 visible ASCII characters. The refund route also hands it to
 * the payment core, whose event keys make a retried refund count once even past this layer's 48 hours.
 */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !/^[\x21-\x7e]{1,100}$/.test(key))
    throw invalidParam('Idempotency-Key', 'The Idempotency-Key header must be 1 to 100 visible ASCII characters.');
  return key;
}

/** A hash of the request that does not depend on the order of its keys (a retry may serialise them anew). */
function requestHash(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(v: unknown): string {
  if (Buffer.isBuffer(v)) return JSON.stringify({ bytes: createHash('sha256').update(v).digest('hex') });
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
