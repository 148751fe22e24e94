/**
 * What the connection profiles' and the user attribute profiles' stores
 * share (migrations 0240, 0241): rows of a tenant by id, a name unique in
 * the tenant, and the clients whose express or My Organization
 * configuration names a profile.
 */
import type { Db } from '../database.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { fromStored, toStored, type JsonTableRows } from '../json-columns.js';
import { countRows } from '../paging.js';

type ProfileTable = 'connection_profiles' | 'user_attribute_profiles';
/** The clients' configuration member that names a profile of the table. */
const CLIENT_MEMBER = { connection_profiles: 'connection_profile_id', user_attribute_profiles: 'user_attribute_profile_id' } as const;

export class KyselyNamedProfiles<T extends ProfileTable> {
  constructor(
    protected readonly db: Db,
    private readonly table: T,
  ) {}

  /** The table under the one name Kysely types its queries by: both tables have the columns these queries read. */
  private get from(): 'connection_profiles' {
    return this.table as 'connection_profiles';
  }

  private parse(row: object): JsonTableRows[T] {
    return fromStored(this.table, row) as unknown as JsonTableRows[T];
  }

  async list(tenantId: string, after: string | undefined, limit: number): Promise<JsonTableRows[T][]> {
    let query = this.db.selectFrom(this.from).selectAll().where('tenant_id', '=', tenantId);
    if (after !== undefined) query = query.where('id', '>', after);
    return (await query.orderBy('id').limit(limit).execute()).map((row) => this.parse(row));
  }

  count(tenantId: string): Promise<number> {
    return countRows(this.db.selectFrom(this.from).where('tenant_id', '=', tenantId));
  }

  async get(tenantId: string, id: string): Promise<JsonTableRows[T] | undefined> {
    const row = await this.db.selectFrom(this.from).selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && this.parse(row);
  }

  /** The id of the tenant's profile named `name`, if any. */
  private async named(tenantId: string, name: string): Promise<string | undefined> {
    return (await this.db.selectFrom(this.from).select('id').where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst())?.id;
  }

  async create(row: JsonTableRows[T]): Promise<boolean> {
    // Checked first so that a taken name does not abort an enclosing PostgreSQL transaction; the constraint settles races.
    if ((await this.named(row.tenant_id, row.name)) !== undefined) return false;
    try {
      await this.db.insertInto(this.from).values(toStored(this.table, row) as never).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, id: string, changes: Partial<JsonTableRows[T]>, now: string): Promise<JsonTableRows[T] | undefined | 'conflict'> {
    if (changes.name !== undefined) {
      const other = await this.named(tenantId, changes.name);
      if (other !== undefined && other !== id) return 'conflict';
    }
    try {
      await this.db.updateTable(this.from).set(toStored(this.table, { ...changes, updated_at: now }) as never).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
    return this.get(tenantId, id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom(this.from).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async clientsUsing(tenantId: string, id: string, limit: number): Promise<string[]> {
    const member = CLIENT_MEMBER[this.table];
    // The clients' configuration is JSON text: LIKE narrows to the rows naming the id anywhere, the parsed members decide.
    const rows = await this.db.selectFrom('clients').select(['client_id', 'config']).where('tenant_id', '=', tenantId).where('config', 'like', `%${id}%`).orderBy('client_id').execute();
    return rows
      .filter(({ config }) => {
        const parsed = fromStored('clients', { config }).config as Record<string, Record<string, unknown> | null | undefined>;
        return parsed.express_configuration?.[member] === id || parsed.my_organization_configuration?.[member] === id;
      })
      .slice(0, limit)
      .map(({ client_id }) => client_id);
  }
}
