/**
 * Business rules of a connection's inbound directory provisioning: only a
 * Google Workspace connection takes one (src/domain/directory-provisioning/mapping.ts),
 * set up for it (Users API enabled, the administrator's consent given; the
 * Groups API when groups are synchronized); the mapping is checked; a
 * synchronization is a job on the durable queue (src/domain/directory-provisioning/queue.ts).
 */
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import { DEFAULT_DIRECTORY_MAPPING, DIRECTORY_STRATEGIES, directoryMappingProblem, groupsApiProblem, setupProblem, takesDirectoryProvisioning } from '../../domain/directory-provisioning/mapping.js';
import { MIN_INTERVAL_MS, queueSynchronization } from '../../domain/directory-provisioning/queue.js';
import type { DirectoryMappingItem, DirectoryProvisioningRow } from '../../domain/directory-provisioning/rows.js';
import type { DirectoryProvisioningStore } from '../../domain/directory-provisioning/store.js';
import type { JobStore } from '../../domain/jobs/store.js';
import type { UnitOfWork } from '../../domain/stores.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';
import { connectionNotFound } from '../connections/service.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import type { CreateDirectoryProvisioningBody, DirectoryProvisioning, ReplaceSynchronizedGroupsBody, Synchronization, UpdateDirectoryProvisioningBody } from './schema.js';

const configurationNotFound = () => managementErrors.notFound('Directory provisioning configuration not found');

type Stores = { readonly connections: Pick<ConnectionStore, 'get'>; readonly directoryProvisioning: DirectoryProvisioningStore; readonly jobs: JobStore };

export interface DirectoryProvisioningServiceContext extends CheckpointSealing {
  readonly now: () => number;
  readonly stores: Stores;
  readonly unitOfWork: UnitOfWork<{ directoryProvisioning: DirectoryProvisioningStore; jobs: JobStore }>;
}

export class DirectoryProvisioningService {
  constructor(private readonly ctx: DirectoryProvisioningServiceContext) {}

  /** The connection, if its strategy takes directory provisioning (400 otherwise, 404 when there is none). */
  private async connection(tenant: Tenant, connectionId: string): Promise<ConnectionRow> {
    const connection = await this.ctx.stores.connections.get(tenant.id, connectionId);
    if (!connection) throw connectionNotFound();
    if (!takesDirectoryProvisioning(connection.strategy)) {
      throw managementErrors.badRequest(
        `The connection strategy does not support inbound directory provisioning (strategies: ${DIRECTORY_STRATEGIES.join(', ')}; this connection's is ${connection.strategy}).`,
        'operation_not_supported',
      );
    }
    return connection;
  }

  private async configuration(tenant: Tenant, connectionId: string): Promise<{ connection: ConnectionRow; row: DirectoryProvisioningRow }> {
    const connection = await this.connection(tenant, connectionId);
    const row = await this.ctx.stores.directoryProvisioning.get(tenant.id, connectionId);
    if (!row) throw configurationNotFound();
    return { connection, row };
  }

  private checked(connection: ConnectionRow, mapping: DirectoryMappingItem[], groups: DirectoryProvisioningRow['synchronize_groups']): void {
    const setup = setupProblem(connection.options, groups);
    if (setup) throw managementErrors.badRequest(setup);
    const problem = directoryMappingProblem(mapping);
    if (problem) throw managementErrors.invalidBody(`Invalid mapping provided: ${problem}`);
  }

  async create(tenant: Tenant, connectionId: string, body: CreateDirectoryProvisioningBody | undefined): Promise<DirectoryProvisioning> {
    const connection = await this.connection(tenant, connectionId);
    const mapping = body?.mapping ?? DEFAULT_DIRECTORY_MAPPING.map((item) => ({ ...item }));
    const groups = body?.synchronize_groups ?? 'off';
    this.checked(connection, mapping, groups);
    const now = isoAt(this.ctx.now());
    const row: DirectoryProvisioningRow = {
      tenant_id: tenant.id,
      connection_id: connection.id,
      mapping,
      synchronize_automatically: body?.synchronize_automatically === true ? 1 : 0,
      synchronize_groups: groups,
      created_at: now,
      updated_at: now,
      last_synchronization_id: null,
      last_synchronization_at: null,
      last_synchronization_status: null,
      last_synchronization_error: null,
    };
    if (!(await this.ctx.stores.directoryProvisioning.insert(row))) throw managementErrors.conflict('Directory provisioning is already enabled on the specified connection');
    return shape(connection, row);
  }

  /** GET /connections-directory-provisionings: by connection id, checkpoint paging. */
  async list(tenant: Tenant, query: { from?: string; take?: number }): Promise<CheckpointList<'directory_provisionings', DirectoryProvisioning>> {
    const scope = `${tenant.id}:directory-provisionings`;
    return checkpointPage(
      this.ctx,
      scope,
      'directory_provisionings',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.directoryProvisioning.list(tenant.id, window),
      (row) => row.connection_id,
      (row) => shape({ id: row.connection_id, name: row.connection_name, strategy: row.strategy }, row),
    );
  }

