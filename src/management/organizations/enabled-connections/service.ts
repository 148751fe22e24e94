/**
 * Business rules of the connections enabled for an organization: a
 * connection is enabled once per organization (409 otherwise);
 * `assign_membership_on_login` (default false) makes whoever logs in to the
 * organization through it a member; `show_as_button` defaults to true,
 * `is_signup_enabled` to false and needs `assign_membership_on_login` (a
 * signup that would not make the user a member could not log in to the
 * organization).
 */
import type { OrganizationConnectionChanges, OrganizationConnectionDetail, OrganizationConnectionStore } from '../../../domain/organizations/connections-store.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { connectionNotFound } from '../../connections/service.js';
import { offsetList, offsetPaging, offsetWindow, type OffsetList } from '../../lists.js';
import { notFound as organizationNotFound } from '../service.js';
import type { AddConnectionBody, UpdateConnectionBody } from './schema.js';
import type { OrganizationStore } from '../../../domain/organizations/store.js';

export interface OrganizationConnection {
  connection_id: string;
  assign_membership_on_login: boolean;
  show_as_button: boolean;
  is_signup_enabled: boolean;
  connection: { name: string; strategy: string };
}

export function organizationConnectionFromRow(row: OrganizationConnectionDetail): OrganizationConnection {
  return {
    connection_id: row.connection_id,
    assign_membership_on_login: row.assign_membership_on_login === 1,
    show_as_button: row.show_as_button === 1,
    is_signup_enabled: row.is_signup_enabled === 1,
    connection: { name: row.name, strategy: row.strategy },
  };
}

const notEnabled = () => managementErrors.notFound('The connection is not enabled for the organization.', 'inexistent_connection');

function checkSignup(assign: number, signup: number): void {
  if (signup === 1 && assign !== 1) {
    throw managementErrors.invalidBody('is_signup_enabled can only be true when assign_membership_on_login is true.');
  }
}

const flag = (value: boolean | undefined): number | undefined => (value === undefined ? undefined : value ? 1 : 0);

/** What OrganizationConnectionService touches. */
export interface OrganizationConnectionServiceContext {
  readonly now: () => number;
  readonly stores: { readonly organizationConnections: OrganizationConnectionStore; readonly organizations: OrganizationStore };
}

export class OrganizationConnectionService {
  constructor(private readonly ctx: OrganizationConnectionServiceContext) {}

  /** A page of the organization's connections, under `key` with include_totals (`enabled_connections`, or `connections` for /organizations/{id}/connections). */
  async list<K extends string>(
    tenant: Tenant,
    organizationId: string,
    query: { page?: number; per_page?: number; include_totals?: boolean },
    key: K,
  ): Promise<OffsetList<K, OrganizationConnection>> {
    if (!(await this.ctx.stores.organizations.get(tenant.id, organizationId))) throw organizationNotFound();
    const page = offsetPaging(query);
    const { rows, total } = await this.ctx.stores.organizationConnections.list(tenant.id, organizationId, offsetWindow(page));
    return offsetList(key, rows.map(organizationConnectionFromRow), page, total);
  }

  async get(tenant: Tenant, organizationId: string, connectionId: string): Promise<OrganizationConnection> {
    const row = await this.ctx.stores.organizationConnections.get(tenant.id, organizationId, connectionId);
    if (!row) {
      if (!(await this.ctx.stores.organizations.get(tenant.id, organizationId))) throw organizationNotFound();
      throw notEnabled();
    }
    return organizationConnectionFromRow(row);
  }

  async add(tenant: Tenant, organizationId: string, body: AddConnectionBody): Promise<OrganizationConnection> {
    const row = {
      tenant_id: tenant.id,
      organization_id: organizationId,
      connection_id: body.connection_id,
      assign_membership_on_login: flag(body.assign_membership_on_login) ?? 0,
      show_as_button: flag(body.show_as_button) ?? 1,
      is_signup_enabled: flag(body.is_signup_enabled) ?? 0,
      created_at: isoAt(this.ctx.now()),
    };
    checkSignup(row.assign_membership_on_login, row.is_signup_enabled);
    const result = await this.ctx.stores.organizationConnections.enable(row);
    if (result === 'organization_not_found') throw organizationNotFound();
    if (result === 'connection_not_found') throw connectionNotFound();
    if (result === 'already_enabled') throw managementErrors.conflict('The connection is already enabled for the organization.');
    return this.get(tenant, organizationId, body.connection_id);
  }

  async update(tenant: Tenant, organizationId: string, connectionId: string, body: UpdateConnectionBody): Promise<OrganizationConnection> {
    const current = await this.get(tenant, organizationId, connectionId);
    const changes: OrganizationConnectionChanges = {};
    for (const key of ['assign_membership_on_login', 'show_as_button', 'is_signup_enabled'] as const) {
      const value = flag(body[key]);
      if (value !== undefined) changes[key] = value;
    }
    checkSignup(changes.assign_membership_on_login ?? flag(current.assign_membership_on_login)!, changes.is_signup_enabled ?? flag(current.is_signup_enabled)!);
    if (!(await this.ctx.stores.organizationConnections.update(tenant.id, organizationId, connectionId, changes))) throw notEnabled();
    return this.get(tenant, organizationId, connectionId);
  }

  async remove(tenant: Tenant, organizationId: string, connectionId: string): Promise<void> {
    if (await this.ctx.stores.organizationConnections.disable(tenant.id, organizationId, connectionId)) return;
    if (!(await this.ctx.stores.organizations.get(tenant.id, organizationId))) throw organizationNotFound();
    throw notEnabled();
  }
}
