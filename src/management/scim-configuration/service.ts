/**
 * Business rules of a connection's SCIM configuration and tokens: only an
 * enterprise connection (src/domain/scim/connections.ts) takes one; the
 * mapping is checked (src/domain/scim/mapping.ts); a token is 256 random
 * bits shown once and kept as its SHA-256, at most two per connection.
 */
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { MAX_SCIM_TOKENS, MIN_SCIM_TOKEN_LIFETIME, SCIM_STRATEGIES, SCIM_TOKEN_SCOPES, takesScim } from '../../domain/scim/connections.js';
import { DEFAULT_SCIM_MAPPING, mappingProblem } from '../../domain/scim/mapping.js';
import type { ScimConfigurationRow, ScimMappingItem, ScimTokenRow } from '../../domain/scim/rows.js';
import type { ScimStore } from '../../domain/scim/store.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { managementErrors } from '../../platform/http/errors.js';
import { connectionNotFound } from '../connections/service.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import type { CreateScimConfigurationBody, CreateScimTokenBody, ScimConfiguration, ScimTokenItem, UpdateScimConfigurationBody } from './schema.js';

/** The SCIM attribute whose value is the user's id at the connection, by default (the service's). */
export const DEFAULT_USER_ID_ATTRIBUTE = 'externalId';

const configurationNotFound = () => managementErrors.notFound('Not Found');

export interface ScimConfigurationServiceContext extends CheckpointSealing {
  readonly now: () => number;
  readonly stores: { readonly connections: Pick<ConnectionStore, 'get'>; readonly scim: ScimStore };
}

export class ScimConfigurationService {
  constructor(private readonly ctx: ScimConfigurationServiceContext) {}

  /** The connection, if it is one that takes SCIM (400 otherwise, 404 when there is none). */
  private async connection(tenant: Tenant, connectionId: string): Promise<ConnectionRow> {
    const connection = await this.ctx.stores.connections.get(tenant.id, connectionId);
    if (!connection) throw connectionNotFound();
    if (!takesScim(connection.strategy)) {
      throw managementErrors.badRequest(`SCIM is only available for the strategies ${SCIM_STRATEGIES.join(', ')}; this connection's strategy is ${connection.strategy}.`, 'operation_not_supported');
    }
    return connection;
  }

  private async configuration(tenant: Tenant, connectionId: string): Promise<{ connection: ConnectionRow; row: ScimConfigurationRow }> {
    const connection = await this.connection(tenant, connectionId);
    const row = await this.ctx.stores.scim.getConfiguration(tenant.id, connectionId);
    if (!row) throw configurationNotFound();
    return { connection, row };
  }

  private shape(tenant: Tenant, connection: Pick<ConnectionRow, 'id' | 'name' | 'strategy'>, row: ScimConfigurationRow): ScimConfiguration {
    return {
      connection_id: connection.id,
      connection_name: connection.name,
      strategy: connection.strategy,
      tenant_name: tenant.name,
      user_id_attribute: row.user_id_attribute,
      mapping: row.mapping,
      deprovisioning: row.deprovisioning,
      created_at: row.created_at,
      updated_on: row.updated_on,
    };
  }

  private checked(mapping: ScimMappingItem[], userIdAttribute: string): void {
    const problem = mappingProblem(mapping, userIdAttribute);
    if (problem) throw managementErrors.invalidBody(`Invalid mapping provided: ${problem}`);
  }

  async create(tenant: Tenant, connectionId: string, body: CreateScimConfigurationBody | undefined): Promise<ScimConfiguration> {
    const connection = await this.connection(tenant, connectionId);
    const mapping = body?.mapping ?? DEFAULT_SCIM_MAPPING.map((item) => ({ ...item }));
    const userIdAttribute = body?.user_id_attribute ?? DEFAULT_USER_ID_ATTRIBUTE;
    this.checked(mapping, userIdAttribute);
    const now = isoAt(this.ctx.now());
    const row: ScimConfigurationRow = {
      tenant_id: tenant.id,
      connection_id: connection.id,
      user_id_attribute: userIdAttribute,
      mapping,
      deprovisioning: body?.deprovisioning ?? 'delete',
      created_at: now,
      updated_on: now,
    };
    if (!(await this.ctx.stores.scim.insertConfiguration(row))) throw managementErrors.conflict('A SCIM configuration already exists for this connection');
    return this.shape(tenant, connection, row);
  }

