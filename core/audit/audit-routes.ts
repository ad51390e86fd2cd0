import type { AuditLog } from './services.ts';
import { timestamp } from '../db/database.ts';
import { COLLECTION_ARGS, collectionResponse } from '../http/rest/pagination.ts';
import type { RestRoute } from '../http/rest/route.ts';
import { siteDateTime } from '../time/site-time.ts';
import type { OptionsStore } from '../options/options.ts';

/** An audit log entry as `GET /audit-log` answers it (OPTIONS, the OpenAPI document, the response tests). */
export const AUDIT_ENTRY_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'audit-entry',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    at: { type: 'string', description: 'Y-m-d H:i:s in the site timezone' },
    actor: { type: 'string', description: 'A login, or cli, system, visitor' },
    actor_id: { type: ['integer', 'null'] },
    action: { type: 'string' },
    object_type: { type: 'string' },
    object_id: { type: ['string', 'null'] },
    details: { description: 'What changed (JSON)' },
    ip: { type: ['string', 'null'] },
  },
  required: ['id', 'at', 'actor', 'actor_id', 'action', 'object_type', 'object_id', 'details', 'ip'],
};

/** `GET /audit-log` (docs/identity.md: readable with `bill_view_audit_log`): who did what, when, from where. */
export function auditRoutes(log: AuditLog, options: OptionsStore): RestRoute[] {
  return [
    {
      path: '/audit-log',
      methods: 'GET',
      capability: 'bill_view_audit_log',
      description: 'The audit log, newest first.',
      schema: AUDIT_ENTRY_SCHEMA,
      // the log is the site's record, read whole by those who hold bill_view_audit_log
      unscoped: { object_id: 'filters the audit log by the id it recorded (any kind, as text): the log is read whole, not by scope' },
      args: {
        page: COLLECTION_ARGS.page,
        per_page: COLLECTION_ARGS.per_page,
        object_type: { type: 'string', maxLength: 40, description: 'invoice, quote, payment, option, plugin, user, …' },
        object_id: { type: 'string', maxLength: 100 },
        actor: { type: 'string', maxLength: 100, description: 'A login, or cli, system, visitor' },
        action: { type: 'string', maxLength: 60, description: 'e.g. invoice.create, plugin.activate' },
      },
      handler: async (req) => {
        const p = req.params;
        const { entries, total } = await log.read({
          page: p.page,
          per_page: p.per_page,
          object_type: p.object_type,
          object_id: p.object_id,
          actor: p.actor,
          action: p.action,
        });
        const timezone = await options.get('timezone');
        const items = entries.map((e) => ({
          id: Number(e.id),
          at: siteDateTime(timestamp(e.at as string)!, timezone),
          actor: e.actor,
          actor_id: e.actor_id === null ? null : Number(e.actor_id),
          action: e.action,
          object_type: e.object_type,
          object_id: e.object_id,
          details: e.details,
          ip: e.ip,
        }));
        return collectionResponse(req, items, total);
      },
    },
  ];
}
