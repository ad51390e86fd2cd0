import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './url-guard.ts';
import { signature } from './signature.ts';

export interface Attempt {
  /** The receiver's HTTP status, or null when none came (refused, timed out, unreachable). */
  status: number | null;
  durationMs: number;
  /** Why it did not count as delivered, or null. */
  error: string | null;
}

export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * One signed POST of an event's body to a checked target. It connects to the address the guard checked
 * (the name is not looked up again; TLS still verifies the certificate against the name), follows no
 * redirect (a 3xx is a failed attempt), and gives up after 10 s. Only a 2xx counts as delivered.
 */
export function deliver(
  target: CheckedTarget,
  secret: string,
  eventId: string,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<Attempt> {
  const timestamp = Math.floor(Date.now() / 1000);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (a: Omit<Attempt, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...a, durationMs: elapsed() });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        agent: false,
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'billing-webhooks/1.0',
          'webhook-id': eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(secret, eventId, timestamp, body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // the answer's body is not kept; reading it lets the connection close cleanly
        res.resume();
        res.on('end', () => {
          if (status >= 200 && status < 300) finish({ status, error: null });
          else if (status >= 300 && status < 400) finish({ status, error: `redirect to ${res.headers.location ?? '(none)'} not followed` });
          else finish({ status, error: `HTTP ${status}` });
        });
        res.on('error', (err) => finish({ status, error: err.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on('error', (err) => finish({ status: null, error: err.message || String(err) }));
    req.end(body);
  });
}
