/** Business rules of client grants, behind the Management API routes. */
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { managementErrors } from '../../platform/http/errors.js';
import { clientGrantFromRow, type ClientGrant, type ClientGrantRow } from '../../domain/client-grants/model.js';
import type { ResourceServerScope } from '../../domain/resource-servers/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { Paging } from '../paging.js';
import { pagedList, type CheckpointList, type OffsetList, type CheckpointSealing } from '../lists.js';
import type { CreateClientGrantBody, UpdateClientGrantBody } from './schema.js';
import type { ClientGrantFilter, ClientGrantStore } from '../../domain/client-grants/store.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { ResourceServerStore } from '../../domain/resource-servers/store.js';

const notFound = () => managementErrors.notFound('The grant does not exist.', 'inexistent_client_grant');

export type ClientGrantList = OffsetList<'client_grants', ClientGrant> | CheckpointList<'client_grants', ClientGrant>;

/** What ClientGrantService touches. */
export interface ClientGrantServiceContext extends CheckpointSealing {
  readonly now: () => number;
  readonly stores: {
    readonly clientGrants: ClientGrantStore;
    readonly clients: ClientStore;
    readonly resourceServers: ResourceServerStore;
  };
}

export class ClientGrantService {
  constructor(private readonly ctx: ClientGrantServiceContext) {}

  list(tenant: Tenant, filter: ClientGrantFilter, paging: Paging): Promise<ClientGrantList> {
    return pagedList(this.ctx, checkpointScope(tenant), 'client_grants', paging, (page) => this.ctx.stores.clientGrants.list(tenant.id, filter, page), (row) => row.id, clientGrantFromRow);
  }

  async get(tenant: Tenant, id: string): Promise<ClientGrant> {
    const row = await this.ctx.stores.clientGrants.get(tenant.id, id);
    if (!row) throw notFound();
    return clientGrantFromRow(row);
  }

  async create(tenant: Tenant, body: CreateClientGrantBody): Promise<ClientGrant> {
    if ((body.client_id === undefined) === (body.default_for === undefined)) {
      throw managementErrors.invalidBody(
        body.client_id === undefined
          ? "Payload validation error: 'Missing required property: client_id'."
          : 'client_id and default_for cannot be used together.',
      );
    }
    if (body.client_id !== undefined && !(await this.ctx.stores.clients.get(tenant.id, body.client_id))) {
      throw managementErrors.notFound('Client not found', 'inexistent_client');
    }
    const resourceServer = await this.ctx.stores.resourceServers.getByIdentifier(tenant.id, body.audience);
    if (!resourceServer) throw managementErrors.notFound('Resource server not found', 'inexistent_resource_server');
    const scope = body.scope ?? [];
    this.#checkScopes(scope, resourceServer.scopes);
    if (body.allow_any_organization && (body.organization_usage ?? 'deny') === 'deny') {
      throw managementErrors.invalidBody('allow_any_organization can only be enabled when organization_usage is allow or require.');
    }
    const row: ClientGrantRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('cgr'),
      client_id: body.client_id ?? null,
      audience: body.audience,
      scope,
      organization_usage: body.organization_usage ?? 'deny',
      allow_any_organization: body.allow_any_organization ? 1 : 0,
      is_system: 0,
      subject_type: body.subject_type ?? 'client',
      authorization_details_types: body.authorization_details_types ?? [],
      allow_all_scopes: body.allow_all_scopes === undefined ? null : body.allow_all_scopes ? 1 : 0,
      default_for: body.default_for ?? null,
      created_at: isoAt(this.ctx.now()),
    };
    try {
      await this.ctx.stores.clientGrants.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw managementErrors.conflict('A client grant for this client and audience already exists.');
      throw error;
    }
    return clientGrantFromRow(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateClientGrantBody): Promise<ClientGrant> {
    const row = await this.ctx.stores.clientGrants.get(tenant.id, id);
    if (!row) throw managementErrors.notFound('The client grant does not exist.', 'inexistent_client_grant');
    const changes: Partial<ClientGrantRow> = {};
    if (body.scope !== undefined) {
      const scope = body.scope ?? [];
      const resourceServer = await this.ctx.stores.resourceServers.getByIdentifier(tenant.id, row.audience);
      this.#checkScopes(scope, resourceServer?.scopes ?? []);
      changes.scope = scope;
    }
    if (body.organization_usage !== undefined) changes.organization_usage = body.organization_usage ?? 'deny';
    if (body.allow_any_organization !== undefined) changes.allow_any_organization = body.allow_any_organization ? 1 : 0;
    if (body.authorization_details_types !== undefined) {
      changes.authorization_details_types = body.authorization_details_types;
    }
    if (body.allow_all_scopes !== undefined) changes.allow_all_scopes = body.allow_all_scopes === null ? null : body.allow_all_scopes ? 1 : 0;
    const next = { ...row, ...changes };
    if (next.allow_any_organization === 1 && (next.organization_usage ?? 'deny') === 'deny') {
      throw managementErrors.invalidBody('allow_any_organization can only be enabled when organization_usage is allow or require.');
    }
    // Only allow/require grants may be linked to organizations; keep that true after the change.
    if (changes.organization_usage === 'deny' && row.organization_usage !== 'deny' && (await this.ctx.stores.clientGrants.hasOrganizations(tenant.id, id))) {
      throw managementErrors.invalidBody(
        'organization_usage cannot be set to deny while the client grant is associated with organizations; remove the associations first.',
      );
    }
    if (Object.keys(changes).length) {
      await this.ctx.stores.clientGrants.update(tenant.id, id, changes);
    }
    return clientGrantFromRow(next);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.clientGrants.delete(tenant.id, id))) throw notFound();
  }

  /** Every granted scope must be defined by the resource server. */
  #checkScopes(scope: string[], scopes: readonly ResourceServerScope[]): void {
    const defined = new Set(scopes.map((s) => s.value));
    const unknown = scope.filter((s) => !defined.has(s));
    if (unknown.length) {
      throw managementErrors.invalidBody(`Scopes not defined by the resource server: ${unknown.join(', ')}`);
    }
  }
}

export function checkpointScope(tenant: Tenant): string {
  return `${tenant.id}:client_grants`;
}
