import type { Request } from 'express';
import type { Actor } from '../../audit/audit.ts';
import type { AuthUser, ObjectRef, UnscopedParams } from '../auth.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route argument: a JSON schema plus WordPress's `required` and `description`. */
export interface ArgSchema {
  type?: string | string[];
  required?: boolean;
  description?: string;
  default?: unknown;
  [keyword: string]: unknown;
}

/**
 * A REST route, declared as data. `path` is WordPress's regex form (named groups `(?P<id>[\d]+)`),
 * which is also the route's key in the `/wp-json/` index. `args` is the single source for validating
 * URL, query and body parameters, for the OPTIONS answer and for the docs.
 */
export interface RestRoute {
  namespace?: string;
  path: string;
  methods: HttpMethod | HttpMethod[];
  /**
   * The capability the route checks; `'read'` for any signed-in user. `null` makes a public route (as
   * WordPress's `__return_true`), allowed only outside `billing/v1`, where every route needs a user.
   */
  capability: string | null;
  /**
   * The objects the route names, each checked with the capability through the scoped resolver (see
   * ObjectRef), each when present: the resource of its path, and any object its body refers to.
   */
  object?: ObjectRef | readonly ObjectRef[];
  /** Object-like parameters that name nothing a scope governs, with why (see UnscopedParams). */
  unscoped?: UnscopedParams;
  args?: Record<string, ArgSchema>;
  /** The JSON schema of the resource, shown by OPTIONS. */
  schema?: object;
  /** Short description for the index. */
  description?: string;
  /**
   * What a success answers, for the OpenAPI document (core/openapi). Without it: a GET with a `schema`
   * answers that resource, as a paginated array when it takes `per_page`; anything else 200 JSON.
   */
  response?: RouteResponse;
  /** Content types the route reads as a raw body (`RestRequest.body`, a Buffer) instead of args. */
  requestTypes?: string[];
  /**
   * The largest raw body (one of `requestTypes`) the route takes, in bytes, when it needs more than every
   * route's 1 MiB (a file upload). Other bodies sent to it keep the 1 MiB limit.
   */
  bodyLimit?: number;
  handler(req: RestRequest): Promise<unknown>;
}

/** A route's success answer, declared as data beside its args. */
export interface RouteResponse {
  /** 200 by default; a list when a route answers either (a replayed create answers 200). */
  status?: number | number[];
  /** The body's JSON schema (a resource's `schema`, or a shape of its own, e.g. DELETE's). */
  schema?: object;
  /** The body is a page of `schema` items, with X-WP-Total, X-WP-TotalPages and Link. */
  collection?: boolean;
  /** A body that is not JSON (a PDF), by content type; each it may be (an attachment's download). */
  contentType?: string | readonly string[];
  /** Codes of core/errors.ts this route may answer beyond the ones every route of its kind does. */
  errors?: string[];
}

export interface RestRequest {
  method: HttpMethod;
  /** URL, query and body parameters, validated and coerced by the route's `args`. */
  params: Record<string, any>;
  /**
   * The parsed JSON body, for handlers that take more than their declared args; for an XML, PDF or
   * octet-stream body, its raw bytes as a Buffer (at most 1 MiB, or the route's `bodyLimit`).
   */
  body: unknown;
  headers: Request['headers'];
  /** The signed-in user; on a public route called without credentials, user 0 (`ANONYMOUS`). */
  user: AuthUser;
  actor: Actor;
  ip: string;
  /** The absolute URL of the request (for Link headers). */
  url: URL;
}

/** A handler may return plain data (200) or this, to choose status and headers. */
export class RestResponse {
  readonly data: unknown;
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Set for non-JSON answers (a PDF). */
  readonly raw?: { contentType: string; body: Buffer };
  /** Set for a download too large to hold in memory: streamed from disk, then deleted (`RestResponse.file`). */
  readonly file?: RestFile;

  constructor(
    data: unknown,
    status = 200,
    headers: Record<string, string> = {},
    raw?: { contentType: string; body: Buffer },
    file?: RestFile,
  ) {
    this.data = data;
    this.status = status;
    this.headers = headers;
    this.raw = raw;
    this.file = file;
  }

  /** A file on disk sent as a download named `name`, deleted once sent or abandoned (an export archive). */
  static file(path: string, contentType: string, name: string): RestResponse {
    return new RestResponse(null, 200, {}, undefined, { path, contentType, name });
  }
}

/** A temporary file answered as a download (`Content-Disposition: attachment`). */
export interface RestFile {
  path: string;
  contentType: string;
  name: string;
}
