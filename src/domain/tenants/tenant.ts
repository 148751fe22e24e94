import type { TenantRow } from '../rows.js';
import type { TenantSettings } from './settings.js';

export type { RateLimitClass, TenantSettings } from './settings.js';

export interface Tenant {
  id: string;
  name: string;
  domain: string;
  /** `https://{domain}/`, with the trailing slash, as the service's issuer. */
  issuer: string;
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

/** The identifier of the tenant's Management API resource server (its token audience). */
export function managementAudience(tenant: Pick<Tenant, 'domain'>): string {
  return `https://${tenant.domain}/api/v2/`;
}
