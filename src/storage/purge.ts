/**
 * Deletes short-lived protocol artefacts a day after they stopped mattering
 * (every table of `EXPIRING_ARTEFACTS`, src/storage/kysely/expiring-artefacts.ts:
 * tickets, waiting authorization requests, codes, MFA challenges and passwordless codes once expired, sessions
 * once expired or revoked, refresh tokens once their absolute lifetime ended
 * or their family was revoked, device authorization and CIBA requests once expired, back-channel logout
 * deliveries once delivered or given up, event stream deliveries once delivered), in batches, and tenant log events once older than the
 * retention (GATEHOUSE_LOG_RETENTION_DAYS, default 30 days). The day of grace keeps a late replay of a code
 * recognisable (it still revokes what the code issued). Rotated refresh tokens
 * of a live family are kept: reuse detection needs them.
 */
import type { Db } from './database.js';
import { isoAt } from '../platform/clock.js';
import { deleteInBatches, purgeEndedArtefacts, PURGE_BATCH, type ExpiringTable } from './kysely/expiring-artefacts.js';

export const PURGE_GRACE_MS = 24 * 60 * 60 * 1000;
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** The first purge of a process, after its start-up. */
export const PURGE_FIRST_DELAY_MS = 10_000;
export const DAY_MS = 24 * 60 * 60 * 1000;

export interface PurgeOptions {
  /** Days tenant log events are kept (default 30). */
  logRetentionDays?: number;
  /** Rows per delete statement (default PURGE_BATCH). */
  batch?: number;
}

/** How many rows each table lost. */
export type PurgeResult = Record<ExpiringTable | 'tenant_logs', number>;

export async function purgeExpired(db: Db, now: number, options: PurgeOptions = {}): Promise<PurgeResult> {
  const artefacts = await purgeEndedArtefacts(db, isoAt(now - PURGE_GRACE_MS), options.batch ?? PURGE_BATCH);
  const logsBefore = isoAt(now - (options.logRetentionDays ?? 30) * DAY_MS);
  const logs = await deleteInBatches(db, 'tenant_logs', (eb) => eb('date', '<', logsBefore), options.batch ?? PURGE_BATCH);
  return { ...artefacts, tenant_logs: logs };
}
