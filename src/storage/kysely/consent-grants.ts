/**
 * Storage of users' consent grants: per user, client and audience, the scopes
 * the user agreed to let the client have. The consent page reads them to skip
 * asking again and adds to them; the Management API lists and revokes them
 * (/api/v2/grants).
 *
 * `grant` merges without locks: it inserts the row if absent (ON CONFLICT DO
 * NOTHING on the unique (tenant, user, client, audience) index) or replaces
 * the scopes only if they are still those it read (compare-and-set), and reads
 * again when another grant got there first. Each retry means another writer's
 * change landed, so concurrent grants end as one row holding their union, on
 * SQLite and PostgreSQL alike.
 */
import type { Db } from '../database.js';
import { newConsentGrantId, type ConsentGrantRow } from '../../domain/consent-grants/model.js';
import { fromStored, parsedRow } from '../json-columns.js';
import { fetchPage, parsedPage } from '../paging.js';
import type { ConsentGrantFilter, ConsentGrantStore } from '../../domain/consent-grants/store.js';

export type { ConsentGrantRow } from '../../domain/consent-grants/model.js';

/** `granted` followed by the members of `added` it lacks, each once. */
function union(granted: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...granted, ...added])];
}

export class KyselyConsentGrantStore implements ConsentGrantStore {
  constructor(private readonly db: Db) {}

  async scopesFor(tenantId: string, userId: string, clientId: string, audience: string): Promise<string[] | undefined> {
    const row = await parsedRow('user_grants', this.#byKey(tenantId, userId, clientId, audience).select('scope').executeTakeFirst());
    return row?.scope;
  }

  async grant(
    tenantId: string,
    userId: string,
    clientId: string,
    audience: string,
    scopes: readonly string[],
    now: string,
  ): Promise<ConsentGrantRow> {
    for (;;) {
      const current = await parsedRow('user_grants', this.#byKey(tenantId, userId, clientId, audience).selectAll().executeTakeFirst());
      const done = current ? await this.#addScopes(current, scopes, now) : await this.#create(tenantId, userId, clientId, audience, scopes, now);
      if (done) return done;
      // A concurrent grant created or changed the row since it was read: merge into what it wrote.
    }
  }

  /** Inserts the grant unless one exists for the key; undefined when it does. */
  #create(tenantId: string, userId: string, clientId: string, audience: string, scopes: readonly string[], now: string): Promise<ConsentGrantRow | undefined> {
    return parsedRow(
      'user_grants',
      this.db
      .insertInto('user_grants')
      .values({
        tenant_id: tenantId,
        id: newConsentGrantId(),
        user_id: userId,
        client_id: clientId,
        audience,
        scope: JSON.stringify(union([], scopes)),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'client_id', 'audience']).doNothing())
      .returningAll()
      .executeTakeFirst(),
    );
  }

  /** Writes the union of the row's scopes and `scopes` if the row still has the scopes read; undefined when it changed. */
  async #addScopes(current: ConsentGrantRow, scopes: readonly string[], now: string): Promise<ConsentGrantRow | undefined> {
    const merged = union(current.scope, scopes);
    if (merged.length === current.scope.length) return current;
    const updated = await this.db
      .updateTable('user_grants')
      .set({ scope: JSON.stringify(merged), updated_at: now })
      .where('tenant_id', '=', current.tenant_id)
      .where('id', '=', current.id)
      // Compare-and-set on the text as stored: the scopes are written by JSON.stringify of a string array, which parsing and writing again reproduces.
      .where('scope', '=', JSON.stringify(current.scope))
      .returningAll()
      .executeTakeFirst();
    return updated && fromStored('user_grants', updated);
  }

  #byKey(tenantId: string, userId: string, clientId: string, audience: string) {
    return this.db
      .selectFrom('user_grants')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where('audience', '=', audience);
  }

  async list(
    tenantId: string,
    filter: ConsentGrantFilter,
    page: { page: number; perPage: number },
  ): Promise<{ rows: ConsentGrantRow[]; total: number }> {
    let base = this.db.selectFrom('user_grants').where('tenant_id', '=', tenantId);
    if (filter.user_id !== undefined) base = base.where('user_id', '=', filter.user_id);
    if (filter.client_id !== undefined) base = base.where('client_id', '=', filter.client_id);
    if (filter.audience !== undefined) base = base.where('audience', '=', filter.audience);
    const { rows, total } = await parsedPage('user_grants', fetchPage(base, (q) => q.selectAll(), 'id', { kind: 'offset', offset: page.page * page.perPage, limit: page.perPage, withTotal: true }));
    return { rows, total: total ?? 0 };
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('user_grants').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteByUser(tenantId: string, userId: string): Promise<number> {
    const result = await this.db.deleteFrom('user_grants').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
