/**
 * Business rules of connections, behind the Management API routes. The
 * strategies are those of the registry (src/domain/connections/strategies/);
 * any other strategy of the document's enum is refused with 400
 * `operation_not_supported`.
 */
import { connectionFromRow, newConnectionId, type Connection, type ConnectionRow } from '../../domain/connections/model.js';
import { CONNECTION_STRATEGIES, connectionStrategy } from '../../domain/connections/strategies/index.js';
import { StrategyOptionsError, type ConnectionStrategy, type StrategyDeps } from '../../domain/connections/strategies/strategy.js';
import { upstreamFetch } from '../../platform/http/upstream-fetch.js';
import type { FederationEndpointOverrides } from '../../platform/federation-endpoints.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { Paging } from '../paging.js';
import { checkpointPage, checkpointPaging, pagedList, type CheckpointList, type OffsetList, type CheckpointSealing } from '../lists.js';
import type { CreateConnectionBody, UpdateConnectionBody, UpdateEnabledClientsBody } from './schema.js';
import { type ConnectionChanges, type ConnectionFilter, type ConnectionStore } from '../../domain/connections/store.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import type { OutboundPolicy } from '../../platform/http/outbound-guard.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { sealConfiguration } from '../../domain/connections/configuration.js';

/** management-api-wire-notes §2. */
export const connectionNotFound = () => managementErrors.notFound('The connection does not exist', 'inexistent_connection');
const clientNotFound = () => managementErrors.notFound('The client does not exist', 'inexistent_client');
const conflict = () => managementErrors.conflict('A connection with the same name already exists');

export type ConnectionList = OffsetList<'connections', Partial<Connection>> | CheckpointList<'connections', Partial<Connection>>;

/** `fields` / `include_fields`: which members are returned; unknown names select nothing. */
export interface FieldSelection {
  fields: ReadonlySet<string>;
  include: boolean;
}

