import type { DeviceApproval, DeviceCodeStore } from '../../domain/device-codes/store.js';
import type { DeviceCodeRow } from '../../domain/device-codes/rows.js';
import type { Db } from '../database.js';
import { consumeApproved, recordPoll } from './polled-requests.js';

export class KyselyDeviceCodeStore implements DeviceCodeStore {
  constructor(private readonly db: Db) {}

  async insert(row: DeviceCodeRow): Promise<void> {
    await this.db.insertInto('device_codes').values(row).execute();
  }

  get(tenantId: string, id: string): Promise<DeviceCodeRow | undefined> {
    return this.db.selectFrom('device_codes').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  findByDeviceCode(tenantId: string, deviceCodeHash: string): Promise<DeviceCodeRow | undefined> {
    return this.db.selectFrom('device_codes').selectAll().where('tenant_id', '=', tenantId).where('device_code_hash', '=', deviceCodeHash).executeTakeFirst();
  }

  findByUserCode(tenantId: string, userCodeHash: string): Promise<DeviceCodeRow | undefined> {
    return this.db.selectFrom('device_codes').selectAll().where('tenant_id', '=', tenantId).where('user_code_hash', '=', userCodeHash).executeTakeFirst();
  }

  recordPoll(tenantId: string, id: string, now: string, notAfter: string): Promise<boolean> {
    return recordPoll(this.db, 'device_codes', tenantId, id, now, notAfter);
  }

  approve(tenantId: string, id: string, now: string, approval: DeviceApproval): Promise<boolean> {
    return this.#decide(tenantId, id, now, { status: 'approved', ...approval });
  }

  deny(tenantId: string, id: string, now: string): Promise<boolean> {
    return this.#decide(tenantId, id, now, { status: 'denied' });
  }

  async reportExpiry(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('device_codes')
      .set({ expiry_reported: 1 })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('expiry_reported', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  consume(tenantId: string, id: string, now: string): Promise<boolean> {
    return consumeApproved(this.db, 'device_codes', tenantId, id, now);
  }

  async #decide(tenantId: string, id: string, now: string, changes: Partial<DeviceCodeRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('device_codes')
      .set(changes)
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
