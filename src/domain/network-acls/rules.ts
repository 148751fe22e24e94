/**
 * Evaluation of a tenant's network ACLs (the service's Tenant ACL rule
 * evaluation): the active rules of the request's scope (its own, or
 * `tenant`) in ascending priority; a rule triggers when every signal its
 * `match` names matches the request (one value of a signal is enough; the
 * IPv4 and IPv6 ranges count as one signal) and no signal its `not_match`
 * names does. The first triggering rule decides (`block`, `allow`,
 * `redirect`), except a `log` rule (monitoring mode), which is recorded and
 * evaluation goes on. No rule triggering lets the request through.
 *
 * Signals: the end user's address (`ipv4_cidrs` / `ipv6_cidrs`: the request's
 * address, from `X-Forwarded-For` behind the proxies GATEHOUSE_TRUST_PROXY
 * names; `auth0-forwarded-for` is not read, as the service does not), the
 * TCP peer (`connecting_ipv4_cidrs` / `connecting_ipv6_cidrs`), the
 * `User-Agent` (exact value), the host name, and, where the operator gave
 * Gatehouse a MaxMind database (src/platform/geoip.ts), the end user's
 * country, subdivisions and autonomous system (looked up once per request,
 * only when a rule names them). Rules by country, subdivision or ASN are
 * refused when written without the database, and TLS fingerprints always
 * (src/management/network-acls/service.ts).
 *
 * The compiled rules are cached per tenant for ACL_CACHE_TTL_MS; a write
 * clears the tenant's entry in every process through the invalidation bus
 * (src/app/configuration-writes.ts lists the writes).
 */
import { BlockList, isIP } from 'node:net';
import type { InvalidationBus } from '../../platform/cache/invalidation.js';
import { TenantCache } from '../../platform/cache/tenant-cache.js';
import type { GeoInfo, GeoLookup } from '../../platform/geoip.js';
import type { NetworkAclMatch, NetworkAclRow, NetworkAclScope } from './rows.js';
import type { NetworkAclStore } from './store.js';

export const ACL_CACHE_TTL_MS = 10_000;

/** What a rule looks at in a request. */
export interface AclRequest {
  /** The end user's address (request.ip). */
  ip: string;
  /** The TCP peer's address. */
  connectingIp: string | undefined;
  userAgent: string | undefined;
  hostname: string;
  scope: Exclude<NetworkAclScope, 'tenant'>;
}

export type AclDecision =
  | { action: 'block'; acl: NetworkAclRow }
  | { action: 'allow'; acl: NetworkAclRow }
  | { action: 'redirect'; acl: NetworkAclRow; redirectUri: string };

