/**
 * What the Management API's statistics read (GET /api/v2/stats/*): counts
 * over the users and the tenant log. Implemented by
 * src/storage/kysely/stats.ts; the composition root builds one.
 */

/** One day's counts of the tenant log's events of a type. */
export interface DailyTypeCount {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  type: string;
  count: number;
  /** The first and the last event's `date` that day. */
  first: string;
  last: string;
}

export interface StatsStore {
  /** Users (not linked identities) whose last login is at or after `since` (ISO). */
  activeUsers(tenantId: string, since: string): Promise<number>;
  /** Per UTC day and type, the tenant log's events of `types` dated in [`from`, `to`) (ISO), by day. */
  dailyCounts(tenantId: string, from: string, to: string, types: readonly string[]): Promise<DailyTypeCount[]>;
}
