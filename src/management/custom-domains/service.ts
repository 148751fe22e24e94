/**
 * Custom domains: alias hosts of a tenant (requests with that Host reach it;
 * discovery and tokens name the host used). A new domain is
 * `pending_verification`; POST …/verify looks up the TXT record
 * `_gatehouse-verification.{domain}` (the resolvers of GATEHOUSE_DNS_SERVERS,
 * else the system's) for the value given in `verification.methods`, and
 * makes the domain `ready`. A self-managed domain's first verification
 * answers its `cname_api_key` once: the customer's edge sends it as
 * `cname-api-key`, which is what makes Gatehouse believe the edge's
 * `client-certificate` headers (mTLS). Only its SHA-256 is kept.
 */
import { Resolver } from 'node:dns/promises';
import type { CustomDomainRow } from '../../domain/rows.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { CreateCustomDomainBody, CustomDomain, UpdateCustomDomainBody } from './schema.js';
import type { CustomDomainStore } from '../../domain/custom-domains/store.js';
import type { TenantService } from '../../domain/tenants/service.js';
import type { Config } from '../../platform/config.js';

const notFound = () => managementErrors.notFound('The custom domain does not exist.', 'inexistent_custom_domain');
export const VERIFICATION_PREFIX = '_gatehouse-verification.';
const TXT_TIMEOUT_MS = 5_000;

export function customDomainFromRow(row: CustomDomainRow): CustomDomain {
  return {
    custom_domain_id: row.id,
    domain: row.domain,
    primary: false,
    status: row.status,
    type: row.type,
    verification: { methods: [{ name: 'txt', record: row.verification_record, domain: `${VERIFICATION_PREFIX}${row.domain}` }] },
    custom_client_ip_header: row.custom_client_ip_header,
    tls_policy: row.tls_policy,
    ...(Object.keys(row.domain_metadata).length > 0 && { domain_metadata: row.domain_metadata }),
    ...(row.is_default === 1 && { is_default: true }),
  };
}

function withoutNulls(metadata: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).filter((e): e is [string, string] => e[1] !== null));
}

/** What CustomDomainService touches. */
export interface CustomDomainServiceContext {
  readonly config: Config;
  readonly now: () => number;
  readonly tenants: TenantService;
  readonly stores: { readonly customDomains: CustomDomainStore };
}

export class CustomDomainService {
  constructor(private readonly ctx: CustomDomainServiceContext) {}

  async list(tenant: Tenant): Promise<CustomDomain[]> {
    return (await this.ctx.stores.customDomains.list(tenant.id)).map(customDomainFromRow);
  }

