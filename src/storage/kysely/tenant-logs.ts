import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { LogFilter } from '../../domain/logs/query.js';
import type { LogSearch, TenantLogStore } from '../../domain/logs/store.js';
import type { TenantLogRow } from '../../domain/logs/rows.js';
import { sqliteHandle, type Db } from '../database.js';
import type { Database } from '../schema.js';
import { fromStored, toStored } from '../json-columns.js';
import { chunks } from '../links.js';
import { countRows } from '../paging.js';
import { isPostgres } from './user-search.js';
import { rowRefusal } from '../refused-rows.js';

type Eb = ExpressionBuilder<Database, 'tenant_logs'>;

/** The filter of a log search as a WHERE condition (fields are the parser's closed list). */
function condition(eb: Eb, filter: LogFilter): Expression<SqlBool> {
  switch (filter.kind) {
    case 'and':
      return eb.and(filter.items.map((item) => condition(eb, item)));
    case 'or':
      return eb.or(filter.items.map((item) => condition(eb, item)));
    case 'not': {
      const inner = condition(eb, filter.item);
      return eb.not(inner);
    }
    case 'range': {
      const parts: Expression<SqlBool>[] = [];
      if (filter.from) parts.push(eb('date', filter.from.inclusive ? '>=' : '>', filter.from.value));
      if (filter.to) parts.push(eb('date', filter.to.inclusive ? '<=' : '<', filter.to.value));
      return eb.and(parts);
    }
    case 'term': {
      const column = eb.ref(filter.field);
      if (!filter.prefix) return eb(column, '=', filter.value);
      if (filter.value === '') return eb(column, 'is not', null);
      return eb(sql`substr(${column}, 1, ${filter.value.length})`, '=', filter.value);
    }
  }
}

/** The columns of an event, in the order of the SQLite insert's parameters. */
const COLUMNS = [
  'tenant_id', 'log_id', 'date', 'type', 'description', 'client_id', 'client_name', 'ip', 'user_agent', 'user_id',
  'user_name', 'connection', 'connection_id', 'strategy', 'strategy_type', 'audience', 'scope', 'hostname', 'details',
] as const satisfies readonly (keyof TenantLogRow)[];

/** The `details` column as stored (JSON text; ../json-columns.ts). */
function detailsText(row: TenantLogRow): string | null {
  return row.details === null ? null : JSON.stringify(row.details);
}

type SqliteInsert = (rows: readonly TenantLogRow[]) => void;

/** Per SQLite database: one prepared single-row insert, run for every row of a batch in one transaction. */
const SQLITE_INSERTS = new WeakMap<object, SqliteInsert>();

function sqliteInsert(sqlite: NonNullable<ReturnType<typeof sqliteHandle>>): SqliteInsert {
  let insert = SQLITE_INSERTS.get(sqlite);
  if (!insert) {
    const statement = sqlite.prepare(`insert into tenant_logs (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`);
    insert = sqlite.transaction((rows: readonly TenantLogRow[]) => {
      for (const row of rows) {
        statement.run(
          row.tenant_id, row.log_id, row.date, row.type, row.description, row.client_id, row.client_name, row.ip, row.user_agent, row.user_id,
          row.user_name, row.connection, row.connection_id, row.strategy, row.strategy_type, row.audience, row.scope, row.hostname,
          detailsText(row),
        );
      }
    });
    SQLITE_INSERTS.set(sqlite, insert);
  }
  return insert;
}

export class KyselyTenantLogStore implements TenantLogStore {
  constructor(private readonly db: Db) {}

  /**
   * On SQLite (the database itself, not a transaction) one prepared insert
   * reused for every row, in one transaction, while holding the one
   * connection; on PostgreSQL one statement unnesting an array per column
   * (the same text for every batch); elsewhere multi-row inserts.
   */
  async insertMany(rows: readonly TenantLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    const sqlite = sqliteHandle(this.db);
    if (sqlite) {
      const insert = sqliteInsert(sqlite);
      await this.db.connection().execute(async () => insert(rows));
      return;
    }
    if (isPostgres(this.db)) {
      // One statement of the same text for any batch: a text array per column, unnested into rows.
      const columns = COLUMNS.map((column) => rows.map((row) => (column === 'details' ? detailsText(row) : row[column])));
      await sql`insert into tenant_logs (${sql.join(COLUMNS.map((column) => sql.ref(column)))}) select * from unnest(${sql.join(columns.map((values) => sql`${values}::text[]`))})`.execute(this.db);
      return;
    }
    for (const chunk of chunks(rows)) {
      await this.db.insertInto('tenant_logs').values(chunk.map((row) => toStored('tenant_logs', row))).execute();
    }
  }

  refusal(error: unknown): Record<string, string> | undefined {
    return rowRefusal(error);
  }

  async get(tenantId: string, logId: string): Promise<TenantLogRow | undefined> {
    const row = await this.db.selectFrom('tenant_logs').selectAll().where('tenant_id', '=', tenantId).where('log_id', '=', logId).executeTakeFirst();
    return row && fromStored('tenant_logs', row);
  }

  async search(tenantId: string, search: LogSearch): Promise<{ rows: TenantLogRow[]; total?: number }> {
    let base = this.db.selectFrom('tenant_logs').where('tenant_id', '=', tenantId);
    if (search.userId !== undefined) base = base.where('user_id', '=', search.userId);
    const filter = search.filter;
    if (filter) base = base.where((eb) => condition(eb, filter));
    const after = search.after;
    const ordered =
      after === undefined
        ? base.selectAll().orderBy('date', search.order).orderBy('log_id', search.order)
        : base.where('log_id', '>', after).selectAll().orderBy('log_id');
    const rows = await ordered.offset(search.offset).limit(search.limit).execute();
    return {
      rows: rows.map((row) => fromStored('tenant_logs', row)),
      ...(search.withTotal && { total: await countRows(base.selectAll()) }),
    };
  }

  async after(tenantId: string, after: string, limit: number, types?: readonly string[], before?: string): Promise<TenantLogRow[]> {
    let query = this.db.selectFrom('tenant_logs').selectAll().where('tenant_id', '=', tenantId).where('log_id', '>', after);
    if (before !== undefined) query = query.where('log_id', '<', before);
    if (types !== undefined) {
      if (types.length === 0) return [];
      query = query.where('type', 'in', types);
    }
    const rows = await query.orderBy('log_id').limit(limit).execute();
    return rows.map((row) => fromStored('tenant_logs', row));
  }

  async purgeBefore(date: string): Promise<number> {
    const result = await this.db.deleteFrom('tenant_logs').where('date', '<', date).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
