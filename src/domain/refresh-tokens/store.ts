/**
 * Storage of refresh tokens (only their hash: src/domain/secrets.ts).
 * Implemented by src/storage/kysely/refresh-tokens.ts; the composition root builds one.
 */
import type { RefreshTokenFamily, RefreshTokenRow, TokenMetadata } from './rows.js';
import type { KeysetWindow } from '../paging.js';

/** Which families a revocation or a list covers: a user's, narrowed by client, then by audience. */
export interface RefreshTokenOwner {
  userId: string;
  clientId?: string;
  audience?: string;
}

export interface RefreshTokenStore {
  /**
   * Stores a new token. A token joining a family that has tokens already
   * (rotation) takes the family's `session_id` and metadata. Fails with a
   * unique violation on a taken hash, with a foreign-key violation on an
   * unknown user.
   */
  insert(row: Omit<RefreshTokenRow, 'rotated_at' | 'revoked_at' | 'organization_id'> & { organization_id?: string | null }): Promise<void>;
  /** The token with this hash in the tenant, whatever its state (rotated, revoked, expired); undefined when unknown. */
  find(tenantId: string, idHash: string): Promise<RefreshTokenRow | undefined>;
  /**
   * Marks the token rotated at `now` if it is neither rotated nor revoked, in
   * one conditional UPDATE, so of two concurrent calls exactly one gets the
   * row (as it was before the update, with `rotated_at` set); the other, and
   * every later call, gets undefined. Does not check expiry.
   */
  rotate(tenantId: string, idHash: string, now: string): Promise<RefreshTokenRow | undefined>;
  /**
   * Records a use at `now` of a token that is not revoked: `last_used_at`
   * and the new `idle_expires_at`. Returns false when the token is revoked
   * or unknown (nothing is changed).
   */
  touch(tenantId: string, idHash: string, now: string, idleExpiresAt: string | null): Promise<boolean>;
  /** Revokes at `now` every token of the family not already revoked; returns how many were revoked. */
  revokeFamily(tenantId: string, familyId: string, now: string): Promise<number>;
  /**
   * Keeps at most `keep` active tokens of the user for the client (active:
   * neither rotated nor revoked, nor expired at `now`, absolutely or idle):
   * revokes at `now` the families of the older ones beyond, oldest first by
   * `created_at`. Returns how many tokens were revoked.
   */
  revokeBeyond(tenantId: string, userId: string, clientId: string, keep: number, now: string): Promise<number>;
  /** Revokes at `now` every token of the user not already revoked (a password reset); returns how many were revoked. */
  revokeForUser(tenantId: string, userId: string, now: string): Promise<number>;
  /**
   * The active families of the owner (a family is active while one of its
   * tokens is neither rotated nor revoked nor expired at `now`), by
   * `family_id` (byte-wise) after `page.after`, at most `page.limit`;
   * `audience` is ignored.
   */
  activeFamilies(tenantId: string, owner: RefreshTokenOwner, now: string, page: KeysetWindow): Promise<RefreshTokenFamily[]>;
  /** The family when it is active at `now`; undefined otherwise. */
  findFamily(tenantId: string, familyId: string, now: string): Promise<RefreshTokenFamily | undefined>;
  /** Sets the metadata of every token of the family (null: none); false when the family has no token. */
  setFamilyMetadata(tenantId: string, familyId: string, metadata: TokenMetadata | null): Promise<boolean>;
  /** Revokes at `now` every token of these families not already revoked; returns how many were revoked. */
  revokeFamilies(tenantId: string, familyIds: readonly string[], now: string): Promise<number>;
  /** Revokes at `now` every token of the owner (by client and audience when given) not already revoked; returns how many. */
  revokeOwned(tenantId: string, owner: RefreshTokenOwner, now: string): Promise<number>;
  /** Revokes at `now` every token the session started, not already revoked; returns how many. */
  revokeForSession(tenantId: string, sessionId: string, now: string): Promise<number>;
}
