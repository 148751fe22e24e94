/**
 * /organizations/{id}/connections over the enabled connections of the
 * organization (enabled-connections/service.ts holds the rules): each one
 * answered with `is_enabled: true`, since Gatehouse keeps no disabled ones;
 * `is_enabled: false` is refused rather than silently dropped, and the list's
 * `is_enabled=false` filter finds nothing.
 */
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { OffsetList } from '../../lists.js';
import type { OrganizationConnection, OrganizationConnectionService } from '../enabled-connections/service.js';
import type { AddAllConnectionBody, ListAllConnectionsQuery, UpdateAllConnectionBody } from './schema.js';

export type OrganizationAllConnection = OrganizationConnection & { is_enabled: boolean };

const enabled = (connection: OrganizationConnection): OrganizationAllConnection => ({ ...connection, is_enabled: true });

function refuseDisabled(body: { is_enabled?: boolean }): void {
  if (body.is_enabled === false) {
    throw managementErrors.badRequest('Disabled organization connections are not available in Gatehouse: remove the connection from the organization instead.', 'operation_not_supported');
  }
}

export class OrganizationAllConnectionService {
  constructor(private readonly connections: OrganizationConnectionService) {}

  async list(tenant: Tenant, organizationId: string, query: ListAllConnectionsQuery): Promise<OffsetList<'connections', OrganizationAllConnection>> {
    const page = await this.connections.list(tenant, organizationId, query, 'connections');
    const keep = (items: OrganizationConnection[]) => (query.is_enabled === false ? [] : items.map(enabled));
    if (Array.isArray(page)) return keep(page);
    return { ...page, connections: keep(page.connections), ...(query.is_enabled === false && { total: 0 }) };
  }

  async get(tenant: Tenant, organizationId: string, connectionId: string): Promise<OrganizationAllConnection> {
    return enabled(await this.connections.get(tenant, organizationId, connectionId));
  }

  async add(tenant: Tenant, organizationId: string, { is_enabled, ...body }: AddAllConnectionBody): Promise<OrganizationAllConnection> {
    refuseDisabled({ is_enabled });
    return enabled(await this.connections.add(tenant, organizationId, body));
  }

  async update(tenant: Tenant, organizationId: string, connectionId: string, { is_enabled, ...body }: UpdateAllConnectionBody): Promise<OrganizationAllConnection> {
    refuseDisabled({ is_enabled });
    return enabled(await this.connections.update(tenant, organizationId, connectionId, body));
  }

  async remove(tenant: Tenant, organizationId: string, connectionId: string): Promise<void> {
    await this.connections.remove(tenant, organizationId, connectionId);
  }
}
