/**
 * Storage of device public keys. Implemented by
 * src/storage/kysely/device-credentials.ts; the composition root builds one.
 */
import type { DeviceCredentialRow } from './rows.js';

export interface DeviceCredentialFilter {
  userId?: string;
  clientId?: string;
}

export interface DeviceCredentialStore {
  /**
   * Stores a new key. Fails with a unique violation when the user already has
   * a key for the client and device, with a foreign-key violation on an
   * unknown user.
   */
  insert(row: DeviceCredentialRow): Promise<void>;
  /** The tenant's keys matching the filter, by id, at most `limit`. */
  list(tenantId: string, filter: DeviceCredentialFilter, limit: number): Promise<DeviceCredentialRow[]>;
  get(tenantId: string, id: string): Promise<DeviceCredentialRow | undefined>;
  /** Deletes the key; false when there was none. */
  delete(tenantId: string, id: string): Promise<boolean>;
}
