/**
 * Deletes short-lived protocol artefacts a day after they stopped mattering:
 * tickets, waiting authorization requests, codes, MFA challenges and passwordless codes once expired, sessions
 * once expired or revoked, refresh tokens once their absolute lifetime ended
 * or their family was revoked, device authorization and CIBA requests once expired, back-channel logout
 * deliveries once delivered or given up, tenant log events once older than the
 * retention (GATEHOUSE_LOG_RETENTION_DAYS, default 30 days; in batches, LOG_PURGE_BATCH). The day of grace keeps a late replay of a code
 * recognisable (it still revokes what the code issued). Rotated refresh tokens
 * of a live family are kept: reuse detection needs them.
 */
import { sql } from 'kysely';
import type { Db } from './database.js';
import { isoAt } from '../platform/clock.js';

export const PURGE_GRACE_MS = 24 * 60 * 60 * 1000;
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** The first purge of a process, after its start-up. */
export const PURGE_FIRST_DELAY_MS = 10_000;
export const DAY_MS = 24 * 60 * 60 * 1000;

export interface PurgeOptions {
  /** Days tenant log events are kept (default 30). */
  logRetentionDays?: number;
  /** Tenant log events deleted per statement (default LOG_PURGE_BATCH). */
  logBatch?: number;
}

/**
 * Old tenant log events go this many at a time, each batch its own statement, with other work let
 * in between: a year of a busy tenant's log is millions of rows, and one DELETE of them would hold
 * SQLite's one connection (and the event loop) or PostgreSQL's locks for minutes.
 */
export const LOG_PURGE_BATCH = 250;

/** Deletes the tenant log events dated before `before`, `batch` at a time (tenant_logs_purge_idx); returns how many. */
async function purgeLogs(db: Db, before: string, batch: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const oldest = db.selectFrom('tenant_logs').select(['tenant_id', 'log_id']).where('date', '<', before).limit(batch);
    const result = await db.deleteFrom('tenant_logs').where(sql<boolean>`(tenant_id, log_id) in (${oldest})`).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    removed += deleted;
    if (deleted < batch) return removed;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface PurgeResult {
  tickets: number;
  authorization_requests: number;
  authorization_codes: number;
  sessions: number;
  refresh_tokens: number;
  one_time_uses: number;
  pushed_authorization_requests: number;
  mfa_challenges: number;
  passwordless_codes: number;
  device_codes: number;
  backchannel_logout_deliveries: number;
  backchannel_auth_requests: number;
  tenant_logs: number;
}

export async function purgeExpired(db: Db, now: number, options: PurgeOptions = {}): Promise<PurgeResult> {
  const cutoff = isoAt(now - PURGE_GRACE_MS);
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  return {
    tickets: count(await db.deleteFrom('tickets').where('expires_at', '<', cutoff).executeTakeFirst()),
    authorization_requests: count(await db.deleteFrom('authorization_requests').where('expires_at', '<', cutoff).executeTakeFirst()),
    authorization_codes: count(await db.deleteFrom('authorization_codes').where('expires_at', '<', cutoff).executeTakeFirst()),
    sessions: count(
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
        .executeTakeFirst(),
    ),
    refresh_tokens: count(
      await db
        .deleteFrom('refresh_tokens')
        .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
        .executeTakeFirst(),
    ),
    one_time_uses: count(await db.deleteFrom('one_time_uses').where('expires_at', '<', cutoff).executeTakeFirst()),
    pushed_authorization_requests: count(await db.deleteFrom('pushed_authorization_requests').where('expires_at', '<', cutoff).executeTakeFirst()),
    mfa_challenges: count(await db.deleteFrom('mfa_challenges').where('expires_at', '<', cutoff).executeTakeFirst()),
    passwordless_codes: count(await db.deleteFrom('passwordless_codes').where('expires_at', '<', cutoff).executeTakeFirst()),
    device_codes: count(await db.deleteFrom('device_codes').where('expires_at', '<', cutoff).executeTakeFirst()),
    backchannel_auth_requests: count(await db.deleteFrom('backchannel_auth_requests').where('expires_at', '<', cutoff).executeTakeFirst()),
    backchannel_logout_deliveries: count(
      await db
        .deleteFrom('backchannel_logout_deliveries')
        .where((eb) => eb.or([eb('delivered_at', '<', cutoff), eb('gave_up_at', '<', cutoff)]))
        .executeTakeFirst(),
    ),
    tenant_logs: await purgeLogs(db, isoAt(now - (options.logRetentionDays ?? 30) * DAY_MS), options.logBatch ?? LOG_PURGE_BATCH),
  };
}
