/** Connection keys (src/storage/migrations/0150_connection_keys.ts). */
import type { ConnectionKeyRow, ConnectionKeyStore } from '../../domain/connections/keys.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { atomically, type Db } from '../database.js';

const ORDER = { current: 0, next: 1, previous: 2 } as const;

export class KyselyConnectionKeyStore implements ConnectionKeyStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, connectionId: string): Promise<ConnectionKeyRow[]> {
    const rows = (await this.db.selectFrom('connection_keys').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute()) as ConnectionKeyRow[];
    return rows.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  }

  async provision(rows: readonly ConnectionKeyRow[]): Promise<boolean> {
    const [first] = rows;
    if (!first) return true;
    try {
      return await atomically(this.db, async (trx) => {
        const existing = await trx.selectFrom('connection_keys').select('kid').where('tenant_id', '=', first.tenant_id).where('connection_id', '=', first.connection_id).executeTakeFirst();
        if (existing) return false;
        await trx.insertInto('connection_keys').values([...rows]).execute();
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async rotate(tenantId: string, connectionId: string, next: ConnectionKeyRow, at: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const keys = trx.updateTable('connection_keys').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId);
      const upcoming = await trx.selectFrom('connection_keys').select('kid').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('status', '=', 'next').executeTakeFirst();
      if (!upcoming) return false;
      await trx.deleteFrom('connection_keys').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('status', '=', 'previous').execute();
      await keys.set({ status: 'previous' }).where('status', '=', 'current').execute();
      await keys.set({ status: 'current', current_since: at }).where('kid', '=', upcoming.kid).execute();
      await trx.insertInto('connection_keys').values(next).execute();
      return true;
    });
  }
}
