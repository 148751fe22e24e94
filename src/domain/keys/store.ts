/**
 * Storage of the tenants' signing keys (private keys sealed).
 * Implemented by src/storage/kysely/signing-keys.ts; the composition root builds one.
 */
import type { SigningKeyRow } from '../rows.js';

/** Storage of tenant signing keys. The private part arrives here already sealed. */
export interface SigningKeyStore {
  /** Inserts a key; fails if the (tenant, kid) pair exists. */
  insert(row: SigningKeyRow): Promise<void>;
  /** Every key of the tenant, oldest first. */
  listByTenant(tenantId: string): Promise<SigningKeyRow[]>;
}
