import type { LogStreamChanges, LogStreamStore } from '../../domain/log-streams/store.js';
import type { LogStreamRow } from '../../domain/log-streams/rows.js';
import type { Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';

export class KyselyLogStreamStore implements LogStreamStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string): Promise<LogStreamRow[]> {
    const rows = await this.db.selectFrom('log_streams').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => fromStored('log_streams', row));
  }

  async count(tenantId: string): Promise<number> {
    const row = await this.db.selectFrom('log_streams').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async get(tenantId: string, id: string): Promise<LogStreamRow | undefined> {
    const row = await this.db.selectFrom('log_streams').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && fromStored('log_streams', row);
  }

  async create(row: LogStreamRow): Promise<void> {
    await this.db.insertInto('log_streams').values(toStored('log_streams', row)).execute();
  }

  async update(tenantId: string, id: string, changes: LogStreamChanges, now: string): Promise<LogStreamRow | undefined> {
    await this.db
      .updateTable('log_streams')
      .set({ ...toStored('log_streams', changes), updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    return this.get(tenantId, id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('log_streams').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async due(now: string, limit: number): Promise<LogStreamRow[]> {
    const rows = await this.db
      .selectFrom('log_streams')
      .selectAll()
      .where('status', '=', 'active')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((row) => fromStored('log_streams', row));
  }

  async claim(tenantId: string, id: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('log_streams')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async advance(tenantId: string, id: string, owner: string, cursor: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('log_streams')
      .set({ cursor, attempts: 0, last_error: null, next_attempt_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async failed(tenantId: string, id: string, owner: string, attempts: number, error: string, nextAttemptAt: string): Promise<void> {
    await this.db
      .updateTable('log_streams')
      .set({ attempts, last_error: error.slice(0, 500), next_attempt_at: nextAttemptAt, lease_owner: null, lease_until: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async release(tenantId: string, id: string, owner: string): Promise<void> {
    await this.db
      .updateTable('log_streams')
      .set({ lease_owner: null, lease_until: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
