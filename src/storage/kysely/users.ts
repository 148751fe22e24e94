import { atomically, type Db } from '../database.js';
import type { UserRow } from '../../domain/users/model.js';
import type { UserWithConnection, UserChanges, UserStore } from '../../domain/users/store.js';
import { fromStored, parsedRow, parsedRows, toStored } from '../json-columns.js';
import { countRows, fetchPage, parsedPage } from '../paging.js';
import type { OffsetWindow, Page } from '../../domain/paging.js';
import type { UserSearch } from '../../domain/users/search.js';
import { isPostgres, searchCondition } from './user-search.js';

export class KyselyUserStore implements UserStore {
  constructor(private readonly db: Db) {}

  private withConnection() {
    return this.db
      .selectFrom('users')
      .innerJoin('connections', (join) =>
        join.onRef('connections.tenant_id', '=', 'users.tenant_id').onRef('connections.id', '=', 'users.connection_id'),
      )
      .selectAll('users')
      .select('connections.name as connection_name');
  }

  get(tenantId: string, userId: string): Promise<UserWithConnection | undefined> {
    return parsedRow('users', this.withConnection().where('users.tenant_id', '=', tenantId).where('users.user_id', '=', userId).executeTakeFirst());
  }

  async list(tenantId: string, query: OffsetWindow): Promise<Page<UserWithConnection>> {
    const page = fetchPage(this.withConnection().where('users.tenant_id', '=', tenantId), (q) => q, 'users.user_id', { kind: 'offset', ...query }, {
      order: (q) => q.orderBy('users.created_at').orderBy('users.user_id'),
      count: () => countRows(this.db.selectFrom('users').where('tenant_id', '=', tenantId)),
    });
    return parsedPage('users', page);
  }

  async search(tenantId: string, search: UserSearch): Promise<Page<UserWithConnection>> {
    const postgres = isPostgres(this.db);
    const { filter, sort } = search;
    const base = this.withConnection().where('users.tenant_id', '=', tenantId);
    const filtered = filter ? base.where((eb) => searchCondition(eb, postgres, filter)) : base;
    const direction = sort?.descending ? 'desc' : 'asc';
    const field = sort?.field ?? 'created_at';
    const column = field === 'email' ? 'users.email_lower' : (`users.${field}` as const);
    // Rows without the sorted field come last either way, as on the service.
    const rows = await filtered
      .orderBy((eb) => eb.case().when(column, 'is', null).then(1).else(0).end())
      .orderBy(column, direction)
      .orderBy('users.user_id', direction)
      .offset(search.offset)
      .limit(search.limit)
      .execute();
    const parsed = rows.map((row) => fromStored('users', row));
    if (!search.withTotal) return { rows: parsed };
    return { rows: parsed, total: await countRows(filtered) };
  }

  findByEmail(tenantId: string, connectionId: string, emailLower: string): Promise<UserRow | undefined> {
    return parsedRow(
      'users',
      this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('email_lower', '=', emailLower).executeTakeFirst(),
    );
  }

  findSmsUser(tenantId: string, connectionId: string, phoneNumber: string): Promise<UserRow | undefined> {
    return parsedRow(
      'users',
      this.db
        .selectFrom('users')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('connection_id', '=', connectionId)
        .where('phone_number', '=', phoneNumber)
        .where('user_id', 'like', 'sms|%')
        .executeTakeFirst(),
    );
  }

  listByEmail(tenantId: string, emailLower: string): Promise<UserWithConnection[]> {
    return parsedRows(
      'users',
      this.withConnection().where('users.tenant_id', '=', tenantId).where('users.email_lower', '=', emailLower).orderBy('users.created_at').orderBy('users.user_id').execute(),
    );
  }

  async findByLoginIdentifier(tenantId: string, connectionId: string, identifierLower: string): Promise<UserRow | undefined> {
    // At most two rows: each unique index matches at most one.
    const rows = await parsedRows(
      'users',
      this.db
        .selectFrom('users')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('connection_id', '=', connectionId)
        .where((eb) => eb.or([eb('email_lower', '=', identifierLower), eb('username_lower', '=', identifierLower)]))
        .execute(),
    );
    return rows.find((row) => row.email_lower === identifierLower) ?? rows[0];
  }

  async insert(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values(toStored('users', row)).execute();
  }

  async insertMany(rows: UserRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await this.db
      .insertInto('users')
      .values(rows.map((row) => toStored('users', row)))
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .execute();
    return inserted.map((row) => row.user_id);
  }

  async findExisting(tenantId: string, connectionId: string, keys: { emailsLower: string[]; usernamesLower: string[]; userIds: string[] }): Promise<UserRow[]> {
    // One query per unique index (an OR of the three would scan the table).
    const inConnection = this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId);
    const found = [
      ...(keys.emailsLower.length ? await inConnection.where('email_lower', 'in', keys.emailsLower).execute() : []),
      ...(keys.usernamesLower.length ? await inConnection.where('username_lower', 'in', keys.usernamesLower).execute() : []),
      ...(keys.userIds.length ? await this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('user_id', 'in', keys.userIds).execute() : []),
    ];
    const unique = new Map(found.map((row) => [row.user_id, row]));
    return [...unique.values()].map((row) => fromStored('users', row));
  }

  async update(tenantId: string, userId: string, changes: UserChanges): Promise<boolean> {
    if (Object.keys(changes).length === 0) return (await this.get(tenantId, userId)) !== undefined;
    const result = await this.db.updateTable('users').set(toStored('users', changes)).where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  delete(tenantId: string, userId: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      // The foreign keys of migration 0011 cascade as well; deleting here keeps the
      // store's contract independent of them.
      for (const table of ['user_roles', 'user_permissions', 'group_members'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
      }
      const result = await trx.deleteFrom('users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
