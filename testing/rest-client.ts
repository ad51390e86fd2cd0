/** What a REST call answered: status, headers, the body parsed when it is JSON, its text and its bytes (a PDF). */
export interface RestAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  bytes: Buffer;
}

/** A body sent as it is, with its content type (a file, a form, malformed JSON). */
export interface RawBody {
  raw: string | Buffer;
  type: string;
}

/**
 * REST calls as one caller: Basic auth with an application password, or nobody. Paths are under the
 * service's namespace (`/invoices/1` → `/wp-json/billing/v1/invoices/1`) unless they start with
 * `/wp-json` or a scheme. Every body received is kept in `seen`, so a test can prove that a secret
 * (an access key) never left the server.
 */
export class RestClient {
  readonly seen: string[];
  readonly baseUrl: string;
  readonly authorization: string | null;

  constructor(baseUrl: string, authorization: string | null = null, seen: string[] = []) {
    this.baseUrl = baseUrl;
    this.authorization = authorization;
    this.seen = seen;
  }

  /** The same caller with other credentials, sharing `seen`. */
  as(authorization: string | null): RestClient {
    return new RestClient(this.baseUrl, authorization, this.seen);
  }

  url(path: string): string {
    if (/^https?:/.test(path)) return path;
    return `${this.baseUrl}${path.startsWith('/wp-json') ? '' : '/wp-json/billing/v1'}${path}`;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestAnswer> {
    const h: Record<string, string> = { ...(this.authorization ? { authorization: this.authorization } : {}), ...headers };
    let payload: string | Buffer | undefined;
    if (isRaw(body)) {
      h['content-type'] ??= body.type;
      payload = body.raw;
    } else if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(this.url(path), { method, headers: h, body: payload as BodyInit | undefined });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    this.seen.push(text);
    const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
    return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text, text, bytes };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PUT', path, body, headers);
  }
  patch(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PATCH', path, body, headers);
  }
  delete(path: string, headers?: Record<string, string>) {
    return this.request('DELETE', path, undefined, headers);
  }
}

function isRaw(body: unknown): body is RawBody {
  return typeof body === 'object' && body !== null && 'raw' in body && 'type' in body;
}