  async #find(tenant: Tenant, id: string): Promise<CustomDomainRow> {
    const row = await this.ctx.stores.customDomains.get(tenant.id, id);
    if (!row) throw notFound();
    return row;
  }

  async get(tenant: Tenant, id: string): Promise<CustomDomain> {
    return customDomainFromRow(await this.#find(tenant, id));
  }

  async create(tenant: Tenant, body: CreateCustomDomainBody): Promise<CustomDomain> {
    const domain = body.domain.toLowerCase();
    if (domain === tenant.domain.split(':')[0] || (await this.ctx.tenants.byDomain(domain))) throw managementErrors.conflict('The domain is already in use.');
    const row: CustomDomainRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('cd'),
      domain,
      type: body.type,
      status: 'pending_verification',
      verification_record: `gatehouse-domain-verification=${newSecret()}`,
      edge_key_hash: null,
      custom_client_ip_header: body.custom_client_ip_header ?? null,
      tls_policy: body.tls_policy ?? 'recommended',
      domain_metadata: withoutNulls(body.domain_metadata ?? {}),
      created_at: isoAt(this.ctx.now()),
    };
    try {
      await this.ctx.stores.customDomains.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw managementErrors.conflict('The domain is already in use.');
      throw error;
    }
    return customDomainFromRow(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateCustomDomainBody): Promise<CustomDomain> {
    const row = await this.#find(tenant, id);
    const changes: Parameters<CustomDomainServiceContext['stores']['customDomains']['update']>[2] = {};
    if (body.tls_policy !== undefined) changes.tls_policy = body.tls_policy;
    if (body.custom_client_ip_header !== undefined) changes.custom_client_ip_header = body.custom_client_ip_header;
    if (body.domain_metadata !== undefined) changes.domain_metadata = withoutNulls({ ...row.domain_metadata, ...body.domain_metadata });
    if (Object.keys(changes).length) await this.ctx.stores.customDomains.update(tenant.id, id, changes);
    return customDomainFromRow({ ...row, ...changes });
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.customDomains.delete(tenant.id, id))) throw notFound();
  }

  /** Looks for the TXT record; the domain becomes ready when it is there. */
  async verify(tenant: Tenant, id: string): Promise<CustomDomain> {
    const row = await this.#find(tenant, id);
    if (row.status === 'ready') return customDomainFromRow(row);
    if (!(await this.#txtRecordPresent(row))) return customDomainFromRow(row);
    const key = row.type === 'self_managed_certs' ? newSecret() : undefined;
    await this.ctx.stores.customDomains.update(tenant.id, id, { status: 'ready', ...(key && { edge_key_hash: secretHash(key) }) });
    return { ...customDomainFromRow({ ...row, status: 'ready' }), ...(key && { cname_api_key: key }) };
  }

  /** GET /custom-domains/default: the default custom domain, else the canonical domain as `{domain}`. */
  async getDefault(tenant: Tenant): Promise<CustomDomain | { domain: string }> {
    const row = await this.ctx.stores.customDomains.findDefault(tenant.id);
    return row ? customDomainFromRow(row) : { domain: tenant.domain };
  }

  /**
   * PATCH /custom-domains/default `{domain}`: one of the tenant's ready custom domains, or its
   * canonical domain (which clears the choice). The default is the host of the links Gatehouse
   * mails or answers (tickets, verification and reset mails) when no request names another.
   */
  async setDefault(tenant: Tenant, domain: string): Promise<CustomDomain | { domain: string }> {
    const wanted = domain.toLowerCase();
    if (wanted === tenant.domain.toLowerCase()) {
      await this.ctx.stores.customDomains.setDefault(tenant.id, null);
      return { domain: tenant.domain };
    }
    const row = (await this.ctx.stores.customDomains.list(tenant.id)).find((r) => r.domain === wanted);
    if (!row || row.status !== 'ready') throw managementErrors.badRequest('The domain must be a verified custom domain or the canonical domain.');
    await this.ctx.stores.customDomains.setDefault(tenant.id, row.id);
    return customDomainFromRow({ ...row, is_default: 1 });
  }

  /**
   * POST /custom-domains/{id}/test: the test the service runs on a ready domain, as Gatehouse can
   * run it without reaching the domain through the customer's edge: the verification TXT record is
   * looked up again. 409 while the domain is not ready.
   */
  async test(tenant: Tenant, id: string): Promise<{ success: boolean; message: string }> {
    const row = await this.#find(tenant, id);
    if (row.status !== 'ready') throw managementErrors.conflict('The custom domain is not ready.');
    return (await this.#txtRecordPresent(row))
      ? { success: true, message: `The verification record ${VERIFICATION_PREFIX}${row.domain} is in place.` }
      : { success: false, message: `The verification record ${VERIFICATION_PREFIX}${row.domain} was not found; the domain still serves the tenant until it is deleted.` };
  }

  async #txtRecordPresent(row: CustomDomainRow): Promise<boolean> {
    const resolver = new Resolver({ timeout: TXT_TIMEOUT_MS, tries: 1 });
    if (this.ctx.config.dnsServers) resolver.setServers(this.ctx.config.dnsServers);
    try {
      const records = await resolver.resolveTxt(`${VERIFICATION_PREFIX}${row.domain}`);
      return records.some((chunks) => chunks.join('') === row.verification_record);
    } catch {
      return false;
    }
  }
}