export interface AclOutcome {
  decision: AclDecision | undefined;
  /** The `log` rules that matched before the decision (monitoring mode). */
  logged: NetworkAclRow[];
}

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** An address as a BlockList checks it: IPv4-mapped IPv6 as plain IPv4. */
function normalised(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const mapped = MAPPED.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const version = isIP(address);
  if (version === 0) return undefined;
  return { address, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** `a.b.c.d`, `a.b.c.d/n`, an IPv6 address or `addr/n`, of the family; undefined when it is not one. */
export function parseCidr(value: string, family: 'ipv4' | 'ipv6'): { address: string; prefix: number } | undefined {
  const [address = '', prefixText, ...rest] = value.split('/');
  if (rest.length > 0 || isIP(address) !== (family === 'ipv4' ? 4 : 6)) return undefined;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= max ? { address, prefix } : undefined;
}

function blockList(v4: readonly string[] | undefined, v6: readonly string[] | undefined): BlockList | undefined {
  if (v4 === undefined && v6 === undefined) return undefined;
  const list = new BlockList();
  for (const [values, family] of [[v4, 'ipv4'], [v6, 'ipv6']] as const) {
    for (const value of values ?? []) {
      const cidr = parseCidr(value, family);
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, family);
    }
  }
  return list;
}

/** Where the request's end-user address is, looked up at most once per request. */
type Where = () => GeoInfo | undefined;
type Signal = (request: AclRequest, where: Where) => boolean | undefined;

const nowhere: Where = () => undefined;

/** The signals a match names, each a test answering whether the request has one of its values. */
function signals(match: NetworkAclMatch): Signal[] {
  const out: Signal[] = [];
  const inList = (list: BlockList | undefined, ip: string | undefined): boolean => {
    const parsed = ip === undefined ? undefined : normalised(ip);
    return list !== undefined && parsed !== undefined && list.check(parsed.address, parsed.family);
  };
  const endUser = blockList(match.ipv4_cidrs, match.ipv6_cidrs);
  if (endUser) out.push((request) => inList(endUser, request.ip));
  const connecting = blockList(match.connecting_ipv4_cidrs, match.connecting_ipv6_cidrs);
  if (connecting) out.push((request) => inList(connecting, request.connectingIp));
  if (match.user_agents) {
    const agents = new Set(match.user_agents);
    out.push((request) => request.userAgent !== undefined && agents.has(request.userAgent));
  }
  if (match.hostnames) {
    const hosts = new Set(match.hostnames.map((h) => h.toLowerCase()));
    out.push((request) => hosts.has(request.hostname.toLowerCase()));
  }
  if (match.geo_country_codes) {
    const countries = new Set(match.geo_country_codes.map((c) => c.toUpperCase()));
    out.push((_request, where) => countries.has(where()?.countryCode ?? ''));
  }
  if (match.geo_subdivision_codes) {
    const subdivisions = new Set(match.geo_subdivision_codes.map((c) => c.toUpperCase()));
    out.push((_request, where) => (where()?.subdivisionCodes ?? []).some((code) => subdivisions.has(code.toUpperCase())));
  }
  if (match.asns) {
    const asns = new Set(match.asns);
    out.push((_request, where) => {
      const asn = where()?.asn;
      return asn !== undefined && asns.has(asn);
    });
  }
  return out;
}

interface CompiledRule {
  row: NetworkAclRow;
  match: Signal[];
  notMatch: Signal[];
}

function compile(row: NetworkAclRow): CompiledRule {
  return { row, match: signals(row.rule.match ?? {}), notMatch: signals(row.rule.not_match ?? {}) };
}

function triggers(rule: CompiledRule, request: AclRequest, where: Where): boolean {
  if (rule.match.length === 0 && rule.notMatch.length === 0) return false;
  return rule.match.every((signal) => signal(request, where)) && rule.notMatch.every((signal) => !signal(request, where));
}

/** The decision of a tenant's rules (already in priority order) on a request. */
export function evaluate(rules: readonly CompiledRule[], request: AclRequest, where: Where = nowhere): AclOutcome {
  const logged: NetworkAclRow[] = [];
  for (const rule of rules) {
    const { scope, action } = rule.row.rule;
    if (scope !== 'tenant' && scope !== request.scope) continue;
    if (!triggers(rule, request, where)) continue;
    if (action.log) {
      logged.push(rule.row);
      continue;
    }
    if (action.block) return { decision: { action: 'block', acl: rule.row }, logged };
    if (action.allow) return { decision: { action: 'allow', acl: rule.row }, logged };
    if (action.redirect && action.redirect_uri) return { decision: { action: 'redirect', acl: rule.row, redirectUri: action.redirect_uri }, logged };
  }
  return { decision: undefined, logged };
}

/** The tenants' active rules, compiled and cached. */
export class NetworkAcls {
  readonly #cache: TenantCache<CompiledRule[]>;

  constructor(
    private readonly store: NetworkAclStore,
    now: () => number,
    private readonly geo?: GeoLookup,
  ) {
    this.#cache = new TenantCache(ACL_CACHE_TTL_MS, now, 1);
  }

  async evaluate(tenantId: string, request: AclRequest): Promise<AclOutcome> {
    const rules = await this.#cache.get(tenantId, 'rules', async () => (await this.store.list(tenantId)).filter((row) => row.active === 1).map(compile));
    if (rules.length === 0) return { decision: undefined, logged: [] };
    const { geo } = this;
    if (!geo) return evaluate(rules, request);
    let place: GeoInfo | undefined | null = null;
    return evaluate(rules, request, () => (place === null ? (place = geo.lookup(request.ip)) : place));
  }

  invalidate(tenantId: string): void {
    this.#cache.invalidateTenant(tenantId);
  }
}

/** What the surfaces' hooks touch. */
export interface NetworkAclContext {
  readonly stores: { readonly networkAcls: NetworkAclStore };
  readonly now: () => number;
  readonly invalidation: InvalidationBus;
  /** The operator's geolocation databases, when configured. */
  readonly geo?: GeoLookup | undefined;
}

const shared = new WeakMap<NetworkAclContext['stores'], NetworkAcls>();

/** One cache per process (both surfaces share it), cleared by the tenant's invalidations. */
export function networkAclsOf(ctx: NetworkAclContext): NetworkAcls {
  let acls = shared.get(ctx.stores);
  if (!acls) {
    const created = new NetworkAcls(ctx.stores.networkAcls, ctx.now, ctx.geo);
    ctx.invalidation.onInvalidate((tenantId) => created.invalidate(tenantId));
    shared.set(ctx.stores, (acls = created));
  }
  return acls;
}

/** The parts of an HTTP request a rule reads (a Fastify request has them). */
export interface AclHttpRequest {
  readonly ip: string;
  readonly hostname: string;
  readonly socket: { readonly remoteAddress?: string | undefined };
  readonly headers: { readonly 'user-agent'?: string | undefined };
}

export function aclRequest(request: AclHttpRequest, scope: AclRequest['scope']): AclRequest {
  return { ip: request.ip, connectingIp: request.socket.remoteAddress, userAgent: request.headers['user-agent'], hostname: request.hostname, scope };
}
