import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { BillingError } from '../errors.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../log.ts';
import type { AjaxDispatcher } from './ajax/ajax-dispatcher.ts';
import { ajaxErrorBody, restErrorBody } from './error-bodies.ts';
import type { OwnedRegistry } from '../owned-registry.ts';
import type { RestServer } from './rest/rest-server.ts';

/** Request bodies above this are refused with 413 on every surface, but for a route that declares its own `bodyLimit`. */
export const BODY_LIMIT = '1mb';

export interface AppParts {
  db: Database;
  log: Logger;
  rest: RestServer;
  ajax: AjaxDispatcher;
  /** The units' routers (admin screens, public pages), tried in the order they were loaded. */
  routers?: OwnedRegistry<express.Router>;
  /** express's `trust proxy` (BILLING_TRUST_PROXY): which proxies may name the client's address. */
  trustProxy?: string;
}

/**
 * The express application: health, the REST server under /wp-json, admin-ajax, then whatever the core
 * modules mount. Body parsing is per surface: REST parses JSON (and forms, as WordPress does);
 * admin-ajax keeps the raw bytes, because webhook signatures are computed over exactly those.
 */
export function createApp(parts: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  if (parts.trustProxy) app.set('trust proxy', /^\d+$/.test(parts.trustProxy) ? Number(parts.trustProxy) : parts.trustProxy);
  app.use(requestLog(parts.log));

  app.get('/healthz', async (_req, res) => {
    const ok = await parts.db.ping();
    res.status(ok ? 200 : 503).json(ok ? { status: 'ok' } : { status: 'unavailable' });
  });

  // WordPress announces its REST API on every page; `WPAPI.discover(site)` starts with HEAD on the site root
  app.get('/', (_req, res) => {
    res.setHeader('Link', `<${parts.rest.baseUrl}/wp-json/>; rel="https://api.w.org/"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res
      .status(200)
      .type('text/html; charset=UTF-8')
      .end(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Billing</title></head>' +
          '<body><p><a href="/wp-admin/">Billing administration</a></p></body></html>',
      );
  });

  // both surfaces take the bytes and parse them themselves: REST once it knows the route and the
  // caller, admin-ajax once it knows the action (webhook signatures are computed over those bytes)
  app.use('/wp-json', restBody(parts.rest), parts.rest.handle, bodyErrors('rest'));
  app.all('/wp-admin/admin-ajax.php', express.raw({ limit: BODY_LIMIT, type: () => true }), parts.ajax.handle, bodyErrors('ajax'));
  // the routers of whatever is loaded now: a plugin's come and go without rebuilding the app
  const routers = parts.routers;
  if (routers) {
    app.use((req, res, next) => {
      const list = routers.values();
      let i = 0;
      const step = (err?: unknown): void => {
        if (err) return next(err);
        const router = list[i++];
        if (!router) return next();
        router(req, res, step);
      };
      step();
    });
  }

  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  app.use(((err, req, res, _next) => {
    // a client's mistake that reached no route (a malformed escape in the path: express answers 400)
    if (err?.status >= 400 && err?.status < 500) {
      if (!res.headersSent) res.status(err.status).type('text/plain').send('Bad Request');
      return;
    }
    parts.log.error({ err, path: req.path }, 'unhandled error');
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal Server Error');
  }) as ErrorRequestHandler);
  return app;
}

/**
 * REST bodies: 1 MiB, or the limit the request's route declares for the raw files it reads (an e-invoice
 * upload), for a caller allowed on that route.
 */
function restBody(rest: RestServer): RequestHandler {
  const parsers = new Map<number | string, RequestHandler>();
  const parser = (limit: number | string) => {
    let p = parsers.get(limit);
    if (!p) parsers.set(limit, (p = express.raw({ limit, type: () => true })));
    return p;
  };
  return (req, res, next) => {
    // most requests carry no body (every GET): they need no route lookup to learn their limit
    const carriesBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!carriesBody) return parser(BODY_LIMIT)(req, res, next);
    rest.bodyLimitOf(req).then(
      (limit) => parser(limit ?? BODY_LIMIT)(req, res, next),
      () => parser(BODY_LIMIT)(req, res, next),
    );
  };
}

/** Body parser failures in the surface's own error shape: 413 too large, 400 unreadable JSON. */
function bodyErrors(surface: 'rest' | 'ajax'): ErrorRequestHandler {
  return (err, _req, res, next) => {
    let e: BillingError | null = null;
    if (err?.type === 'entity.too.large') {
      e =
        surface === 'rest'
          ? new BillingError('rest_payload_too_large', 'The request body is too large.')
          : new BillingError('billing_payload_too_large', 'The request body is too large.');
    } else if (err?.type === 'entity.parse.failed') {
      e =
        surface === 'rest'
          ? new BillingError('rest_invalid_json', 'Invalid JSON body passed.')
          : new BillingError('billing_bad_request', 'The request body could not be read.');
    } else if (err?.status >= 400 && err?.status < 500) {
      e = new BillingError(
        surface === 'rest' ? 'rest_invalid_param' : 'billing_bad_request',
        'The request body could not be read.',
        {},
        err.status,
      );
    }
    if (!e) return next(err);
    const a = surface === 'rest' ? restErrorBody(e) : ajaxErrorBody(e);
    if (surface === 'rest') res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(a.status).type('application/json; charset=UTF-8').end(JSON.stringify(a.body));
  };
}

/** One JSON line per request: method, path (never the query string, where keys travel), status, time. */
function requestLog(log: Logger): RequestHandler {
  // this line's keys are the four below, none of them a secret's: it skips the redaction of the other
  // lines, whose wildcard paths cost a request more than its session check (docs/benchmarks.md)
  const lines = log.child({}, { redact: [] });
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      lines.info(
        { method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - start) / 1e6 },
        'request',
      );
    });
    next();
  };
}
