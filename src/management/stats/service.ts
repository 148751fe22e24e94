/**
 * Statistics (GET /api/v2/stats/active-users, /stats/daily):
 *
 * - active users: users whose last login is within the last 30 days (the
 *   users' `last_login`, so it does not depend on the log's retention);
 * - daily: per UTC day, the tenant log's successful logins (`s`), signups
 *   (`ss`) and breached-password detections (`pwd_leak`; Gatehouse detects
 *   none, so always 0), with the first and last event's time as
 *   `created_at` / `updated_at`. Only days with events are listed. Computed
 *   from the tenant log, so days older than its retention
 *   (`GATEHOUSE_LOG_RETENTION_DAYS`, 30 by default) count nothing. Without
 *   `from`/`to` the range is the last 30 days; a range is at most 366 days.
 */
import type { StatsStore } from '../../domain/stats/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const ACTIVE_WINDOW_MS = 30 * DAY_MS;
const DEFAULT_RANGE_DAYS = 30;
const MAX_RANGE_DAYS = 366;
const TYPES = { s: 'logins', ss: 'signups', pwd_leak: 'leaked_passwords' } as const;

export interface DailyStats {
  date: string;
  logins: number;
  signups: number;
  leaked_passwords: number;
  updated_at: string;
  created_at: string;
}

export interface StatsServiceContext {
  readonly now: () => number;
  readonly stores: { readonly stats: StatsStore };
}

const badDay = (name: 'from' | 'to', why: string) =>
  managementErrors.badRequest(`Query validation error: '${why}' on property ${name} (${name === 'from' ? 'Optional first' : 'Optional last'} day of the date range (inclusive) in YYYYMMDD format).`, 'invalid_query_string');

/** Midnight UTC of a `YYYYMMDD` day, refused when it is no calendar day. */
function dayStart(name: 'from' | 'to', value: string): number {
  const ms = Date.UTC(Number(value.slice(0, 4)), Number(value.slice(4, 6)) - 1, Number(value.slice(6, 8)));
  if (isoAt(ms).slice(0, 10).replaceAll('-', '') !== value) throw badDay(name, `Invalid date: ${value}`);
  return ms;
}

export class StatsService {
  constructor(private readonly ctx: StatsServiceContext) {}

  activeUsers(tenant: Tenant): Promise<number> {
    return this.ctx.stores.stats.activeUsers(tenant.id, isoAt(this.ctx.now() - ACTIVE_WINDOW_MS));
  }

  async daily(tenant: Tenant, query: { from?: string; to?: string }): Promise<DailyStats[]> {
    const today = Math.floor(this.ctx.now() / DAY_MS) * DAY_MS;
    const to = query.to !== undefined ? dayStart('to', query.to) : today;
    const from = query.from !== undefined ? dayStart('from', query.from) : to - (DEFAULT_RANGE_DAYS - 1) * DAY_MS;
    if (from > to) throw badDay('from', 'The first day is after the last day');
    if (to - from >= MAX_RANGE_DAYS * DAY_MS) throw badDay('from', `The range is longer than ${MAX_RANGE_DAYS} days`);
    const counts = await this.ctx.stores.stats.dailyCounts(tenant.id, isoAt(from), isoAt(to + DAY_MS), Object.keys(TYPES));
    const days = new Map<string, DailyStats>();
    for (const row of counts) {
      const day = days.get(row.day) ?? { date: `${row.day}T00:00:00.000Z`, logins: 0, signups: 0, leaked_passwords: 0, updated_at: row.last, created_at: row.first };
      day[TYPES[row.type as keyof typeof TYPES]] += row.count;
      if (row.first < day.created_at) day.created_at = row.first;
      if (row.last > day.updated_at) day.updated_at = row.last;
      days.set(row.day, day);
    }
    return [...days.values()];
  }
}
