import type { DirectoryProvisioningRow, DirectoryUserRow } from '../../domain/directory-provisioning/rows.js';
import type { DirectoryProvisioningChanges, DirectoryProvisioningStore, SynchronizationState } from '../../domain/directory-provisioning/store.js';
import type { KeysetWindow } from '../../domain/paging.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';

export class KyselyDirectoryProvisioningStore implements DirectoryProvisioningStore {
  constructor(private readonly db: Db) {}

  async get(tenantId: string, connectionId: string): Promise<DirectoryProvisioningRow | undefined> {
    const row = await this.db.selectFrom('directory_provisionings').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).executeTakeFirst();
    return row && fromStored('directory_provisionings', row);
  }

  async list(tenantId: string, window: KeysetWindow): Promise<(DirectoryProvisioningRow & { connection_name: string; strategy: string })[]> {
    let query = this.db
      .selectFrom('directory_provisionings')
      .innerJoin('connections', (join) => join.onRef('connections.tenant_id', '=', 'directory_provisionings.tenant_id').onRef('connections.id', '=', 'directory_provisionings.connection_id'))
      .selectAll('directory_provisionings')
      .select(['connections.name as connection_name', 'connections.strategy as strategy'])
      .where('directory_provisionings.tenant_id', '=', tenantId);
    if (window.after !== undefined) query = query.where('directory_provisionings.connection_id', '>', window.after);
    const rows = await query.orderBy('directory_provisionings.connection_id').limit(window.limit).execute();
    return rows.map((row) => fromStored('directory_provisionings', row));
  }

  async insert(row: DirectoryProvisioningRow): Promise<boolean> {
    try {
      await this.db.insertInto('directory_provisionings').values(toStored('directory_provisionings', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, connectionId: string, changes: DirectoryProvisioningChanges): Promise<boolean> {
    const result = await this.db
      .updateTable('directory_provisionings')
      .set(toStored('directory_provisionings', changes))
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, connectionId: string): Promise<boolean> {
    // Its dependants first (SQLite enforces the cascade only with foreign keys on; this does not depend on it).
    await this.db.deleteFrom('directory_synchronized_groups').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute();
    await this.db.deleteFrom('directory_users').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute();
    const result = await this.db.deleteFrom('directory_provisionings').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setSynchronization(tenantId: string, connectionId: string, state: SynchronizationState): Promise<void> {
    await this.db
      .updateTable('directory_provisionings')
      .set({
        last_synchronization_at: state.last_synchronization_at,
        last_synchronization_status: state.last_synchronization_status,
        last_synchronization_error: state.last_synchronization_error,
        ...(state.last_synchronization_id !== undefined && { last_synchronization_id: state.last_synchronization_id }),
      })
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .execute();
  }

  async synchronizationQueued(tenantId: string, connectionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .where('type', '=', 'directory_sync')
      .where('status', 'in', ['pending', 'processing'])
      .executeTakeFirst();
    return row !== undefined;
  }

  async dueForAutomatic(before: string, limit: number): Promise<Pick<DirectoryProvisioningRow, 'tenant_id' | 'connection_id'>[]> {
    return this.db
      .selectFrom('directory_provisionings')
      .select(['tenant_id', 'connection_id'])
      .where('synchronize_automatically', '=', 1)
      .where((eb) => eb.or([eb('last_synchronization_at', 'is', null), eb('last_synchronization_at', '<', before)]))
      .where((eb) => eb.or([eb('last_synchronization_status', 'is', null), eb('last_synchronization_status', 'not in', ['pending', 'running'])]))
      .orderBy('last_synchronization_at')
      .limit(limit)
      .execute();
  }

  async listGroups(tenantId: string, connectionId: string, window: KeysetWindow): Promise<string[]> {
    let query = this.db.selectFrom('directory_synchronized_groups').select('group_id').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId);
    if (window.after !== undefined) query = query.where('group_id', '>', window.after);
    const rows = await query.orderBy('group_id').limit(window.limit).execute();
    return rows.map((row) => row.group_id);
  }

  async replaceGroups(tenantId: string, connectionId: string, groupIds: readonly string[]): Promise<void> {
    // Callers run it in a unit of work: both statements commit together.
    await this.db.deleteFrom('directory_synchronized_groups').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute();
    const unique = [...new Set(groupIds)];
    if (unique.length > 0) await this.db.insertInto('directory_synchronized_groups').values(unique.map((group_id) => ({ tenant_id: tenantId, connection_id: connectionId, group_id }))).execute();
  }

  async putUser(row: DirectoryUserRow): Promise<void> {
    await this.db
      .insertInto('directory_users')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'user_id']).doUpdateSet({
          connection_id: row.connection_id,
          directory_id: row.directory_id,
          synchronization_id: row.synchronization_id,
          blocked_by_directory: row.blocked_by_directory,
        }),
      )
      .execute();
  }

  async getUser(tenantId: string, userId: string): Promise<DirectoryUserRow | undefined> {
    return this.db.selectFrom('directory_users').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
  }

  async usersNotSeen(tenantId: string, connectionId: string, synchronizationId: string, window: KeysetWindow): Promise<DirectoryUserRow[]> {
    let query = this.db
      .selectFrom('directory_users')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .where('synchronization_id', '<>', synchronizationId);
    if (window.after !== undefined) query = query.where('user_id', '>', window.after);
    return query.orderBy('user_id').limit(window.limit).execute();
  }
}
