/**
 * Network ACLs (the service's Tenant ACL): rules by address range, TCP peer,
 * user agent and host name, with the actions block / allow / redirect / log,
 * evaluated by priority on the scope they name (src/domain/network-acls/rules.ts,
 * enforced by src/authentication/network-acl.ts and
 * src/management/network-acl-hook.ts). Signals Gatehouse has no data for
 * are refused with 400 naming them, so that a rule never silently matches
 * nothing: JA3/JA4 TLS fingerprints always, countries and subdivisions
 * without GATEHOUSE_GEOIP_DB, ASNs without GATEHOUSE_ASN_DB. At most MAX_ACLS rules
 * per tenant, as the service allows; a priority is unique in its tenant
 * (409, the service's words).
 */
import { isUniqueViolation } from '../../platform/database-errors.js';
import { parseCidr } from '../../domain/network-acls/rules.js';
import type { NetworkAclMatch, NetworkAclRow, NetworkAclRule } from '../../domain/network-acls/rows.js';
import type { NetworkAclStore } from '../../domain/network-acls/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { GeoCapabilities } from '../../platform/geoip.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { MatchBody, NetworkAclResponse, RuleBody, SetNetworkAclBody, UpdateNetworkAclBody } from './schema.js';

export const MAX_ACLS = 10;
const DEFAULT_PRIORITY = 50;
const ID = /^acl_[A-Za-z0-9]{22}$/;

/** Signals of the document Gatehouse cannot evaluate, and why. */
const UNSUPPORTED_SIGNALS: Readonly<Record<string, string>> = {
  ja3_fingerprints: 'Gatehouse does not compute TLS fingerprints',
  ja4_fingerprints: 'Gatehouse does not compute TLS fingerprints',
};

/** Signals read from the operator's MaxMind databases: the database each needs, the form of a value. */
const GEO_SIGNALS = [
  { signal: 'geo_country_codes', needs: 'location', setting: 'GATEHOUSE_GEOIP_DB', form: /^[A-Za-z]{2}$/, expected: 'an ISO 3166-1 alpha-2 country code' },
  { signal: 'geo_subdivision_codes', needs: 'location', setting: 'GATEHOUSE_GEOIP_DB', form: /^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/, expected: 'an ISO 3166-2 subdivision code (GB-ENG)' },
  { signal: 'asns', needs: 'asn', setting: 'GATEHOUSE_ASN_DB', form: undefined, expected: '' },
] as const;

const NO_GEO: GeoCapabilities = { location: false, asn: false };

const CIDR_SIGNALS = [
  ['ipv4_cidrs', 'ipv4'],
  ['ipv6_cidrs', 'ipv6'],
  ['connecting_ipv4_cidrs', 'ipv4'],
  ['connecting_ipv6_cidrs', 'ipv6'],
] as const;

function invalid(property: string, message: string): Error {
  return managementErrors.invalidBody(`Payload validation error: '${message}' on property ${property}.`);
}

/** The signals of a match Gatehouse evaluates, checked; the others refused. */
function checkedMatch(match: MatchBody, property: string, geo: GeoCapabilities): NetworkAclMatch {
  for (const [signal, reason] of Object.entries(UNSUPPORTED_SIGNALS)) {
    if (match[signal as keyof MatchBody] !== undefined) throw invalid(`${property}.${signal}`, reason);
  }
  const out: NetworkAclMatch = {};
  for (const { signal, needs, setting, form, expected } of GEO_SIGNALS) {
    const values = match[signal];
    if (values === undefined) continue;
    if (!geo[needs]) throw invalid(`${property}.${signal}`, `Gatehouse has no ${needs === 'asn' ? 'ASN' : 'geolocation'} database (${setting} is not set); match addresses with ipv4_cidrs or ipv6_cidrs`);
    values.forEach((value, i) => {
      if (form && typeof value === 'string' && !form.test(value)) throw invalid(`${property}.${signal}[${i}]`, `${value} is not ${expected}`);
    });
  }
  if (match.geo_country_codes) out.geo_country_codes = match.geo_country_codes;
  if (match.geo_subdivision_codes) out.geo_subdivision_codes = match.geo_subdivision_codes;
  if (match.asns) out.asns = match.asns;
  for (const [signal, family] of CIDR_SIGNALS) {
    const values = match[signal];
    if (values === undefined) continue;
    values.forEach((value, i) => {
      if (!parseCidr(value, family)) throw invalid(`${property}.${signal}[${i}]`, `Object didn't pass validation for format ${family === 'ipv4' ? 'ipv4 or cidr' : 'ipv6 or ipv6_cidr'}: ${value}`);
    });
    out[signal] = values;
  }
  if (match.user_agents) out.user_agents = match.user_agents;
  if (match.hostnames) out.hostnames = match.hostnames;
  if (Object.keys(out).length === 0) throw invalid(property, 'At least one signal is required');
  return out;
}

