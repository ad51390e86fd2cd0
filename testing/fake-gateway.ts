import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake gateway received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON or a form, when it is one. */
  json: any;
}

export type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> };
type Handler = (req: SeenRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * A payment gateway's API, faked as a real local HTTP server: tests declare its answers per route
 * (`on('POST /v1/checkout/sessions', …)`), read what the service sent (`seen`), make it fail with 500s
 * (`failing`), or stop it (`close`) to see the service meet an unreachable gateway.
 */
export class FakeGateway {
  readonly seen: SeenRequest[] = [];
  /** While set, every request is answered with this status (a gateway that is down but answering). */
  failing: number | null = null;
  private readonly routes = new Map<string, Handler>();
  private server: Server | null = null;

  on(route: string, handler: Handler): this {
    this.routes.set(route, handler);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** The requests to `METHOD /path`, oldest first. */
  requests(route: string): SeenRequest[] {
    const [method, path] = route.split(' ');
    return this.seen.filter((r) => r.method === method && r.path === path);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
    this.server = null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let json: any = null;
    try {
      json = body ? JSON.parse(body) : null;
    } catch {
      json = Object.fromEntries(new URLSearchParams(body));
    }
    const seen: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body, json };
    this.seen.push(seen);
    let answer: FakeAnswer;
    if (this.failing) {
      answer = { status: this.failing, body: { error: 'internal' } };
    } else {
      const handler =
        this.routes.get(`${seen.method} ${seen.path}`) ??
        [...this.routes].find(([k]) => {
          const [m, p] = k.split(' ');
          return m === seen.method && new RegExp(`^${p!.replace(/:[a-z_]+/g, '[^/]+')}$`).test(seen.path);
        })?.[1];
      answer = handler ? await handler(seen) : { status: 404, body: { error: 'not found' } };
    }
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
    res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/xml' : 'application/json', ...answer.headers });
    res.end(text);
  }
}

/**
 * Posts a gateway's webhook delivery to the service, as the gateway would: `body` exactly as given (a
 * signature covers its bytes), with the headers the gateway's signer computes from it.
 */
export async function deliver(
  serviceUrl: string,
  action: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${serviceUrl}/wp-admin/admin-ajax.php?action=${encodeURIComponent(action)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, body: parsed };
}
