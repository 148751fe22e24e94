/**
 * Refresh tokens. The token itself is `v1.` + 32 random bytes, base64url,
 * sent only to the client; the store keeps its SHA-256, so neither a database
 * read nor a backup yields a working token. Tokens descending from one grant
 * form a family (`family_id`), revoked together.
 */
import type { Db } from '../database.js';
import type { RefreshTokenRow } from '../schema.js';
import type { RefreshTokenOwner, RefreshTokenStore } from '../../domain/refresh-tokens/store.js';
import type { RefreshTokenFamily, TokenMetadata } from '../../domain/refresh-tokens/rows.js';
import type { KeysetWindow } from '../../domain/paging.js';
import { chunks } from '../links.js';

const MAX_REVOKED_AT_ONCE = 10_000;

/** The columns of RefreshTokenRow (the metadata is read by the family queries only). */
const ROW_COLUMNS = [
  'tenant_id', 'id_hash', 'family_id', 'client_id', 'user_id', 'audience', 'scope', 'created_at', 'expires_at', 'idle_expires_at',
  'last_used_at', 'rotated_at', 'revoked_at', 'dpop_jkt', 'organization_id', 'session_id',
] as const;

type FamilyAggregate = Omit<RefreshTokenFamily, 'rotated' | 'metadata'> & { rotated_count: number | string | bigint; metadata: string | null };

function family(row: FamilyAggregate): RefreshTokenFamily {
  const { rotated_count, metadata, ...rest } = row;
  return { ...rest, rotated: Number(rotated_count) > 0, metadata: metadata === null ? null : (JSON.parse(metadata) as TokenMetadata) };
}


export class KyselyRefreshTokenStore implements RefreshTokenStore {
  /** `db` may be a transaction. */
  constructor(private readonly db: Db) {}

  async insert(row: Omit<RefreshTokenRow, 'rotated_at' | 'revoked_at' | 'organization_id'> & { organization_id?: string | null }): Promise<void> {
    // A successor in a family takes what the family carries (the session that started it, its metadata).
    const family = await this.db
      .selectFrom('refresh_tokens')
      .select(['session_id', 'metadata'])
      .where('tenant_id', '=', row.tenant_id)
      .where('family_id', '=', row.family_id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    await this.db
      .insertInto('refresh_tokens')
      .values({
        ...row,
        session_id: family ? family.session_id : (row.session_id ?? null),
        metadata: family?.metadata ?? null,
        organization_id: row.organization_id ?? null,
        rotated_at: null,
        revoked_at: null,
      })
      .execute();
  }

  find(tenantId: string, idHash: string): Promise<RefreshTokenRow | undefined> {
    return this.db.selectFrom('refresh_tokens').select(ROW_COLUMNS).where('tenant_id', '=', tenantId).where('id_hash', '=', idHash).executeTakeFirst();
  }

  rotate(tenantId: string, idHash: string, now: string): Promise<RefreshTokenRow | undefined> {
    return this.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: now, last_used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returning(ROW_COLUMNS)
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
    return this.revokeFamilies(tenantId, beyond.map((row) => row.family_id), now);
  }

  revokeForUser(tenantId: string, userId: string, now: string): Promise<number> {
    return this.revokeOwned(tenantId, { userId }, now);
  }

  /**
   * One row per family from all its tokens: the family's first issue, its
   * latest use and expiries, whether it rotated; kept when one of its tokens
   * is active at `now` (GROUP BY … HAVING, the same SQL on both databases).
   */
  private families(tenantId: string, now: string) {
    return this.db
      .selectFrom('refresh_tokens')
      .select((eb) => [
        'family_id',
        eb.fn.min('user_id').as('user_id'),
        eb.fn.min('client_id').as('client_id'),
        eb.fn.max('audience').as('audience'),
        eb.fn.min('scope').as('scope'),
        eb.fn.max('session_id').as('session_id'),
        eb.fn.min('created_at').as('created_at'),
        eb.fn.max('expires_at').as('expires_at'),
        eb.fn.max('idle_expires_at').as('idle_expires_at'),
        eb.fn.max('last_used_at').as('last_used_at'),
        eb.fn.count<number>('rotated_at').as('rotated_count'),
        eb.fn.max('metadata').as('metadata'),
      ])
      .where('tenant_id', '=', tenantId)
      .groupBy('family_id')
      .having((eb) =>
        eb.fn.count(
          eb
            .case()
            .when(
              eb.and([
                eb('revoked_at', 'is', null),
                eb('rotated_at', 'is', null),
                eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
                eb.or([eb('idle_expires_at', 'is', null), eb('idle_expires_at', '>', now)]),
              ]),
            )
            .then(1)
            .end(),
        ),
        '>',
        0,
      );
  }

  async activeFamilies(tenantId: string, owner: RefreshTokenOwner, now: string, page: KeysetWindow): Promise<RefreshTokenFamily[]> {
    let query = this.families(tenantId, now).where('user_id', '=', owner.userId);
    if (owner.clientId !== undefined) query = query.where('client_id', '=', owner.clientId);
    if (page.after !== undefined) query = query.where('family_id', '>', page.after);
    const rows = await query.orderBy('family_id').limit(page.limit).execute();
    return rows.map((row) => family(row as FamilyAggregate));
  }

  async findFamily(tenantId: string, familyId: string, now: string): Promise<RefreshTokenFamily | undefined> {
    const row = await this.families(tenantId, now).where('family_id', '=', familyId).executeTakeFirst();
    return row && family(row as FamilyAggregate);
  }

  async setFamilyMetadata(tenantId: string, familyId: string, metadata: TokenMetadata | null): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ metadata: metadata === null ? null : JSON.stringify(metadata) })
      .where('tenant_id', '=', tenantId)
      .where('family_id', '=', familyId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeFamilies(tenantId: string, familyIds: readonly string[], now: string): Promise<number> {
    let revoked = 0;
    for (const chunk of chunks([...new Set(familyIds)])) {
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

  async revokeOwned(tenantId: string, owner: RefreshTokenOwner, now: string): Promise<number> {
    let query = this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', owner.userId)
      .where('revoked_at', 'is', null);
    if (owner.clientId !== undefined) query = query.where('client_id', '=', owner.clientId);
    if (owner.audience !== undefined) query = query.where('audience', '=', owner.audience);
    return Number((await query.executeTakeFirst()).numUpdatedRows);
  }

  async revokeForSession(tenantId: string, sessionId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
