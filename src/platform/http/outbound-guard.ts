/**
 * Where a tenant's outbound traffic may go. Tenants choose destinations that
 * the server then connects to on its own: back-channel logout URIs, log
 * stream endpoints, their own SMTP server. Without a guard a tenant could
 * point them at the server's own network (the loopback interface, private
 * ranges, link-local cloud metadata addresses) and probe or poke what only
 * the server can reach.
 *
 * So a destination must be a public unicast address (ipaddr.js's range
 * `unicast`; IPv4-mapped IPv6 addresses are judged as the IPv4 address they
 * carry), unless it lies in one of the ranges the operator allows with
 * `GATEHOUSE_OUTBOUND_ALLOW` (a comma-separated list of CIDRs, e.g.
 * `10.0.0.0/8,fd00::/8` for relying parties on the same private network).
 *
 * The check is made on the address actually connected to: `lookup` for
 * node:https resolves names and refuses before the socket connects, and
 * `resolveAllowed` gives SMTP the checked address to connect to (with the
 * name kept for TLS), so a name that resolves differently the second time
 * (DNS rebinding) cannot slip past.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The operator's exceptions to the public-only rule (none by default). */
export interface OutboundPolicy {
  allow: readonly Cidr[];
}

export const PUBLIC_ONLY: OutboundPolicy = { allow: [] };

export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(host: string, address: string) {
    super(
      `${host === address ? address : `${host} resolves to ${address}, which`} is not a public address; ` +
        'outbound destinations of tenants may reach it only when GATEHOUSE_OUTBOUND_ALLOW lists its range',
    );
  }
}

/** Parses `GATEHOUSE_OUTBOUND_ALLOW`; throws with the offending entry. */
export function parseOutboundAllow(value: string | undefined): Cidr[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        return ipaddr.parseCIDR(entry);
      } catch {
        throw new Error(`"${entry}" is not a CIDR range (such as 10.0.0.0/8 or fd00::/8)`);
      }
    });
}

/** Whether `address` (an IP literal) may be connected to under `policy`. */
export function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() === 'unicast') return true;
  return policy.allow.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

/** A `lookup` for node:net/node:https that refuses names resolving to an address the policy does not allow. */
export function guardedLookup(policy: OutboundPolicy): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err);
        return;
      }
      const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
      if (refused) {
        callback(new OutboundRefused(hostname, refused.address));
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as net.LookupFunction;
}

/** Refuses an IP literal host the policy does not allow (names are checked by `guardedLookup`). */
export function checkLiteralHost(hostname: string, policy: OutboundPolicy): void {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (net.isIP(bare) && !addressAllowed(bare, policy)) throw new OutboundRefused(bare, bare);
}

/** Resolves `host` and returns an address to connect to, every address it has being allowed. */
export async function resolveAllowed(host: string, policy: OutboundPolicy): Promise<string> {
  if (net.isIP(host)) {
    checkLiteralHost(host, policy);
    return host;
  }
  const addresses = await dns.promises.lookup(host, { all: true });
  const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
  if (refused) throw new OutboundRefused(host, refused.address);
  return addresses[0]!.address;
}
