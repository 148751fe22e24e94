import type { BackchannelAuthRequestStore } from '../../domain/backchannel-authentication/store.js';
import type { BackchannelAuthRequestRow } from '../../domain/backchannel-authentication/rows.js';
import type { Db } from '../database.js';
import { consumeApproved, recordPoll } from './polled-requests.js';

export class KyselyBackchannelAuthRequestStore implements BackchannelAuthRequestStore {
  constructor(private readonly db: Db) {}

  async insert(row: BackchannelAuthRequestRow): Promise<void> {
    await this.db.insertInto('backchannel_auth_requests').values(row).execute();
  }

  findByAuthReqId(tenantId: string, authReqIdHash: string): Promise<BackchannelAuthRequestRow | undefined> {
    return this.db.selectFrom('backchannel_auth_requests').selectAll().where('tenant_id', '=', tenantId).where('auth_req_id_hash', '=', authReqIdHash).executeTakeFirst();
  }

  findByTicket(tenantId: string, ticketHash: string): Promise<BackchannelAuthRequestRow | undefined> {
    return this.db.selectFrom('backchannel_auth_requests').selectAll().where('tenant_id', '=', tenantId).where('ticket_hash', '=', ticketHash).executeTakeFirst();
  }

  recordPoll(tenantId: string, id: string, now: string, notAfter: string): Promise<boolean> {
    return recordPoll(this.db, 'backchannel_auth_requests', tenantId, id, now, notAfter);
  }

  async decide(tenantId: string, id: string, now: string, decision: 'approved' | 'denied'): Promise<boolean> {
    const result = await this.db
      .updateTable('backchannel_auth_requests')
      .set({ status: decision, decided_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  consume(tenantId: string, id: string, now: string): Promise<boolean> {
    return consumeApproved(this.db, 'backchannel_auth_requests', tenantId, id, now);
  }
}
