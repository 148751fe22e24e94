/**
 * Refresh tokens. The token itself is `v1.` + 32 random bytes, base64url,
 * sent only to the client; the store keeps its SHA-256, so neither a database
 * read nor a backup yields a working token. Tokens descending from one grant
 * form a family (`family_id`), revoked together.
 */
import type { Db } from '../database.js';
import type { RefreshTokenRow } from '../schema.js';
import type { RefreshTokenStore } from '../../domain/refresh-tokens/store.js';
import { chunks } from '../links.js';

const MAX_REVOKED_AT_ONCE = 10_000;


export class KyselyRefreshTokenStore implements RefreshTokenStore {
  /** `db` may be a transaction. */
  constructor(private readonly db: Db) {}

  async insert(row: Omit<RefreshTokenRow, 'rotated_at' | 'revoked_at' | 'organization_id'> & { organization_id?: string | null }): Promise<void> {
    await this.db.insertInto('refresh_tokens').values({ ...row, organization_id: row.organization_id ?? null, rotated_at: null, revoked_at: null }).execute();
  }

  find(tenantId: string, idHash: string): Promise<RefreshTokenRow | undefined> {
    return this.db.selectFrom('refresh_tokens').selectAll().where('tenant_id', '=', tenantId).where('id_hash', '=', idHash).executeTakeFirst();
  }

  rotate(tenantId: string, idHash: string, now: string): Promise<RefreshTokenRow | undefined> {
    return this.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: now, last_used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  async touch(tenantId: string, idHash: string, now: string, idleExpiresAt: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ last_used_at: now, idle_expires_at: idleExpiresAt })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeFamily(tenantId: string, familyId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
  async revokeBeyond(tenantId: string, userId: string, clientId: string, keep: number, now: string): Promise<number> {
    const beyond = await this.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('idle_expires_at', 'is', null), eb('idle_expires_at', '>', now)]))
      .orderBy('created_at', 'desc')
      .orderBy('id_hash', 'desc')
      .offset(keep)
      // Normally one: the token just issued passed the limit by one. Bounded all the same.
      .limit(MAX_REVOKED_AT_ONCE)
      .execute();
    let revoked = 0;
    for (const chunk of chunks([...new Set(beyond.map((row) => row.family_id))])) {
      const result = await this.db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('tenant_id', '=', tenantId)
        .where('family_id', 'in', chunk)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      revoked += Number(result.numUpdatedRows);
    }
    return revoked;
  }

  async revokeForUser(tenantId: string, userId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

}
