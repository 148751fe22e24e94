/**
 * Storage of back-channel logout: which clients each SSO session issued
 * tokens to, the once-only marker of a session's end, and the durable queue
 * of notifications. Implemented by src/storage/kysely/backchannel-logout.ts;
 * the composition root builds one.
 */
import type { SessionRow } from '../sessions/rows.js';
import type { BackchannelLogoutDeliveryRow } from './rows.js';

/** A session whose end is to be announced. */
export type EndedSession = Pick<SessionRow, 'tenant_id' | 'id_hash' | 'user_id'>;

export interface BackchannelLogoutStore {
  /** Records that the session issued tokens to the client (idempotent; nothing for an unknown session). */
  recordClient(tenantId: string, sessionId: string, clientId: string, now: string): Promise<void>;
  /** The clients each session issued tokens to, as (session, client) pairs. */
  clientsOf(tenantId: string, sessionIds: readonly string[]): Promise<{ session_id: string; client_id: string }[]>;
  /**
   * Marks the sessions' end as announced at `now`, in one conditional UPDATE
   * per session: returns the ids it marked, so that of two processes ending
   * the same session only one announces it.
   */
  markEnded(tenantId: string, sessionIds: readonly string[], now: string): Promise<string[]>;
  /**
   * Sessions (of any tenant) expired at `now`, neither revoked nor announced,
   * that issued tokens to at least one client: the expiry sweep's work, at
   * most `limit`.
   */
  expiredUnannounced(now: string, limit: number): Promise<EndedSession[]>;
  enqueue(rows: readonly BackchannelLogoutDeliveryRow[]): Promise<void>;
  /** Deliveries due at `now` (neither delivered nor given up), oldest first, at most `limit`, of any tenant. */
  due(now: string, limit: number): Promise<BackchannelLogoutDeliveryRow[]>;
  /**
   * Takes a due delivery for one attempt: moves its `next_attempt_at` from
   * `seen` to `leaseUntil` if no other process did; false when another did.
   * A process that dies mid-attempt leaves it to be retried after the lease.
   */
  claim(tenantId: string, id: string, seen: string, leaseUntil: string): Promise<boolean>;
  delivered(tenantId: string, id: string, now: string, attempts: number): Promise<void>;
  /** A failed attempt: the next at `nextAttemptAt`, or, with `gaveUpAt`, none. */
  failed(tenantId: string, id: string, attempts: number, error: string, next: { nextAttemptAt: string } | { gaveUpAt: string }): Promise<void>;
  /** The client's deliveries, newest first (tests and operators). */
  forClient(tenantId: string, clientId: string): Promise<BackchannelLogoutDeliveryRow[]>;
}
