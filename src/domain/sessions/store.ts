/**
 * Storage of SSO sessions (only the cookie value's hash).
 * Implemented by src/storage/kysely/sessions.ts; the composition root builds one.
 */
import type { SessionRow } from './rows.js';
import type { TokenMetadata } from '../refresh-tokens/rows.js';
import type { KeysetWindow } from '../paging.js';
import type { EndedSession } from '../backchannel-logout/store.js';

export interface SessionStore {
  /** Stores a new session. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(row: Omit<SessionRow, 'revoked_at' | 'amr' | 'last_interacted_at'> & Partial<Pick<SessionRow, 'amr'>>): Promise<void>;
  /**
   * Records a use of the active session at `now` (ISO): `last_interacted_at`
   * becomes `now` and `expires_at` the session's new end (idle lifetimes).
   * Does nothing to a revoked session.
   */
  touch(tenantId: string, idHash: string, now: string, expiresAt: string): Promise<void>;
  /** Sets the session's authentication methods (space-separated), e.g. `mfa` after a second factor. */
  setAmr(tenantId: string, idHash: string, amr: string): Promise<void>;
  /** The session when it is active at `now` (ISO): not revoked and `expires_at` later than `now`; undefined otherwise. */
  findActive(tenantId: string, idHash: string, now: string): Promise<SessionRow | undefined>;
  /** Revokes the session at `now`; false when it is unknown or already revoked. */
  revoke(tenantId: string, idHash: string, now: string): Promise<boolean>;
  /** The user's sessions active at `now`, by id (`id_hash`, byte-wise), after `page.after`, at most `page.limit`. */
  activeForUser(tenantId: string, userId: string, now: string, page: KeysetWindow): Promise<SessionRow[]>;
  /**
   * Keeps at most `keep` sessions of the user active at `now`: revokes at
   * `now` the older ones beyond, oldest first by `created_at`, and returns
   * those it revoked (for their back-channel logout).
   */
  revokeBeyond(tenantId: string, userId: string, keep: number, now: string): Promise<EndedSession[]>;
  /** Revokes at `now` every session of the user not already revoked; returns how many were revoked. */
  revokeForUser(tenantId: string, userId: string, now: string): Promise<number>;
  /** The `session_metadata` of these sessions that have one, by id. */
  metadata(tenantId: string, idHashes: readonly string[]): Promise<Map<string, TokenMetadata>>;
  /** Sets the session's metadata (null: none) if it is active at `now`; false when it is not. */
  setMetadata(tenantId: string, idHash: string, metadata: TokenMetadata | null, now: string): Promise<boolean>;
}