  async get(tenant: Tenant, connectionId: string): Promise<DirectoryProvisioning> {
    const { connection, row } = await this.configuration(tenant, connectionId);
    return shape(connection, row);
  }

  /** The members the body names change; the others are kept. */
  async update(tenant: Tenant, connectionId: string, body: UpdateDirectoryProvisioningBody | undefined): Promise<DirectoryProvisioning> {
    const { connection, row } = await this.configuration(tenant, connectionId);
    const mapping = body?.mapping ?? row.mapping;
    const groups = body?.synchronize_groups ?? row.synchronize_groups;
    this.checked(connection, mapping, groups);
    const changes = {
      mapping,
      synchronize_groups: groups,
      synchronize_automatically: body?.synchronize_automatically === undefined ? row.synchronize_automatically : body.synchronize_automatically ? 1 : 0,
      updated_at: isoAt(this.ctx.now()),
    };
    if (!(await this.ctx.stores.directoryProvisioning.update(tenant.id, connectionId, changes))) throw configurationNotFound();
    return shape(connection, { ...row, ...changes });
  }

  /** The users it synchronized stay (blocked or not, as they are). */
  async delete(tenant: Tenant, connectionId: string): Promise<void> {
    await this.connection(tenant, connectionId);
    if (!(await this.ctx.stores.directoryProvisioning.delete(tenant.id, connectionId))) throw configurationNotFound();
  }

  async defaultMapping(tenant: Tenant, connectionId: string): Promise<{ mapping: DirectoryMappingItem[] }> {
    await this.connection(tenant, connectionId);
    return { mapping: DEFAULT_DIRECTORY_MAPPING.map((item) => ({ ...item })) };
  }

  /** POST …/synchronizations: queues one (201 `pending`); 409 while one is queued or running, 400 within 30 minutes of the last. */
  async synchronize(tenant: Tenant, connectionId: string): Promise<Synchronization> {
    const { connection, row } = await this.configuration(tenant, connectionId);
    const setup = setupProblem(connection.options, row.synchronize_groups);
    if (setup) throw managementErrors.badRequest(setup);
    const now = this.ctx.now();
    const last = row.last_synchronization_at === null ? undefined : Date.parse(row.last_synchronization_at);
    if (row.last_synchronization_status === 'completed' && last !== undefined && now - last < MIN_INTERVAL_MS) {
      throw managementErrors.badRequest('Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again.');
    }
    const outcome = await queueSynchronization(this.ctx.unitOfWork, tenant.id, connectionId, now);
    if ('refused' in outcome) throw managementErrors.conflict('A synchronization has already been requested or is in progress for the connection');
    return { connection_id: connectionId, synchronization_id: outcome.queued, status: 'pending' };
  }

  private async groupsTarget(tenant: Tenant, connectionId: string): Promise<void> {
    const { connection } = await this.configuration(tenant, connectionId);
    if (connection.options.api_enable_groups !== true) throw managementErrors.badRequest(groupsApiProblem());
    const setup = setupProblem(connection.options, 'off');
    if (setup) throw managementErrors.badRequest(setup);
  }

  async listGroups(tenant: Tenant, connectionId: string, query: { from?: string; take?: number }): Promise<{ groups: { id: string }[]; next?: string }> {
    await this.groupsTarget(tenant, connectionId);
    const scope = `${tenant.id}:directory-provisionings:${connectionId}:groups`;
    const page = await checkpointPage(
      this.ctx,
      scope,
      'groups',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.directoryProvisioning.listGroups(tenant.id, connectionId, window),
      (id) => id,
      (id) => ({ id }),
    );
    return page;
  }

  async replaceGroups(tenant: Tenant, connectionId: string, body: ReplaceSynchronizedGroupsBody): Promise<void> {
    await this.groupsTarget(tenant, connectionId);
    await this.ctx.unitOfWork.transaction((stores) => stores.directoryProvisioning.replaceGroups(tenant.id, connectionId, body.groups.map((group) => group.id)));
  }
}

function shape(connection: Pick<ConnectionRow, 'id' | 'name' | 'strategy'>, row: DirectoryProvisioningRow): DirectoryProvisioning {
  return {
    connection_id: connection.id,
    connection_name: connection.name,
    strategy: connection.strategy,
    mapping: row.mapping,
    synchronize_automatically: row.synchronize_automatically === 1,
    synchronize_groups: row.synchronize_groups,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.last_synchronization_at !== null && { last_synchronization_at: row.last_synchronization_at }),
    ...(row.last_synchronization_status !== null && { last_synchronization_status: row.last_synchronization_status }),
    ...(row.last_synchronization_error !== null && { last_synchronization_error: row.last_synchronization_error }),
  };
}