export function fieldSelection(fields: string | undefined, includeFields: boolean | undefined): FieldSelection | undefined {
  const names = (fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  return names.length === 0 ? undefined : { fields: new Set(names), include: includeFields !== false };
}

function select<T extends object>(item: T, selection: FieldSelection | undefined): Partial<T> {
  if (!selection) return item;
  return Object.fromEntries(Object.entries(item).filter(([key]) => selection.fields.has(key) === selection.include)) as Partial<T>;
}

export function checkpointScope(tenant: Tenant): string {
  return `${tenant.id}:connections`;
}

export function clientsCheckpointScope(tenant: Tenant, connectionId: string): string {
  return `${tenant.id}:connections:${connectionId}:clients`;
}

export function clientConnectionsCheckpointScope(tenant: Tenant, clientId: string): string {
  return `${tenant.id}:clients:${clientId}:connections`;
}

/** The options' check of the connection's strategy (src/domain/connections/strategies/). */
function checkOptions(strategy: ConnectionStrategy | undefined, options: Record<string, unknown>): void {
  const problem = strategy?.optionsProblem(options);
  if (problem) throw managementErrors.invalidBody(`Payload validation error: '${problem.message}' on property ${problem.property}.`);
}

/** The options as stored: checked, then completed by the strategy (an OpenID provider's discovery document). */
async function storedOptions(strategy: ConnectionStrategy | undefined, options: Record<string, unknown>, deps: StrategyDeps): Promise<Record<string, unknown>> {
  checkOptions(strategy, options);
  if (!strategy?.prepareOptions) return options;
  try {
    return await strategy.prepareOptions(options, deps);
  } catch (error) {
    if (error instanceof StrategyOptionsError) throw managementErrors.invalidBody(`Payload validation error: '${error.problem.message}' on property ${error.problem.property}.`);
    throw error;
  }
}

/** The members of options that are an upstream's secrets (Apple's `.p8` key is `app_secret`). */
const SECRET_OPTIONS = ['client_secret', 'app_secret'] as const;

/**
 * New options replace the stored ones wholesale, except the secrets they
 * leave out: those are kept, as the service keeps them (auth0-deploy-cli
 * exports secrets as placeholders and, importing, drops them from the
 * options it sends, "the existing value on Auth0 will be preserved").
 */
function keptSecrets(stored: Readonly<Record<string, unknown>>, options: Record<string, unknown> | null): Record<string, unknown> {
  const next = { ...options };
  if (options === null) return next;
  for (const member of SECRET_OPTIONS) if (!(member in next) && typeof stored[member] === 'string') next[member] = stored[member];
  return next;
}

/** `show_as_button` as stored: enterprise strategies only, as the service's schemas have it (social connections always show as buttons). */
function buttonSetting(strategy: ConnectionStrategy | undefined, value: boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (strategy?.kind !== 'enterprise') throw managementErrors.invalidBody("Payload validation error: 'show_as_button is only available on enterprise connections' on property show_as_button.");
  return value ? 1 : 0;
}

/** What ConnectionService touches. */
export interface ConnectionServiceContext extends CheckpointSealing {
  readonly now: () => number;
  readonly stores: { readonly connections: ConnectionStore };
  /** Seals `options.configuration` (custom database settings) at rest. */
  readonly box: SecretBox;
  /** Where upstream calls (an oidc connection's discovery) may go. */
  readonly config: { readonly outbound: OutboundPolicy; readonly federationEndpoints?: { readonly overrides: FederationEndpointOverrides } | undefined };
}

export class ConnectionService {
  readonly connections: ConnectionStore;
  private readonly strategyDeps: StrategyDeps;

  constructor(private readonly ctx: ConnectionServiceContext) {
    this.connections = ctx.stores.connections;
    const endpoints = ctx.config.federationEndpoints?.overrides;
    this.strategyDeps = { fetch: upstreamFetch({ outbound: ctx.config.outbound }), ...(endpoints && { endpoints }) };
  }

  list(tenant: Tenant, filter: ConnectionFilter, paging: Paging, selection?: FieldSelection): Promise<ConnectionList> {
    const toApi = (row: ConnectionRow) => select(connectionFromRow(row), selection);
    return pagedList(this.ctx, checkpointScope(tenant), 'connections', paging, (page) => this.connections.list(tenant.id, filter, page), (row) => row.id, toApi);
  }

  /** GET /clients/{id}/connections: the connections enabled for the client, checkpoint-paged by id. */
  async listForClient(
    tenant: Tenant,
    clientId: string,
    strategies: readonly string[] | undefined,
    query: { from?: string; take?: number },
    selection?: FieldSelection,
  ): Promise<CheckpointList<'connections', Partial<Connection>>> {
    if (!(await this.connections.existingClients(tenant.id, [clientId])).has(clientId)) throw managementErrors.notFound('Client does not exist.', 'inexistent_client');
    const scope = clientConnectionsCheckpointScope(tenant, clientId);
    const filter = { clientId, ...(strategies !== undefined && { strategies }) };
    return checkpointPage(
      this.ctx,
      scope,
      'connections',
      checkpointPaging(this.ctx, query, scope),
      async (window) => (await this.connections.list(tenant.id, filter, { kind: 'keyset', ...window })).rows,
      (row) => row.id,
      (row) => select(connectionFromRow(row), selection),
    );
  }

  async find(tenant: Tenant, id: string): Promise<ConnectionRow> {
    const row = await this.connections.get(tenant.id, id);
    if (!row) throw connectionNotFound();
    return row;
  }

  /** GET /connections/{id}/status: nothing when the connection's upstream answers (or it has none); a 404 saying why otherwise. */
  async status(tenant: Tenant, id: string): Promise<void> {
    const row = await this.find(tenant, id);
    const problem = await connectionStrategy(row.strategy)?.status?.(row.options, this.strategyDeps);
    if (problem !== undefined) throw managementErrors.notFound(problem);
  }

  async get(tenant: Tenant, id: string, selection?: FieldSelection): Promise<Partial<Connection>> {
    const row = await this.find(tenant, id);
    return select(connectionFromRow(row, await this.connections.enabledClients(tenant.id, id)), selection);
  }

  async create(tenant: Tenant, body: CreateConnectionBody): Promise<Connection> {
    const strategy = connectionStrategy(body.strategy);
    if (!strategy) {
      throw managementErrors.badRequest(
        `The strategy ${body.strategy} is not supported; Gatehouse supports ${CONNECTION_STRATEGIES.map((s) => s.name).join(', ')} connections only.`,
        'operation_not_supported',
      );
    }
    const showAsButton = buttonSetting(strategy, body.show_as_button);
    const id = newConnectionId();
    const options = sealConfiguration(this.ctx.box, tenant.id, id, await storedOptions(strategy, body.options ?? {}, this.strategyDeps));
    const enabledClients = [...new Set(body.enabled_clients ?? [])];
    await this.requireClients(tenant, enabledClients);
    const now = isoAt(this.ctx.now());
    const row: ConnectionRow = {
      tenant_id: tenant.id,
      id,
      name: body.name,
      display_name: body.display_name ?? null,
      strategy: body.strategy,
      options,
      is_domain_connection: body.is_domain_connection ? 1 : 0,
      ...(showAsButton !== undefined && { show_as_button: showAsButton }),
      // "If the array is empty or the property is not specified, the connection name will be added as realm."
      realms: body.realms?.length ? body.realms : [body.name],
      metadata: body.metadata ?? {},
      created_at: now,
      updated_at: now,
    };
    try {
      await this.connections.insert(row, enabledClients);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict();
      throw error;
    }
    return connectionFromRow(row, await this.connections.enabledClients(tenant.id, row.id));
  }

  /**
   * `options`, when given, replaces the whole options object (the service's documented
   * behaviour; null clears it). `enabled_clients`, when given, replaces the set (null empties it).
   */
  async update(tenant: Tenant, id: string, body: UpdateConnectionBody): Promise<Connection> {
    const row = await this.find(tenant, id);
    const changes: ConnectionChanges = { updated_at: isoAt(this.ctx.now()) };
    if (body.display_name !== undefined) changes.display_name = body.display_name;
    if (body.options !== undefined) {
      const options = await storedOptions(connectionStrategy(row.strategy), keptSecrets(row.options, body.options), this.strategyDeps);
      changes.options = sealConfiguration(this.ctx.box, tenant.id, id, options, row.options);
    }
    if (body.is_domain_connection !== undefined) changes.is_domain_connection = body.is_domain_connection ? 1 : 0;
    const showAsButton = buttonSetting(connectionStrategy(row.strategy), body.show_as_button);
    if (showAsButton !== undefined) changes.show_as_button = showAsButton;
    if (body.realms !== undefined) changes.realms = body.realms.length > 0 ? body.realms : [row.name];
    if (body.metadata !== undefined) changes.metadata = body.metadata;
    let enabledClients: string[] | undefined;
    if (body.enabled_clients !== undefined) {
      enabledClients = [...new Set(body.enabled_clients ?? [])];
      await this.requireClients(tenant, enabledClients);
    }
    if (!(await this.connections.update(tenant.id, id, changes, enabledClients))) throw connectionNotFound();
    return connectionFromRow({ ...row, ...changes }, await this.connections.enabledClients(tenant.id, id));
  }

  /** The connection's users and client links go with it (cascading foreign keys). */
  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.connections.delete(tenant.id, id))) throw connectionNotFound();
  }

  async enabledClients(tenant: Tenant, id: string, paging: { after: string | undefined; take: number }): Promise<CheckpointList<'clients', { client_id: string }>> {
    await this.find(tenant, id);
    return checkpointPage(
      this.ctx,
      clientsCheckpointScope(tenant, id),
      'clients',
      paging,
      (window) => this.connections.enabledClients(tenant.id, id, window),
      (clientId) => clientId,
      (client_id) => ({ client_id }),
    );
  }

  async setClientStatus(tenant: Tenant, id: string, body: UpdateEnabledClientsBody): Promise<void> {
    await this.find(tenant, id);
    // Disabling a client that does not exist changes nothing, but is refused like enabling one.
    await this.requireClients(tenant, body.map((c) => c.client_id));
    await this.connections.setClientStatus(tenant.id, id, body);
  }

  private async requireClients(tenant: Tenant, clientIds: readonly string[]): Promise<void> {
    const existing = await this.connections.existingClients(tenant.id, clientIds);
    if (clientIds.some((c) => !existing.has(c))) throw clientNotFound();
  }
}
