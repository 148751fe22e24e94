/** User attribute profiles (src/storage/migrations/0241_user_attribute_profiles.ts). */
import type { UserAttributeProfileChanges, UserAttributeProfileStore } from '../../domain/user-attribute-profiles/store.js';
import type { UserAttributeProfileRow } from '../../domain/user-attribute-profiles/rows.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';
import { countRows } from '../paging.js';

export class KyselyUserAttributeProfileStore implements UserAttributeProfileStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, after: string | undefined, limit: number): Promise<UserAttributeProfileRow[]> {
    let query = this.db.selectFrom('user_attribute_profiles').selectAll().where('tenant_id', '=', tenantId);
    if (after !== undefined) query = query.where('id', '>', after);
    return (await query.orderBy('id').limit(limit).execute()).map((row) => fromStored('user_attribute_profiles', row));
  }

  count(tenantId: string): Promise<number> {
    return countRows(this.db.selectFrom('user_attribute_profiles').where('tenant_id', '=', tenantId));
  }

  async get(tenantId: string, id: string): Promise<UserAttributeProfileRow | undefined> {
    const row = await this.db.selectFrom('user_attribute_profiles').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && fromStored('user_attribute_profiles', row);
  }

  /** The id of the tenant's profile named `name`, if any. */
  private async named(tenantId: string, name: string): Promise<string | undefined> {
    return (await this.db.selectFrom('user_attribute_profiles').select('id').where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst())?.id;
  }

  async create(row: UserAttributeProfileRow): Promise<boolean> {
    // Checked first so that a taken name does not abort an enclosing PostgreSQL transaction; the constraint settles races.
    if ((await this.named(row.tenant_id, row.name)) !== undefined) return false;
    try {
      await this.db.insertInto('user_attribute_profiles').values(toStored('user_attribute_profiles', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, id: string, changes: UserAttributeProfileChanges, now: string): Promise<UserAttributeProfileRow | undefined | 'conflict'> {
    if (changes.name !== undefined) {
      const other = await this.named(tenantId, changes.name);
      if (other !== undefined && other !== id) return 'conflict';
    }
    try {
      await this.db.updateTable('user_attribute_profiles').set(toStored('user_attribute_profiles', { ...changes, updated_at: now })).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
    return this.get(tenantId, id);
  }

  async clientsUsing(tenantId: string, id: string, limit: number): Promise<string[]> {
    // The clients' configuration is JSON text: LIKE narrows to the rows naming the id anywhere, the parsed members decide.
    const rows = await this.db
      .selectFrom('clients')
      .select(['client_id', 'config'])
      .where('tenant_id', '=', tenantId)
      .where('config', 'like', `%${id}%`)
      .orderBy('client_id')
      .execute();
    return rows
      .filter(({ config }) => {
        const parsed = fromStored('clients', { config }).config as Record<string, { user_attribute_profile_id?: unknown } | null | undefined>;
        return parsed.express_configuration?.user_attribute_profile_id === id || parsed.my_organization_configuration?.user_attribute_profile_id === id;
      })
      .slice(0, limit)
      .map(({ client_id }) => client_id);
  }

  async selfServiceProfilesUsing(tenantId: string, id: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('self_service_profiles')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('user_attribute_profile_id', '=', id)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('user_attribute_profiles').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