  /** GET /connections-scim-configurations: the tenant's configurations by connection id, checkpoint paging. */
  async list(tenant: Tenant, query: { from?: string; take?: number }): Promise<CheckpointList<'scim_configurations', ScimConfiguration>> {
    const scope = `${tenant.id}:scim-configurations`;
    const paging = checkpointPaging(this.ctx, query, scope);
    return checkpointPage(
      this.ctx,
      scope,
      'scim_configurations',
      paging,
      (window) => this.ctx.stores.scim.listConfigurations(tenant.id, window),
      (row) => row.connection_id,
      (row) => this.shape(tenant, { id: row.connection_id, name: row.connection_name, strategy: row.strategy }, row),
    );
  }

  async get(tenant: Tenant, connectionId: string): Promise<ScimConfiguration> {
    const { connection, row } = await this.configuration(tenant, connectionId);
    return this.shape(tenant, connection, row);
  }

  async update(tenant: Tenant, connectionId: string, body: UpdateScimConfigurationBody): Promise<ScimConfiguration> {
    const { connection, row } = await this.configuration(tenant, connectionId);
    this.checked(body.mapping, body.user_id_attribute);
    // `deprovisioning` (Gatehouse's) is kept when the body, as the service's, leaves it out.
    const changes = { user_id_attribute: body.user_id_attribute, mapping: body.mapping, deprovisioning: body.deprovisioning ?? row.deprovisioning, updated_on: isoAt(this.ctx.now()) };
    if (!(await this.ctx.stores.scim.updateConfiguration(tenant.id, connectionId, changes))) throw configurationNotFound();
    return this.shape(tenant, connection, { ...row, ...changes });
  }

  /** Its tokens go with it; the users it provisioned stay. */
  async delete(tenant: Tenant, connectionId: string): Promise<void> {
    await this.connection(tenant, connectionId);
    if (!(await this.ctx.stores.scim.deleteConfiguration(tenant.id, connectionId))) throw configurationNotFound();
  }

  async defaultMapping(tenant: Tenant, connectionId: string): Promise<{ mapping: ScimMappingItem[] }> {
    await this.connection(tenant, connectionId);
    return { mapping: DEFAULT_SCIM_MAPPING.map((item) => ({ ...item })) };
  }

  async createToken(tenant: Tenant, connectionId: string, body: CreateScimTokenBody): Promise<ScimTokenItem & { token: string }> {
    await this.configuration(tenant, connectionId);
    const scopes = [...new Set(body.scopes ?? SCIM_TOKEN_SCOPES)];
    const unknown = scopes.find((scope) => !(SCIM_TOKEN_SCOPES as readonly string[]).includes(scope));
    if (unknown !== undefined) throw managementErrors.invalidBody(`Payload validation error: 'Invalid scope ${unknown}; expected any of ${SCIM_TOKEN_SCOPES.join(', ')}' on property scopes.`);
    const lifetime = body.token_lifetime ?? undefined;
    if (lifetime !== undefined && lifetime <= MIN_SCIM_TOKEN_LIFETIME) {
      throw managementErrors.invalidBody(`Payload validation error: 'Must be greater than ${MIN_SCIM_TOKEN_LIFETIME}' on property token_lifetime.`);
    }
    const now = this.ctx.now();
    const token = newSecret();
    const row: ScimTokenRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('tok', 16),
      connection_id: connectionId,
      token_hash: secretHash(token),
      scopes,
      created_at: isoAt(now),
      valid_until: lifetime === undefined ? null : isoAt(now + lifetime * 1000),
      last_used_at: null,
    };
    if (!(await this.ctx.stores.scim.insertToken(row, MAX_SCIM_TOKENS))) {
      throw managementErrors.conflict(`Maximum of ${MAX_SCIM_TOKENS} tokens already issued for this connection`);
    }
    return { ...tokenItem(row), token };
  }

  async listTokens(tenant: Tenant, connectionId: string): Promise<ScimTokenItem[]> {
    await this.configuration(tenant, connectionId);
    return (await this.ctx.stores.scim.listTokens(tenant.id, connectionId)).map(tokenItem);
  }

  async deleteToken(tenant: Tenant, connectionId: string, tokenId: string): Promise<void> {
    await this.configuration(tenant, connectionId);
    if (!(await this.ctx.stores.scim.deleteToken(tenant.id, connectionId, tokenId))) throw managementErrors.notFound('The token does not exist');
  }
}

function tokenItem(row: ScimTokenRow): ScimTokenItem {
  return {
    token_id: row.id,
    scopes: row.scopes,
    created_at: row.created_at,
    ...(row.valid_until !== null && { valid_until: row.valid_until }),
    ...(row.last_used_at !== null && { last_used_at: row.last_used_at }),
  };
}
