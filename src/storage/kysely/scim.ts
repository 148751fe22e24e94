import type { ScimConfigurationRow, ScimTokenRow, ScimUserRow } from '../../domain/scim/rows.js';
import type { KeysetWindow } from '../../domain/paging.js';
import type { ScimStore, ScimUserLookup, ScimUserPage, ScimUserWrite } from '../../domain/scim/store.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';

export class KyselyScimStore implements ScimStore {
  constructor(private readonly db: Db) {}

  async getConfiguration(tenantId: string, connectionId: string): Promise<ScimConfigurationRow | undefined> {
    const row = await this.db.selectFrom('scim_configurations').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).executeTakeFirst();
    return row && fromStored('scim_configurations', row);
  }

  async listConfigurations(tenantId: string, window: KeysetWindow): Promise<(ScimConfigurationRow & { connection_name: string; strategy: string })[]> {
    let query = this.db
      .selectFrom('scim_configurations')
      .innerJoin('connections', (join) => join.onRef('connections.tenant_id', '=', 'scim_configurations.tenant_id').onRef('connections.id', '=', 'scim_configurations.connection_id'))
      .selectAll('scim_configurations')
      .select(['connections.name as connection_name', 'connections.strategy as strategy'])
      .where('scim_configurations.tenant_id', '=', tenantId);
    if (window.after !== undefined) query = query.where('scim_configurations.connection_id', '>', window.after);
    const rows = await query.orderBy('scim_configurations.connection_id').limit(window.limit).execute();
    return rows.map((row) => fromStored('scim_configurations', row));
  }

  async insertConfiguration(row: ScimConfigurationRow): Promise<boolean> {
    try {
      await this.db.insertInto('scim_configurations').values(toStored('scim_configurations', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async updateConfiguration(tenantId: string, connectionId: string, changes: Pick<ScimConfigurationRow, 'user_id_attribute' | 'mapping' | 'deprovisioning' | 'updated_on'>): Promise<boolean> {
    const result = await this.db
      .updateTable('scim_configurations')
      .set(toStored('scim_configurations', changes))
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteConfiguration(tenantId: string, connectionId: string): Promise<boolean> {
    // The tokens go first (SQLite enforces the cascade only with foreign keys on; this does not depend on it).
    await this.db.deleteFrom('scim_tokens').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute();
    const result = await this.db.deleteFrom('scim_configurations').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listTokens(tenantId: string, connectionId: string): Promise<ScimTokenRow[]> {
    const rows = await this.db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => fromStored('scim_tokens', row));
  }

  async insertToken(row: ScimTokenRow, max: number): Promise<boolean> {
    const { count } = await this.db
      .selectFrom('scim_tokens')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('tenant_id', '=', row.tenant_id)
      .where('connection_id', '=', row.connection_id)
      .executeTakeFirstOrThrow();
    if (Number(count) >= max) return false;
    await this.db.insertInto('scim_tokens').values(toStored('scim_tokens', row)).execute();
    return true;
  }

  async deleteToken(tenantId: string, connectionId: string, tokenId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('scim_tokens')
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .where('id', '=', tokenId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findToken(tenantId: string, tokenHash: string): Promise<ScimTokenRow | undefined> {
    const row = await this.db.selectFrom('scim_tokens').selectAll().where('token_hash', '=', tokenHash).where('tenant_id', '=', tenantId).executeTakeFirst();
    return row && fromStored('scim_tokens', row);
  }

  async touchToken(tenantId: string, tokenId: string, now: string): Promise<void> {
    await this.db.updateTable('scim_tokens').set({ last_used_at: now }).where('tenant_id', '=', tenantId).where('id', '=', tokenId).execute();
  }

  async getUser(tenantId: string, connectionId: string, userId: string): Promise<ScimUserRow | undefined> {
    const row = await this.db
      .selectFrom('scim_users')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && fromStored('scim_users', row);
  }

  async findUsers(tenantId: string, connectionId: string, lookup: ScimUserLookup, offset: number, limit: number): Promise<ScimUserPage> {
    const base = () => {
      const of = this.db.selectFrom('scim_users').where('scim_users.tenant_id', '=', tenantId).where('scim_users.connection_id', '=', connectionId);
      switch (lookup.by) {
        case 'user_name':
          return of.where('scim_users.user_name_lower', '=', lookup.value.toLowerCase());
        case 'external_id':
          return of.where('scim_users.external_id', '=', lookup.value);
        case 'email':
          return of
            .innerJoin('users', (join) => join.onRef('users.tenant_id', '=', 'scim_users.tenant_id').onRef('users.user_id', '=', 'scim_users.user_id'))
            .where('users.connection_id', '=', connectionId)
            .where('users.email_lower', '=', lookup.value.toLowerCase());
      }
    };
    const [rows, { count }] = await Promise.all([
      base().selectAll('scim_users').orderBy('scim_users.created_at').orderBy('scim_users.user_id').offset(offset).limit(limit).execute(),
      base().select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((row) => fromStored('scim_users', row)), total: Number(count) };
  }

  async listUsers(tenantId: string, connectionId: string, offset: number, limit: number): Promise<ScimUserPage> {
    const base = () => this.db.selectFrom('scim_users').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId);
    const [rows, { count }] = await Promise.all([
      base().selectAll().orderBy('created_at').orderBy('user_id').offset(offset).limit(limit).execute(),
      base().select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((row) => fromStored('scim_users', row)), total: Number(count) };
  }

  async putUser(row: ScimUserRow): Promise<ScimUserWrite> {
    const stored = toStored('scim_users', row);
    try {
      await this.db
        .insertInto('scim_users')
        .values(stored)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'user_id']).doUpdateSet({
            external_id: stored.external_id,
            user_name_lower: stored.user_name_lower,
            resource: stored.resource,
            updated_at: stored.updated_at,
          }),
        )
        .execute();
      return 'done';
    } catch (error) {
      if (isUniqueViolation(error)) return 'user_name_taken';
      throw error;
    }
  }

  async deleteUser(tenantId: string, connectionId: string, userId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('scim_users').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
