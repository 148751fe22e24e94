/**
 * SSO sessions: the `__Host-gh_session` cookie's value is known only to the
 * browser; the store keeps its SHA-256 (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { SessionRow } from '../schema.js';
import type { SessionStore } from '../../domain/sessions/store.js';
import type { KeysetWindow } from '../../domain/paging.js';
import { fetchPage } from '../paging.js';
import { chunks } from '../links.js';
import type { EndedSession } from '../../domain/backchannel-logout/store.js';
import type { TokenMetadata } from '../../domain/refresh-tokens/rows.js';

const MAX_REVOKED_AT_ONCE = 10_000;

export class KyselySessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<SessionRow, 'revoked_at' | 'amr' | 'last_interacted_at'> & Partial<Pick<SessionRow, 'amr'>>): Promise<void> {
    await this.db.insertInto('sessions').values({ amr: null, ...row, revoked_at: null, last_interacted_at: null }).execute();
  }

  async touch(tenantId: string, idHash: string, now: string, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_interacted_at: now, expires_at: expiresAt })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async setAmr(tenantId: string, idHash: string, amr: string): Promise<void> {
    await this.db.updateTable('sessions').set({ amr }).where('tenant_id', '=', tenantId).where('id_hash', '=', idHash).execute();
  }

  findActive(tenantId: string, idHash: string, now: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .select(['tenant_id', 'id_hash', 'user_id', 'auth_time', 'created_at', 'expires_at', 'revoked_at', 'amr', 'last_interacted_at'])
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

  async activeForUser(tenantId: string, userId: string, now: string, page: KeysetWindow): Promise<SessionRow[]> {
    const base = this.db
      .selectFrom('sessions')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
    const { rows } = await fetchPage(base, (q) => q.select(['tenant_id', 'id_hash', 'user_id', 'auth_time', 'created_at', 'expires_at', 'revoked_at', 'amr', 'last_interacted_at']), 'id_hash', {
      kind: 'keyset',
      ...page,
    });
    return rows;
  }

  async revokeBeyond(tenantId: string, userId: string, keep: number, now: string): Promise<EndedSession[]> {
    const beyond = await this.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id_hash', 'desc')
      .offset(keep)
      // Normally one: the session just started passed the limit by one. Bounded all the same.
      .limit(MAX_REVOKED_AT_ONCE)
      .execute();
    const ended: EndedSession[] = [];
    for (const chunk of chunks(beyond.map((row) => row.id_hash))) {
      ended.push(
        ...(await this.db
          .updateTable('sessions')
          .set({ revoked_at: now })
          .where('tenant_id', '=', tenantId)
          .where('id_hash', 'in', chunk)
          .where('revoked_at', 'is', null)
          .returning(['tenant_id', 'id_hash', 'user_id'])
          .execute()),
      );
    }
    return ended;
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

  async metadata(tenantId: string, idHashes: readonly string[]): Promise<Map<string, TokenMetadata>> {
    const out = new Map<string, TokenMetadata>();
    for (const chunk of chunks([...idHashes])) {
      const rows = await this.db
        .selectFrom('sessions')
        .select(['id_hash', 'metadata'])
        .where('tenant_id', '=', tenantId)
        .where('id_hash', 'in', chunk)
        .where('metadata', 'is not', null)
        .execute();
      // The column is JSON text written by setMetadata only.
      for (const row of rows) out.set(row.id_hash, JSON.parse(row.metadata!) as TokenMetadata);
    }
    return out;
  }

  async setMetadata(tenantId: string, idHash: string, metadata: TokenMetadata | null, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ metadata: metadata === null ? null : JSON.stringify(metadata) })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
