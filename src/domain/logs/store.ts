/**
 * Storage of tenant log events. Implemented by src/storage/kysely/tenant-logs.ts;
 * written in batches by the recorder (./tenant-logs.ts), read by the
 * Management API's /logs and the log streams' delivery.
 */
import type { TenantLogRow } from './rows.js';
import type { LogFilter } from './query.js';

export interface LogSearch {
  filter?: LogFilter | undefined;
  /** Only this user's events (GET /users/{id}/logs). */
  userId?: string | undefined;
  /** Only events recorded after this `log_id`, in `log_id` order (checkpoint paging; `order` is then ignored). */
  after?: string | undefined;
  /** By `date`, then `log_id`. */
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
  withTotal: boolean;
}

export interface TenantLogStore {
  /** One multi-row insert per batch (of any tenants). */
  insertMany(rows: readonly TenantLogRow[]): Promise<void>;
  /**
   * When a failed `insertMany`'s error says its rows are at fault (a
   * constraint, a value a column refuses) rather than the database (down,
   * busy), what of it may be logged: its code and schema names, never a
   * value. Otherwise undefined (the batch may be tried again).
   */
  refusal(error: unknown): Record<string, string> | undefined;
  get(tenantId: string, logId: string): Promise<TenantLogRow | undefined>;
  /** A page of the tenant's events matching the search, with the total count when asked. */
  search(tenantId: string, search: LogSearch): Promise<{ rows: TenantLogRow[]; total?: number }>;
  /**
   * The tenant's events whose `log_id` sorts after `after`, in `log_id` order,
   * at most `limit`; with `types`, only events of those types; with `before`,
   * only those whose `log_id` sorts before it (the log streams' cursors).
   */
  after(tenantId: string, after: string, limit: number, types?: readonly string[], before?: string): Promise<TenantLogRow[]>;
  /** Deletes the events of every tenant dated before `date`; returns how many. */
  purgeBefore(date: string): Promise<number>;
}
