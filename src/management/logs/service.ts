/**
 * Reading the tenant log (GET /logs, /logs/{id}, /users/{id}/logs):
 *
 * - offset paging (`page`, `per_page` up to 100, `include_totals` →
 *   `{start, limit, length, total, logs}`), `sort` `date:-1` (the default) or
 *   `date:1`, `q` (or `search`) in the Lucene subset of
 *   src/domain/logs/query.ts, `fields`/`include_fields`;
 * - checkpoint paging (`from` a log_id, `take` up to 100): the events
 *   recorded after `from`, oldest first, as a plain array, so that the last
 *   log_id of a page is the next `from`; `take` without `from` gives the
 *   `take` newest events, newest first (Gatehouse's reading of the
 *   document, README). `q` applies to both; `page`, `per_page`, `sort` and
 *   `include_totals` are ignored under checkpoint paging.
 */
import { logView } from '../../domain/logs/events.js';
import { LOG_ID_PATTERN } from '../../domain/logs/log-id.js';
import { LogQueryError, parseLogQuery, type LogFilter } from '../../domain/logs/query.js';
import type { LogSearch, TenantLogStore } from '../../domain/logs/store.js';
import type { TenantLogRow } from '../../domain/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';
import { fieldSelection, selectFields } from '../fields.js';
import type { LogListQuery, LogListResponse, LogResponse, UserLogListQuery } from './schema.js';

/** An event as the service shows it: members without a value left out. */
export function logToApi(row: TenantLogRow): LogResponse {
  return logView(row) as LogResponse;
}

function invalidQuery(message: string): Error {
  return managementErrors.badRequest(message, 'invalid_query_string');
}

function order(sort: string | undefined): 'asc' | 'desc' {
  if (sort === undefined || sort === 'date:-1') return 'desc';
  if (sort === 'date:1') return 'asc';
  throw invalidQuery(`Query validation error: 'Invalid sort "${sort}": logs are sorted by date:1 or date:-1' on property sort.`);
}

function filterOf(q: string | undefined): LogFilter | undefined {
  if (q === undefined || q.trim() === '') return undefined;
  try {
    return parseLogQuery(q);
  } catch (error) {
    if (error instanceof LogQueryError) throw invalidQuery(`Query validation error: 'Invalid query: ${error.message}' on property q.`);
    throw error;
  }
}

/** What LogService touches. */
export interface LogServiceContext {
  readonly stores: { readonly tenantLogs: TenantLogStore };
}

export class LogService {
  constructor(private readonly ctx: LogServiceContext) {}

  async list(tenant: Tenant, query: LogListQuery): Promise<LogListResponse> {
    const filter = filterOf(query.q ?? query.search);
    const selection = fieldSelection(query);
    const shown = (rows: TenantLogRow[]) => rows.map((row) => selectFields(logToApi(row), selection));
    if (query.from !== undefined || query.take !== undefined) {
      if (query.from !== undefined && !LOG_ID_PATTERN.test(query.from)) {
        throw invalidQuery(`Query validation error: 'Invalid log_id "${query.from.slice(0, 64)}"' on property from (Log Event Id from which to start selection from.).`);
      }
      const take = query.take ?? 50;
      const search: LogSearch = query.from === undefined
        ? { filter, order: 'desc', offset: 0, limit: take, withTotal: false }
        : { filter, after: query.from, order: 'asc', offset: 0, limit: take, withTotal: false };
      return shown((await this.ctx.stores.tenantLogs.search(tenant.id, search)).rows);
    }
    return this.page(tenant, { filter }, query, shown);
  }

  async listForUser(tenant: Tenant, userId: string, query: UserLogListQuery): Promise<LogListResponse> {
    return this.page(tenant, { userId }, query, (rows) => rows.map(logToApi));
  }

  async get(tenant: Tenant, id: string): Promise<LogResponse> {
    const row = LOG_ID_PATTERN.test(id) ? await this.ctx.stores.tenantLogs.get(tenant.id, id) : undefined;
    if (!row) throw managementErrors.notFound('log not found', 'inexistent_log');
    return logToApi(row);
  }

  private async page(
    tenant: Tenant,
    scope: { filter?: LogFilter | undefined; userId?: string },
    query: { page?: number; per_page?: number; include_totals?: boolean; sort?: string },
    shown: (rows: TenantLogRow[]) => LogResponse[],
  ): Promise<LogListResponse> {
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 50;
    const includeTotals = query.include_totals === true;
    const { rows, total } = await this.ctx.stores.tenantLogs.search(tenant.id, {
      ...scope,
      order: order(query.sort),
      offset: page * perPage,
      limit: perPage,
      withTotal: includeTotals,
    });
    const logs = shown(rows);
    if (!includeTotals) return logs;
    return { start: page * perPage, limit: perPage, length: logs.length, total: total ?? 0, logs };
  }
}
