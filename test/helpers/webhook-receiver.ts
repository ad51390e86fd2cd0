import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

/** What the receiver answers to the n-th request (0-based): a status, and headers (a redirect's Location). */
export type Answer = (n: number, req: Received) => { status: number; headers?: Record<string, string> };

/**
 * A webhook receiver: a real HTTP server on 127.0.0.1 that keeps every request it gets (headers and the
 * exact body bytes, as a receiver verifies them) and answers as `answer` says (200 by default).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: Answer = () => ({ status: 200 });
  private server: Server | null = null;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
        const n = this.received.length;
        this.received.push(got);
        const { status, headers } = this.answer(n, got);
        res.writeHead(status, { 'content-type': 'text/plain', ...headers });
        res.end(status < 300 ? 'ok' : 'no');
      });
    });
    await new Promise<void>((res) => this.server!.listen(0, '127.0.0.1', res));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The `webhook-id`s received, in order. */
  ids(): string[] {
    return this.received.map((r) => String(r.headers['webhook-id']));
  }

  async close(): Promise<void> {
    await new Promise<void>((res) => (this.server ? this.server.close(() => res()) : res()));
  }
}
