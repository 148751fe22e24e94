/** Device public keys (src/storage/migrations/0131_device_credentials.ts). */
import type { Db } from '../database.js';
import type { DeviceCredentialRow } from '../../domain/device-credentials/rows.js';
import type { DeviceCredentialFilter, DeviceCredentialStore } from '../../domain/device-credentials/store.js';

export class KyselyDeviceCredentialStore implements DeviceCredentialStore {
  constructor(private readonly db: Db) {}

  async insert(row: DeviceCredentialRow): Promise<void> {
    await this.db.insertInto('device_credentials').values(row).execute();
  }

  list(tenantId: string, filter: DeviceCredentialFilter, limit: number): Promise<DeviceCredentialRow[]> {
    let query = this.db.selectFrom('device_credentials').selectAll().where('tenant_id', '=', tenantId);
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
    return query.orderBy('id').limit(limit).execute();
  }

  get(tenantId: string, id: string): Promise<DeviceCredentialRow | undefined> {
    return this.db.selectFrom('device_credentials').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('device_credentials').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
