/** The page's nonces and endpoints, from the meta tags every admin screen carries (docs/identity.md). */
function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

/** A failure from the service, in words, with the per-field messages of `rest_invalid_param`. */
export class ApiError extends Error {
  readonly code: string;
  readonly params: Record<string, string>;
  constructor(code: string, message: string, params: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

function failure(body: any, status: number): ApiError {
  const data = body?.data ?? {};
  // WordPress's answers name parameters and speak ajv (`payment_terms_days must be >= 0`), not the labels
  // a person sees; each message is shown under the field it belongs to, so the field is "this value"
  const params: Record<string, string> = {};
  if (data.params && !Array.isArray(data.params))
    for (const [p, text] of Object.entries(data.params as Record<string, string>))
      params[p] = inWords(text.startsWith(`${p} `) ? `This value ${text.slice(p.length + 1)}` : text);
  const missing = Array.isArray(data.params) ? (data.params as string[]) : [];
  for (const p of missing) params[p] = 'This field is required.';
  const message = missing.length
    ? 'Some required fields are empty; they are marked below.'
    : (body?.message ?? data.message ?? `The request failed (HTTP ${status}).`);
  return new ApiError(body?.code ?? data.code ?? 'http_error', message, params);
}

const COMPARED: Record<string, string> = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' };

/** What a value of an ajv format (core/validation) is, for "must match format …". */
const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  uri: 'a web address (https://…)',
  date: 'a date (YYYY-MM-DD)',
  'date-ymd': 'a date (YYYY-MM-DD)',
  money: 'an amount (e.g. 12.50)',
  currency: 'a currency code (e.g. EUR)',
  country: 'a country code (e.g. DE)',
  timezone: 'a time zone (e.g. Europe/Berlin)',
};

/** ajv's comparisons and formats in words: "must be >= 0" → "must be at least 0". */
function inWords(text: string): string {
  return text
    .replace(/must be (>=|<=|>|<) (-?[\d.]+)/g, (_, op: string, n: string) => `must be ${COMPARED[op]} ${n}`)
    .replace(/must match format "([a-z-]+)"/g, (all, f: string) => (FORMATS[f] ? `must be ${FORMATS[f]}` : all));
}

/** An admin-ajax action with the page's `billing_admin` nonce; resolves to `data` or throws ApiError. */
export async function ajax<T = any>(action: string, fields: Record<string, string | number | undefined> = {}): Promise<T> {
  const body = new URLSearchParams({ action, _wpnonce: meta('billing-admin-nonce') });
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(meta('billing-ajax-url') || '/wp-admin/admin-ajax.php', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new ApiError('network', 'The service could not be reached. Check the connection and try again.');
  }
  const text = await res.text();
  if (text === '-1') throw new ApiError('expired', 'Your session has expired. Reload the page and sign in again.');
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('http_error', `The request failed (HTTP ${res.status}).`);
  }
  if (json?.success) return json.data as T;
  throw failure(json, res.status);
}

export interface Page<T> {
  items: T[];
  total: number;
  pages: number;
}

/** A REST call under /wp-json/billing/v1 with the page's `wp_rest` nonce. */
export async function rest<T = any>(
  path: string,
  init: { method?: string; body?: unknown; file?: { bytes: Blob; type: string } } = {},
): Promise<{ data: T; headers: Headers }> {
  const root = (meta('billing-rest-root') || '/wp-json/').replace(/^https?:\/\/[^/]+/, '');
  let res: Response;
  try {
    res = await fetch(`${root}billing/v1${path}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        'X-WP-Nonce': meta('billing-rest-nonce'),
        ...(init.file ? { 'Content-Type': init.file.type } : init.body ? { 'Content-Type': 'application/json' } : {}),
      },
      // a file goes as the raw body (what POST /einvoices/read takes), anything else as JSON
      body: init.file ? init.file.bytes : init.body ? JSON.stringify(init.body) : undefined,
    });
  } catch {
    throw new ApiError('network', 'The service could not be reached. Check the connection and try again.');
  }
  const json = await res.json().catch(() => null);
  if (!res.ok) throw failure(json, res.status);
  return { data: json as T, headers: res.headers };
}

/**
 * A file the service answers under /wp-json/billing/v1 (a PDF, an export archive), fetched with the
 * page's nonce — a plain link would carry no credentials — with the name the service gives it.
 */
export async function restFile(path: string): Promise<{ blob: Blob; name: string }> {
  const root = (meta('billing-rest-root') || '/wp-json/').replace(/^https?:\/\/[^/]+/, '');
  let res: Response;
  try {
    res = await fetch(`${root}billing/v1${path}`, { credentials: 'same-origin', headers: { 'X-WP-Nonce': meta('billing-rest-nonce') } });
  } catch {
    throw new ApiError('network', 'The service could not be reached. Check the connection and try again.');
  }
  if (!res.ok) throw failure(await res.json().catch(() => null), res.status);
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'download';
  return { blob: await res.blob(), name };
}

/** Saves a file the service answers, as the browser saves a download. */
export async function download(path: string): Promise<void> {
  const { blob, name } = await restFile(path);
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function restPage<T>(path: string, query: Record<string, string | number | undefined>): Promise<Page<T>> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const { data, headers } = await rest<T[]>(`${path}?${q}`);
  return { items: data, total: Number(headers.get('X-WP-Total') ?? data.length), pages: Number(headers.get('X-WP-TotalPages') ?? 1) };
}
