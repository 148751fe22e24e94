/** Network ACLs (src/storage/migrations/0132_network_acls.ts). */
import type { NetworkAclRow } from '../../domain/network-acls/rows.js';
import type { NetworkAclStore } from '../../domain/network-acls/store.js';
import type { Db } from '../database.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

export class KyselyNetworkAclStore implements NetworkAclStore {
  constructor(private readonly db: Db) {}

  list(tenantId: string): Promise<NetworkAclRow[]> {
    return parsedRows('network_acls', this.db.selectFrom('network_acls').selectAll().where('tenant_id', '=', tenantId).orderBy('priority').execute());
  }

  get(tenantId: string, id: string): Promise<NetworkAclRow | undefined> {
    return parsedRow('network_acls', this.db.selectFrom('network_acls').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  async insert(row: NetworkAclRow): Promise<void> {
    await this.db.insertInto('network_acls').values(toStored('network_acls', row)).execute();
  }

  async replace(row: NetworkAclRow): Promise<boolean> {
    const { tenant_id, id, created_at: _created, ...rest } = toStored('network_acls', row);
    const result = await this.db.updateTable('network_acls').set(rest).where('tenant_id', '=', tenant_id).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('network_acls').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
