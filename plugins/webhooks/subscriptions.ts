import {
  audit,
  BillingError,
  COLLECTION_ARGS,
  collectionResponse,
  pageWindow,
  RestResponse,
  siteDateTime,
  timestamp,
  type ArgSchema,
  type PluginContext,
  type RestRequest,
  type RestRoute,
} from '../../core/plugin-api.ts';
import { deliver } from './dispatch.ts';
import { EVENTS } from './events.ts';
import { newEventId, newSecret } from './signature.ts';
import { checkUrl } from './url-guard.ts';

interface SubscriptionRow {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
  created_at: string;
}

interface AttemptRow {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  result: string;
}

const ID_ARGS: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true, description: 'The subscription id.' } };

export const URL_ARG: ArgSchema = { type: 'string', minLength: 1, maxLength: 2048, description: 'An http(s) URL on a public host.' };
export const EVENTS_ARG: ArgSchema = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', enum: [...EVENTS, '*'] },
  description: 'Event names, or ["*"] for every event.',
};
export const ACTIVE_ARG: ArgSchema = { type: 'boolean', description: 'Paused subscriptions receive nothing.' };

const SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'webhook',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', items: { type: 'string', enum: [...EVENTS, '*'] } },
    active: { type: 'boolean' },
    created: { type: 'string', description: 'Y-m-d H:i:s in the site timezone.', readonly: true },
    secret: { type: 'string', description: 'whsec_…; in the creation response only.', readonly: true },
  },
};

const COLUMNS = 'id, url, events, active, secret, created_at';

/** A subscription as the API shows it: never its secret (that is in the creation answer only). */
function representation(row: SubscriptionRow, timezone: string) {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events,
    active: row.active,
    created: siteDateTime(timestamp(row.created_at)!, timezone),
  };
}

/** `["*"]` stands for every event; naming others beside it adds nothing. */
const normalizeEvents = (events: string[]) => (events.includes('*') ? ['*'] : events);

async function find(ctx: PluginContext, id: number): Promise<SubscriptionRow> {
  const [row] = await ctx.db.query<SubscriptionRow>(`select ${COLUMNS} from webhooks_subscriptions where id = $1`, [id]);
  if (!row) throw new BillingError('billing_rest_not_found', 'No webhook subscription has that id.');
  return row;
}

/** The guard as configured now (`webhooks_allow_private_hosts` is for development and tests only). */
export async function guard(ctx: PluginContext, url: string) {
  return checkUrl(url, { allowPrivate: await ctx.options.get('webhooks_allow_private_hosts') });
}

/** Stores one try and answers it as `/deliveries` lists it. */
export async function recordAttempt(
  ctx: PluginContext,
  a: {
    subscriptionId: number;
    eventId: string;
    type: string;
    attempt: number;
    status: number | null;
    durationMs: number;
    error: string | null;
    result: string;
  },
): Promise<AttemptRow> {
  const [row] = await ctx.db.query<AttemptRow>(
    `insert into webhooks_attempts (subscription_id, event_id, event_type, attempt, status_code, duration_ms, error, result)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     returning id, event_id, event_type, attempt, attempted_at, status_code, duration_ms, error, result`,
    [a.subscriptionId, a.eventId, a.type, a.attempt, a.status, a.durationMs, a.error?.slice(0, 1000) ?? null, a.result],
  );
  return row!;
}

function attemptRepresentation(row: AttemptRow, timezone: string) {
  return {
    id: Number(row.id),
    event_id: row.event_id,
    type: row.event_type,
    attempt: row.attempt,
    date: siteDateTime(timestamp(row.attempted_at)!, timezone),
    status: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    result: row.result,
  };
}

/** The REST routes of docs/webhooks.md, all behind `bill_manage_settings`. */
/** A subscription is a setting of the site (`bill_manage_settings`), no user's own: no scope governs its id. */
const SUBSCRIPTION = { id: "a webhook subscription: a site setting for those who manage settings, no user's own" };

