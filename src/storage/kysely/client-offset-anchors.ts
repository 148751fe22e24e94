/**
 * Offset paging without walking the skipped rows: for each tenant and filter,
 * the client_id found at every ANCHOR_SPACING-th position, so that page N is
 * read from the nearest anchor with a short offset. The anchors are one
 * window-function query (a single index scan), cached like the token
 * endpoint's reads: dropped on every client write through the invalidation
 * bus (all processes with Redis) and reread after ISSUANCE_CACHE_TTL_MS.
 *
 * With the anchors a page 50,000 rows deep costs about what the first page
 * costs; without them both databases step through every skipped index entry.
 */
import { sql } from 'kysely';
import { ISSUANCE_CACHE_TTL_MS } from '../../domain/issuance/lookups.js';
import { TenantCache } from '../../platform/cache/tenant-cache.js';
import type { Db } from '../database.js';
import type { ClientFilter, ClientOffsetAnchors } from '../../domain/clients/store.js';

export const ANCHOR_SPACING = 1000;

export class OffsetAnchors implements ClientOffsetAnchors {
  readonly #cache: TenantCache<string[]>;

  constructor(
    private readonly db: Db,
    now: () => number,
  ) {
    this.#cache = new TenantCache(ISSUANCE_CACHE_TTL_MS, now, 200);
  }

  invalidateTenant(tenantId: string): void {
    this.#cache.invalidateTenant(tenantId);
  }

  /**
   * Where to start reading for `offset`: the anchor at or before it (undefined
   * for the first block) and the remaining offset from there.
   */
  async start(tenantId: string, filter: ClientFilter, offset: number): Promise<{ from?: string; offset: number }> {
    const block = Math.floor(offset / ANCHOR_SPACING);
    if (block === 0) return { offset };
    const anchors = await this.#cache.get(tenantId, JSON.stringify(filter), () => this.#load(tenantId, filter));
    const anchor = anchors[block];
    // Past the end: no anchor; the plain offset returns the (empty) page.
    if (anchor === undefined) return { offset };
    return { from: anchor, offset: offset - block * ANCHOR_SPACING };
  }

  async #load(tenantId: string, filter: ClientFilter): Promise<string[]> {
    const conditions = [sql`tenant_id = ${tenantId}`];
    if (filter.global !== undefined) conditions.push(sql`global = ${filter.global ? 1 : 0}`);
    if (filter.isFirstParty !== undefined) conditions.push(sql`is_first_party = ${filter.isFirstParty ? 1 : 0}`);
    if (filter.appTypes !== undefined) conditions.push(sql`app_type in (${sql.join(filter.appTypes.length ? filter.appTypes : [''])})`);
    if (filter.externalClientId !== undefined) conditions.push(sql`external_client_id = ${filter.externalClientId}`);
    if (filter.clientIds !== undefined) conditions.push(sql`client_id in (${sql.join(filter.clientIds.length ? filter.clientIds : [''])})`);
    const result = await sql<{ client_id: string }>`
      select client_id from (
        select client_id, row_number() over (order by client_id) as position
        from clients where ${sql.join(conditions, sql` and `)}
      ) numbered
      where (position - 1) % ${ANCHOR_SPACING} = 0
      order by client_id`.execute(this.db);
    return result.rows.map((r) => r.client_id);
  }
}
