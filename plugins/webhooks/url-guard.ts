import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { BillingError } from '../../core/plugin-api.ts';

/** A name's addresses, as `dns.lookup(name, { all: true })` gives them. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Where a delivery goes: the URL as saved, and the one address it was checked against. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface GuardOptions {
  /** `webhooks_allow_private_hosts`: lets development and tests reach loopback and private hosts. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

/**
 * Addresses no webhook may reach (RFC 6890 and its IANA registries): everything that is not a public
 * unicast address. IPv6 is an allow-list (global unicast, 2000::/3) minus the parts of it that embed or
 * reach other addresses (Teredo, 6to4) or are reserved; that also refuses ::1, ::, IPv4-mapped and
 * IPv4-compatible forms, NAT64, unique-local, link-local, site-local and multicast.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
const GLOBAL_V6 = new BlockList();
GLOBAL_V6.addSubnet('2000::', 3, 'ipv6');
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments, Teredo (2001::/32) among them
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address, private ones included
  ['3fff::', 20], // documentation
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Whether a webhook may be sent to this address (a literal IPv4 or IPv6 address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family === 6) return GLOBAL_V6.check(address, 'ipv6') && !BLOCKED.check(address, 'ipv6');
  return false;
}

const forbidden = (message: string) => new BillingError('billing_webhook_url_forbidden', message, { params: { url: message } });

/**
 * The SSRF guard, run when a subscription is saved and again before every delivery: the URL must be
 * http(s) without credentials, its host must resolve, and every address it resolves to must be public
 * (one private answer is enough to refuse: a name may hand out different addresses on each lookup).
 * The delivery then connects to the address checked here, never resolving the name again, so a DNS
 * answer that changes between the check and the connection (rebinding) cannot redirect it.
 */
export async function checkUrl(raw: string, opts: GuardOptions): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw forbidden('The webhook URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw forbidden('Only http and https webhook URLs are allowed.');
  if (url.username || url.password) throw forbidden('A webhook URL may not carry a user name or password.');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch {
      addresses = [];
    }
    if (!addresses.length) throw forbidden(`The webhook host ${host} does not resolve.`);
  }
  if (!opts.allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      throw forbidden(
        host === refused.address
          ? `The webhook host ${host} is not a public address.`
          : `The webhook host ${host} resolves to ${refused.address}, which is not a public address.`,
      );
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
