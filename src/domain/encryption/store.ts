/**
 * Storage of the encryption key hierarchy and the scan of sealed values a
 * rekey moves. Implemented by src/storage/kysely/encryption-keys.ts.
 */
import type { EncryptionKeyRow } from './rows.js';

export interface EncryptionKeyStore {
  /** The tenant's keys, oldest first (destroyed ones included). */
  list(tenantId: string): Promise<EncryptionKeyRow[]>;
  /** Every tenant's keys that are not destroyed, oldest first: what a process loads at start. */
  listLive(): Promise<EncryptionKeyRow[]>;
  get(tenantId: string, kid: string): Promise<EncryptionKeyRow | undefined>;
  insert(row: EncryptionKeyRow): Promise<void>;
  /** Changes a key; false when it does not exist. */
  update(tenantId: string, kid: string, changes: Partial<Omit<EncryptionKeyRow, 'tenant_id' | 'kid' | 'type' | 'created_at'>>): Promise<boolean>;
  delete(tenantId: string, kid: string): Promise<boolean>;
  /** Whether a rekey job of the tenant is queued or running (the `jobs` table, type `encryption_rekey`). */
  rekeyRunning(tenantId: string): Promise<boolean>;
}

/** Where sealed values live: a table's rows of one tenant, their key columns (besides `tenant_id`) and the columns to re-seal. */
export interface SealedTable {
  readonly table: string;
  readonly key: readonly string[];
  readonly columns: readonly string[];
}

/** A row as scanned: its key columns and its sealed columns, as the database holds them (text or null). */
export type SealedRow = Record<string, string | null>;

export interface SealedValueStore {
  /** The tenant's rows of `source` after the key `after` (in key order; from the first when undefined), at most `limit`. */
  scan(source: SealedTable, tenantId: string, after: readonly string[] | undefined, limit: number): Promise<SealedRow[]>;
  /**
   * Writes `changes` to the row whose key `key` holds, only if its sealed
   * columns still hold what was scanned (`expected`): a value rewritten
   * meanwhile (by its owner, under the current key) is left as it is.
   * False when the row changed or is gone.
   */
  replace(source: SealedTable, tenantId: string, key: readonly string[], expected: SealedRow, changes: SealedRow): Promise<boolean>;
}