function checkedRule(body: RuleBody, geo: GeoCapabilities): NetworkAclRule {
  const { action } = body;
  const chosen = (['block', 'allow', 'log', 'redirect'] as const).filter((name) => action[name] === true);
  if (chosen.length !== 1) throw invalid('rule.action', 'Exactly one of block, allow, log or redirect is required');
  if (chosen[0] === 'redirect') {
    let url: URL | undefined;
    try {
      url = action.redirect_uri === undefined ? undefined : new URL(action.redirect_uri);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== 'https:') throw invalid('rule.action.redirect_uri', 'An https URL is required with redirect');
  } else if (action.redirect_uri !== undefined) {
    throw invalid('rule.action.redirect_uri', 'redirect_uri is only allowed with redirect');
  }
  if (body.match === undefined && body.not_match === undefined) throw invalid('rule', 'One of match or not_match is required');
  const rule: NetworkAclRule = { action: { ...action }, scope: body.scope };
  if (body.match) rule.match = checkedMatch(body.match, 'rule.match', geo);
  if (body.not_match) rule.not_match = checkedMatch(body.not_match, 'rule.not_match', geo);
  return rule;
}

function toApi(row: NetworkAclRow): NetworkAclResponse {
  return {
    id: row.id,
    description: row.description,
    active: row.active === 1,
    priority: row.priority,
    rule: row.rule as RuleBody,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function notFound(): Error {
  return managementErrors.notFound('The Network ACL does not exist.');
}

function priorityTaken(): Error {
  return managementErrors.conflict('A Network ACL with this priority number has already been created.');
}

/** What NetworkAclService touches. */
export interface NetworkAclServiceContext {
  readonly now: () => number;
  readonly stores: { readonly networkAcls: NetworkAclStore };
  /** Which geolocation signals the operator's databases answer (src/platform/geoip.ts). */
  readonly geo?: GeoCapabilities | undefined;
}

export class NetworkAclService {
  private readonly geo: GeoCapabilities;

  constructor(private readonly ctx: NetworkAclServiceContext) {
    this.geo = ctx.geo ?? NO_GEO;
  }

  async list(tenant: Tenant, query: { page?: number; per_page?: number; include_totals?: boolean }) {
    const all = (await this.ctx.stores.networkAcls.list(tenant.id)).map(toApi);
    const perPage = query.per_page ?? 50;
    const start = (query.page ?? 0) * perPage;
    const page = all.slice(start, start + perPage);
    return query.include_totals ? { network_acls: page, start, limit: perPage, total: all.length } : page;
  }

  async get(tenant: Tenant, id: string): Promise<NetworkAclResponse> {
    return toApi(await this.row(tenant, id, false));
  }

  async create(tenant: Tenant, body: SetNetworkAclBody): Promise<NetworkAclResponse> {
    const rule = checkedRule(body.rule, this.geo);
    if ((await this.ctx.stores.networkAcls.list(tenant.id)).length >= MAX_ACLS) {
      throw managementErrors.entityLimitExceeded(`A tenant can have at most ${MAX_ACLS} network ACLs`);
    }
    const now = isoAt(this.ctx.now());
    const row: NetworkAclRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('acl', 22),
      description: body.description,
      active: body.active ? 1 : 0,
      priority: body.priority ?? DEFAULT_PRIORITY,
      rule,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.ctx.stores.networkAcls.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw priorityTaken();
      throw error;
    }
    return toApi(row);
  }

  /** PUT: the whole rule replaced (an absent priority is the default again). */
  async replace(tenant: Tenant, id: string, body: SetNetworkAclBody): Promise<NetworkAclResponse> {
    const current = await this.row(tenant, id, true);
    return this.write({ ...current, description: body.description, active: body.active ? 1 : 0, priority: body.priority ?? DEFAULT_PRIORITY, rule: checkedRule(body.rule, this.geo) });
  }

  /** PATCH: the members given replaced (`rule` as a whole). */
  async update(tenant: Tenant, id: string, body: UpdateNetworkAclBody): Promise<NetworkAclResponse> {
    const current = await this.row(tenant, id, true);
    return this.write({
      ...current,
      ...(body.description !== undefined && { description: body.description }),
      ...(body.active !== undefined && { active: body.active ? 1 : 0 }),
      ...(body.priority !== undefined && { priority: body.priority }),
      ...(body.rule !== undefined && { rule: checkedRule(body.rule, this.geo) }),
    });
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    checkId(id);
    if (!(await this.ctx.stores.networkAcls.delete(tenant.id, id))) throw notFound();
  }

  private async write(row: NetworkAclRow): Promise<NetworkAclResponse> {
    const updated = { ...row, updated_at: isoAt(this.ctx.now()) };
    try {
      if (!(await this.ctx.stores.networkAcls.replace(updated))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw priorityTaken();
      throw error;
    }
    return toApi(updated);
  }

  /** The rule, or 404; a malformed id is 400 where the document gives the operation one (writes), 404 on a read. */
  private async row(tenant: Tenant, id: string, write: boolean): Promise<NetworkAclRow> {
    if (write) checkId(id);
    const row = ID.test(id) ? await this.ctx.stores.networkAcls.get(tenant.id, id) : undefined;
    if (!row) throw notFound();
    return row;
  }
}

function checkId(id: string): void {
  if (!ID.test(id)) throw managementErrors.badRequest("Network ACL id is not a valid ACL ID in the form 'acl_XXXXXXXXXXXXXXXXXXXXXX'", 'invalid_uri');
}
