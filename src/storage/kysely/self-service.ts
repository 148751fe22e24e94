import type { OffsetWindow, Page } from '../../domain/paging.js';
import type { SelfServiceProfileRow, SsoTicketRow } from '../../domain/self-service/rows.js';
import type { SelfServiceStore } from '../../domain/self-service/store.js';
import { atomically, type Db } from '../database.js';
import { fromStored, toStored } from '../json-columns.js';
import { countRows } from '../paging.js';

export class KyselySelfServiceStore implements SelfServiceStore {
  constructor(private readonly db: Db) {}

  async getProfile(tenantId: string, id: string): Promise<SelfServiceProfileRow | undefined> {
    const row = await this.db.selectFrom('self_service_profiles').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return row && fromStored('self_service_profiles', row);
  }

  async listProfiles(tenantId: string, page: OffsetWindow): Promise<Page<SelfServiceProfileRow>> {
    const base = this.db.selectFrom('self_service_profiles').where('tenant_id', '=', tenantId);
    const rows = await base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute();
    return { rows: rows.map((row) => fromStored('self_service_profiles', row)), ...(page.withTotal && { total: await countRows(base) }) };
  }

  countProfiles(tenantId: string): Promise<number> {
    return countRows(this.db.selectFrom('self_service_profiles').where('tenant_id', '=', tenantId));
  }

  async insertProfile(row: SelfServiceProfileRow): Promise<void> {
    await this.db.insertInto('self_service_profiles').values(toStored('self_service_profiles', row)).execute();
  }

  async updateProfile(tenantId: string, id: string, changes: Partial<Omit<SelfServiceProfileRow, 'tenant_id' | 'id' | 'created_at'>>): Promise<boolean> {
    const result = await this.db.updateTable('self_service_profiles').set(toStored('self_service_profiles', changes)).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  deleteProfile(tenantId: string, id: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      await trx.deleteFrom('sso_tickets').where('tenant_id', '=', tenantId).where('profile_id', '=', id).execute();
      const result = await trx.deleteFrom('self_service_profiles').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async insertTicket(row: SsoTicketRow): Promise<void> {
    await this.db.insertInto('sso_tickets').values(toStored('sso_tickets', row)).execute();
  }

  async getTicket(tenantId: string, idHash: string): Promise<SsoTicketRow | undefined> {
    const row = await this.db.selectFrom('sso_tickets').selectAll().where('tenant_id', '=', tenantId).where('id_hash', '=', idHash).executeTakeFirst();
    return row && fromStored('sso_tickets', row);
  }

  async revokeTicket(tenantId: string, profileId: string, idHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sso_tickets')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('profile_id', '=', profileId)
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async useTicket(tenantId: string, idHash: string, now: string, connectionId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sso_tickets')
      .set({ used_at: now, connection_id: connectionId })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
