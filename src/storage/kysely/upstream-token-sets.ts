/** Users' sealed token sets at upstream identity providers (migration 0100). */
import type { Db } from '../database.js';
import type { UpstreamTokenSetRow } from '../../domain/upstream-tokens/rows.js';
import type { UpstreamTokenSetStore } from '../../domain/upstream-tokens/store.js';

export class KyselyUpstreamTokenSetStore implements UpstreamTokenSetStore {
  constructor(private readonly db: Db) {}

  async keep(row: UpstreamTokenSetRow): Promise<void> {
    const { access_token, refresh_token, scope, access_token_expires_at, issued_at, connection } = row;
    await this.db
      .insertInto('upstream_token_sets')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'connection_id']).doUpdateSet({ access_token, refresh_token, scope, access_token_expires_at, issued_at, connection }))
      .execute();
  }

  find(tenantId: string, userId: string, connection: string): Promise<UpstreamTokenSetRow | undefined> {
    return this.db.selectFrom('upstream_token_sets').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('connection', '=', connection).executeTakeFirst();
  }

  list(tenantId: string, userId: string): Promise<UpstreamTokenSetRow[]> {
    return this.db.selectFrom('upstream_token_sets').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).orderBy('connection').limit(100).execute();
  }

  async update(tenantId: string, id: string, changes: Parameters<UpstreamTokenSetStore['update']>[2]): Promise<void> {
    await this.db.updateTable('upstream_token_sets').set(changes).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
  }

  async delete(tenantId: string, userId: string, id: string): Promise<void> {
    await this.db.deleteFrom('upstream_token_sets').where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('id', '=', id).execute();
  }
}
