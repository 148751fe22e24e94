/**
 * Storage of the authorization code flow: login sessions, authorization
 * requests waiting for a login, and authorization codes. Each secret (cookie
 * value, transaction id, code) is 32 random bytes, base64url, known only to
 * the browser or client; the store keeps its SHA-256 (as tickets and refresh
 * tokens do), so neither a database read nor a backup yields a working one.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../database.js';
import type { AuthorizationCodeRow, AuthorizationRequestRow, SessionRow } from '../schema.js';

export type { SessionRow } from '../../domain/rows.js';
export type { AuthorizationRequestRow } from '../../domain/rows.js';
export type { AuthorizationCodeRow } from '../../domain/rows.js';

/** A fresh secret: 256 random bits, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the stores keep of a secret: base64url SHA-256. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

export interface SessionStore {
  /** Stores a new session. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(row: Omit<SessionRow, 'revoked_at'>): Promise<void>;
  /** The session when it is active at `now` (ISO): not revoked and `expires_at` later than `now`; undefined otherwise. */
  findActive(tenantId: string, idHash: string, now: string): Promise<SessionRow | undefined>;
  /** Revokes the session at `now`; false when it is unknown or already revoked. */
  revoke(tenantId: string, idHash: string, now: string): Promise<boolean>;
  /** Revokes at `now` every session of the user not already revoked; returns how many were revoked. */
  revokeForUser(tenantId: string, userId: string, now: string): Promise<number>;
}

export class KyselySessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<SessionRow, 'revoked_at'>): Promise<void> {
    await this.db.insertInto('sessions').values({ ...row, revoked_at: null }).execute();
  }

  findActive(tenantId: string, idHash: string, now: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async revoke(tenantId: string, idHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeForUser(tenantId: string, userId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

export interface AuthorizationRequestStore {
  /** Stores a new request. Fails with a unique violation on a taken hash. */
  insert(row: Omit<AuthorizationRequestRow, 'used_at'>): Promise<void>;
  /** The request when usable at `now` (ISO): not used and not expired; undefined otherwise. Does not consume it. */
  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined>;
  /**
   * Marks the request used at `now` if it is still usable, in one conditional
   * UPDATE, so of two concurrent calls exactly one gets true.
   */
  consume(tenantId: string, idHash: string, now: string): Promise<boolean>;
}

export class KyselyAuthorizationRequestStore implements AuthorizationRequestStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<AuthorizationRequestRow, 'used_at'>): Promise<void> {
    await this.db.insertInto('authorization_requests').values({ ...row, used_at: null }).execute();
  }

  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined> {
    return this.db
      .selectFrom('authorization_requests')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async consume(tenantId: string, idHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('authorization_requests')
      .set({ used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

export interface AuthorizationCodeStore {
  /** Stores a new code. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id'>): Promise<void>;
  /** The code with this hash in the tenant, whatever its state (used, expired); undefined when unknown. */
  find(tenantId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined>;
  /**
   * Marks the code used at `now`, recording the refresh-token family its use
   * may issue, if it is neither used nor expired, in one conditional UPDATE:
   * of two concurrent calls exactly one gets true (one use, RFC 6749 §4.1.2).
   */
  consume(tenantId: string, codeHash: string, now: string, refreshFamilyId: string): Promise<boolean>;
}

export class KyselyAuthorizationCodeStore implements AuthorizationCodeStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id'>): Promise<void> {
    await this.db.insertInto('authorization_codes').values({ ...row, used_at: null, refresh_family_id: null }).execute();
  }

  find(tenantId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined> {
    return this.db.selectFrom('authorization_codes').selectAll().where('tenant_id', '=', tenantId).where('code_hash', '=', codeHash).executeTakeFirst();
  }

  async consume(tenantId: string, codeHash: string, now: string, refreshFamilyId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('authorization_codes')
      .set({ used_at: now, refresh_family_id: refreshFamilyId })
      .where('tenant_id', '=', tenantId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
