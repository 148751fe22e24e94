/** Storage of network ACLs. Implemented by src/storage/kysely/network-acls.ts. */
import type { NetworkAclRow } from './rows.js';

export interface NetworkAclStore {
  /** Every rule of the tenant, by priority. */
  list(tenantId: string): Promise<NetworkAclRow[]>;
  get(tenantId: string, id: string): Promise<NetworkAclRow | undefined>;
  /** Fails with a unique violation when the tenant has a rule of that priority. */
  insert(row: NetworkAclRow): Promise<void>;
  /** Writes every column of the rule but its creation time; false when there was none. Fails with a unique violation on a taken priority. */
  replace(row: NetworkAclRow): Promise<boolean>;
  /** Deletes the rule; false when there was none. */
  delete(tenantId: string, id: string): Promise<boolean>;
}
