/**
 * The base URL of a service the site sends a secret to (a gateway's API: `gateway_<x>_api_base`),
 * declared with `format: 'api-base'`. Only `https:` carries a key: `http:`, `file:`, `javascript:`,
 * `data:`… would hand it to whoever listens, or to nothing that answers. Plain `http:` to this machine
 * (`localhost`, `127.0.0.0/8`, `[::1]`) is allowed only where the process says so
 * (`BILLING_GATEWAY_LOOPBACK_HTTP=1`): tests point gateways at fakes served there.
 *
 * Answers why `value` cannot be such a base, or null when it can.
 */
export function apiBaseProblem(value: unknown, allowLoopbackHttp: boolean): string | null {
  if (typeof value !== 'string') return 'must be a URL';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopback(url.hostname)) return null;
  return allowLoopbackHttp ? 'must be an https: URL (or http: to this machine)' : 'must be an https: URL';
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
