import { BillingError } from '../../errors.ts';
import { RestResponse, type ArgSchema, type RestRequest } from './route.ts';

/**
 * WordPress's collection parameters (docs/api.md), for a route's `args`: `page` ≥ 1 (default 1),
 * `per_page` 1–100 (default 10; 101 is a 400 `rest_invalid_param` from the schema), `search`.
 */
export const COLLECTION_ARGS = Object.freeze({
  page: { type: 'integer', minimum: 1, default: 1, description: 'Current page of the collection.' },
  per_page: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 10,
    description: 'Maximum number of items to be returned in result set.',
  },
  search: { type: 'string', description: 'Limit results to those matching a string.' },
} satisfies Record<string, ArgSchema>);

export interface PageWindow {
  page: number;
  perPage: number;
  /** For SQL: `limit $perPage offset $offset`. */
  offset: number;
}

/** The window a collection request asks for (its `page` and `per_page`, validated by COLLECTION_ARGS). */
export function pageWindow(params: Record<string, unknown>): PageWindow {
  const page = Number.isInteger(params.page) && (params.page as number) >= 1 ? (params.page as number) : 1;
  const perPage = Number.isInteger(params.per_page) && (params.per_page as number) >= 1 ? Math.min(params.per_page as number, 100) : 10;
  return { page, perPage, offset: (page - 1) * perPage };
}

/**
 * The answer to a collection request: the items as a JSON array, `X-WP-Total`, `X-WP-TotalPages` and
 * `Link` with `rel="prev"` / `rel="next"` URLs that keep every query parameter. A page past the last
 * (when there are results) is 400 `billing_rest_invalid_page_number`; no results is `[]` with 0 and 0.
 */
export function collectionResponse(req: RestRequest, items: unknown[], total: number, status = 200): RestResponse {
  const { page, perPage } = pageWindow(req.params);
  const totalPages = total > 0 ? Math.ceil(total / perPage) : 0;
  if (total > 0 && page > totalPages) {
    throw new BillingError('billing_rest_invalid_page_number', 'The page number requested is larger than the number of pages available.');
  }
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  const links: string[] = [];
  if (page > 1) links.push(`<${withPage(req.url, Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${withPage(req.url, page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return new RestResponse(items, status, headers);
}

function withPage(url: URL, page: number): string {
  const u = new URL(url);
  u.searchParams.set('page', String(page));
  return u.toString();
}