export function subscriptionRoutes(ctx: PluginContext): RestRoute[] {
  const tz = () => ctx.options.get('timezone');
  const cap = 'bill_manage_settings';
  return [
    {
      path: '/webhooks',
      methods: 'GET',
      capability: cap,
      description: 'Webhook subscriptions, oldest first.',
      schema: SCHEMA,
      args: { page: COLLECTION_ARGS.page, per_page: COLLECTION_ARGS.per_page },
      handler: async (req: RestRequest) => {
        const { perPage, offset } = pageWindow(req.params);
        const [{ n }] = (await ctx.db.query<{ n: string }>('select count(*) as n from webhooks_subscriptions')) as [{ n: string }];
        const rows = await ctx.db.query<SubscriptionRow>(`select ${COLUMNS} from webhooks_subscriptions order by id limit $1 offset $2`, [
          perPage,
          offset,
        ]);
        const timezone = await tz();
        return collectionResponse(
          req,
          rows.map((r) => representation(r, timezone)),
          Number(n),
        );
      },
    },
    {
      path: '/webhooks',
      methods: 'POST',
      capability: cap,
      description: 'Subscribes a URL to events; the answer carries the signing secret, once.',
      schema: SCHEMA,
      args: { url: { ...URL_ARG, required: true }, events: { ...EVENTS_ARG, required: true }, active: { ...ACTIVE_ARG, default: true } },
      handler: async (req: RestRequest) => {
        const { url } = await guard(ctx, req.params.url);
        const secret = newSecret();
        const row = await ctx.db.transaction(async (tx) => {
          const [created] = await tx.query<SubscriptionRow>(
            `insert into webhooks_subscriptions (url, events, active, secret) values ($1, $2, $3, $4) returning ${COLUMNS}`,
            [url.href, JSON.stringify(normalizeEvents(req.params.events)), req.params.active, secret],
          );
          await audit(tx, req.actor, {
            action: 'webhook.create',
            objectType: 'webhook',
            objectId: created!.id,
            details: { url: url.href, events: created!.events },
          });
          return created!;
        });
        return new RestResponse({ ...representation(row, await tz()), secret }, 201, {
          Location: `${ctx.config.baseUrl}/wp-json/billing/v1/webhooks/${row.id}`,
        });
      },
    },
    {
      path: '/webhooks/(?P<id>[\\d]+)',
      methods: 'GET',
      capability: cap,
      unscoped: SUBSCRIPTION,
      schema: SCHEMA,
      args: ID_ARGS,
      handler: async (req: RestRequest) => representation(await find(ctx, req.params.id), await tz()),
    },
    {
      path: '/webhooks/(?P<id>[\\d]+)',
      methods: 'PUT',
      capability: cap,
      unscoped: SUBSCRIPTION,
      description: 'Changes the URL, the events or pauses (active: false); the secret stays.',
      schema: SCHEMA,
      args: { ...ID_ARGS, url: URL_ARG, events: EVENTS_ARG, active: ACTIVE_ARG },
      handler: async (req: RestRequest) => {
        const before = await find(ctx, req.params.id);
        const url = req.params.url === undefined ? before.url : (await guard(ctx, req.params.url)).url.href;
        const events = req.params.events === undefined ? before.events : normalizeEvents(req.params.events);
        const active = req.params.active ?? before.active;
        const row = await ctx.db.transaction(async (tx) => {
          const [updated] = await tx.query<SubscriptionRow>(
            `update webhooks_subscriptions set url = $2, events = $3, active = $4, updated_at = now() where id = $1 returning ${COLUMNS}`,
            [before.id, url, JSON.stringify(events), active],
          );
          if (!updated) throw new BillingError('billing_rest_not_found', 'No webhook subscription has that id.');
          await audit(tx, req.actor, {
            action: 'webhook.update',
            objectType: 'webhook',
            objectId: before.id,
            details: { url, events, active },
          });
          return updated;
        });
        return representation(row, await tz());
      },
    },
    {
      path: '/webhooks/(?P<id>[\\d]+)',
      methods: 'DELETE',
      capability: cap,
      unscoped: SUBSCRIPTION,
      description: 'Ends a subscription and its delivery log; deliveries not yet made are dropped.',
      args: ID_ARGS,
      handler: async (req: RestRequest) => {
        const row = await ctx.db.transaction(async (tx) => {
          const [deleted] = await tx.query<SubscriptionRow>(`delete from webhooks_subscriptions where id = $1 returning ${COLUMNS}`, [
            req.params.id,
          ]);
          if (!deleted) throw new BillingError('billing_rest_not_found', 'No webhook subscription has that id.');
          await audit(tx, req.actor, {
            action: 'webhook.delete',
            objectType: 'webhook',
            objectId: deleted.id,
            details: { url: deleted.url },
          });
          return deleted;
        });
        return { deleted: true, previous: representation(row, await tz()) };
      },
    },
    {
      path: '/webhooks/(?P<id>[\\d]+)/deliveries',
      methods: 'GET',
      capability: cap,
      unscoped: SUBSCRIPTION,
      description: 'Every delivery attempt to this subscription (time, HTTP status, duration, error), newest first.',
      args: { ...ID_ARGS, page: COLLECTION_ARGS.page, per_page: COLLECTION_ARGS.per_page },
      handler: async (req: RestRequest) => {
        const sub = await find(ctx, req.params.id);
        const { perPage, offset } = pageWindow(req.params);
        const [{ n }] = (await ctx.db.query<{ n: string }>('select count(*) as n from webhooks_attempts where subscription_id = $1', [
          sub.id,
        ])) as [{ n: string }];
        const rows = await ctx.db.query<AttemptRow>(
          `select id, event_id, event_type, attempt, attempted_at, status_code, duration_ms, error, result
             from webhooks_attempts where subscription_id = $1 order by id desc limit $2 offset $3`,
          [sub.id, perPage, offset],
        );
        const timezone = await tz();
        return collectionResponse(
          req,
          rows.map((r) => attemptRepresentation(r, timezone)),
          Number(n),
        );
      },
    },
    {
      path: '/webhooks/(?P<id>[\\d]+)/test',
      methods: 'POST',
      capability: cap,
      unscoped: SUBSCRIPTION,
      description: 'Sends one signed `webhook.test` event now and answers how the receiver took it (not retried).',
      args: ID_ARGS,
      handler: async (req: RestRequest) => {
        const sub = await find(ctx, req.params.id);
        const target = await guard(ctx, sub.url);
        const id = newEventId();
        const body = JSON.stringify({
          id,
          type: 'webhook.test',
          timestamp: new Date().toISOString(),
          data: { subscription_id: Number(sub.id) },
        });
        const a = await deliver(target, sub.secret, id, body);
        const row = await recordAttempt(ctx, {
          subscriptionId: Number(sub.id),
          eventId: id,
          type: 'webhook.test',
          attempt: 1,
          status: a.status,
          durationMs: a.durationMs,
          error: a.error,
          result: a.error === null ? 'delivered' : 'failed',
        });
        return attemptRepresentation(row, await tz());
      },
    },
  ];
}
