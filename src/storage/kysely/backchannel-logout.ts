import type { BackchannelLogoutStore, EndedSession } from '../../domain/backchannel-logout/store.js';
import type { BackchannelLogoutDeliveryRow } from '../../domain/backchannel-logout/rows.js';
import type { Db } from '../database.js';
import { chunks } from '../links.js';

export class KyselyBackchannelLogoutStore implements BackchannelLogoutStore {
  constructor(private readonly db: Db) {}

  async recordClient(tenantId: string, sessionId: string, clientId: string, now: string): Promise<void> {
    await this.db
      .insertInto('session_clients')
      .values({ tenant_id: tenantId, session_id: sessionId, client_id: clientId, created_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'session_id', 'client_id']).doNothing())
      .execute();
  }

  async clientsOf(tenantId: string, sessionIds: readonly string[]): Promise<{ session_id: string; client_id: string }[]> {
    const out: { session_id: string; client_id: string }[] = [];
    for (const chunk of chunks(sessionIds)) {
      out.push(
        ...(await this.db
          .selectFrom('session_clients')
          .select(['session_id', 'client_id'])
          .where('tenant_id', '=', tenantId)
          .where('session_id', 'in', chunk)
          .orderBy('session_id')
          .orderBy('client_id')
          .execute()),
      );
    }
    return out;
  }

  async markEnded(tenantId: string, sessionIds: readonly string[], now: string): Promise<string[]> {
    const marked: string[] = [];
    for (const id of sessionIds) {
      const result = await this.db
        .updateTable('sessions')
        .set({ logout_notified_at: now })
        .where('tenant_id', '=', tenantId)
        .where('id_hash', '=', id)
        .where('logout_notified_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) marked.push(id);
    }
    return marked;
  }

  expiredUnannounced(now: string, limit: number): Promise<EndedSession[]> {
    return this.db
      .selectFrom('sessions as s')
      .select(['s.tenant_id', 's.id_hash', 's.user_id'])
      .where('s.expires_at', '<=', now)
      .where('s.revoked_at', 'is', null)
      .where('s.logout_notified_at', 'is', null)
      .where((eb) =>
        eb.exists(eb.selectFrom('session_clients as sc').select('sc.client_id').whereRef('sc.tenant_id', '=', 's.tenant_id').whereRef('sc.session_id', '=', 's.id_hash')),
      )
      .orderBy('s.expires_at')
      .limit(limit)
      .execute();
  }

  async enqueue(rows: readonly BackchannelLogoutDeliveryRow[]): Promise<void> {
    for (const chunk of chunks(rows)) await this.db.insertInto('backchannel_logout_deliveries').values(chunk).execute();
  }

  due(now: string, limit: number): Promise<BackchannelLogoutDeliveryRow[]> {
    return this.db
      .selectFrom('backchannel_logout_deliveries')
      .selectAll()
      .where('next_attempt_at', '<=', now)
      .where('delivered_at', 'is', null)
      .where('gave_up_at', 'is', null)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  async claim(tenantId: string, id: string, seen: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('backchannel_logout_deliveries')
      .set({ next_attempt_at: leaseUntil })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('next_attempt_at', '=', seen)
      .where('delivered_at', 'is', null)
      .where('gave_up_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delivered(tenantId: string, id: string, now: string, attempts: number): Promise<void> {
    await this.db
      .updateTable('backchannel_logout_deliveries')
      .set({ delivered_at: now, attempts, last_error: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
  }

  async failed(tenantId: string, id: string, attempts: number, error: string, next: { nextAttemptAt: string } | { gaveUpAt: string }): Promise<void> {
    await this.db
      .updateTable('backchannel_logout_deliveries')
      .set({ attempts, last_error: error.slice(0, 500), ...('gaveUpAt' in next ? { gave_up_at: next.gaveUpAt } : { next_attempt_at: next.nextAttemptAt }) })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
  }

  forClient(tenantId: string, clientId: string): Promise<BackchannelLogoutDeliveryRow[]> {
    return this.db
      .selectFrom('backchannel_logout_deliveries')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('client_id', '=', clientId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }
}
