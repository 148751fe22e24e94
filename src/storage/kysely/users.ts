import { atomically, type Db } from '../database.js';
import type { UserRow } from '../../domain/users/model.js';
import type { UserWithConnection, UserChanges, UserStore } from '../../domain/users/store.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';
import { countRows, fetchPage, parsedPage } from '../paging.js';
import type { OffsetWindow, Page } from '../../domain/paging.js';

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
