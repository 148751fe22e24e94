import type { TenantRow } from '../rows.js';
import type { TenantSettings } from './settings.js';

export type { RateLimitClass, TenantSettings } from './settings.js';

export interface Tenant {
  id: string;
  name: string;
  domain: string;
  /**
   * `https://{domain}/`, with the trailing slash, as the service's issuer; for
   * a request that came through one of the tenant's custom domains,
   * `https://{custom domain}/` (discovery and tokens name the host used).
   */
  issuer: string;
  /** The custom domain the request came through, if it did. */
  customDomain?: string;
  settings: TenantSettings;
  createdAt: string;
}

export function tenantFromRow(row: TenantRow): Tenant {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    issuer: `https://${row.domain}/`,
    settings: row.settings,
    createdAt: row.created_at,
  };
}

/** The tenant as reached through one of its custom domains. */
export function throughCustomDomain(tenant: Tenant, domain: string): Tenant {
  return { ...tenant, issuer: `https://${domain}/`, customDomain: domain };
}

/** The tenant as reached through another name of its own host (a loopback address): the issuer names the host used. */
export function throughAlias(tenant: Tenant, host: string): Tenant {
  return { ...tenant, issuer: `https://${host}/` };
}

/** Every issuer the tenant's tokens may carry: the canonical one, and the custom domain's for a request through it. */
export function acceptedIssuers(tenant: Tenant): string[] {
  const canonical = `https://${tenant.domain}/`;
  return tenant.issuer === canonical ? [canonical] : [tenant.issuer, canonical];
}

/** The identifier of the tenant's Management API resource server (its token audience). */
export function managementAudience(tenant: Pick<Tenant, 'domain'>): string {
  return `https://${tenant.domain}/api/v2/`;
}
