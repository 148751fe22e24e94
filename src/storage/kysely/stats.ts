/**
 * Counts for GET /api/v2/stats/*: users by `last_login`, and the tenant log
 * grouped by UTC day (`substr(date, 1, 10)` of the ISO text, the same on
 * SQLite and PostgreSQL) through the `(tenant_id, date, log_id)` index.
 */
import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { DailyTypeCount, StatsStore } from '../../domain/stats/store.js';

export class KyselyStatsStore implements StatsStore {
  constructor(private readonly db: Db) {}

  async activeUsers(tenantId: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('linked_to', 'is', null)
      .where('last_login', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async dailyCounts(tenantId: string, from: string, to: string, types: readonly string[]): Promise<DailyTypeCount[]> {
    if (types.length === 0) return [];
    const day = sql<string>`substr(date, 1, 10)`;
    const rows = await this.db
      .selectFrom('tenant_logs')
      .select((eb) => [day.as('day'), 'type', eb.fn.countAll<number | string>().as('count'), eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
      .where('tenant_id', '=', tenantId)
      .where('date', '>=', from)
      .where('date', '<', to)
      .where('type', 'in', [...types])
      .groupBy([day, 'type'])
      .orderBy(day)
      .execute();
    return rows.map((row) => ({ day: row.day, type: row.type, count: Number(row.count), first: row.first, last: row.last }));
  }
}
