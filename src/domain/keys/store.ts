/**
 * Storage of the tenants' signing keys (private keys sealed).
 * Implemented by src/storage/kysely/signing-keys.ts; the composition root builds one.
 */
import type { SigningKeyRow } from './rows.js';

export interface KeyRotation {
  /** The key that is `current` now: it becomes `previous` (`current_until` = `at`). */
  currentKid: string;
  /** The key that is `next` now: it becomes `current` (`current_since` = `at`). */
  nextKid: string;
  /** The new `next` key, inserted. */
  newNext: SigningKeyRow;
  /** ISO time of the rotation. */
  at: string;
}

/** Storage of tenant signing keys. The private part arrives here already sealed. */
export interface SigningKeyStore {
  /** Inserts a key; fails if the (tenant, kid) pair exists. */
  insert(row: SigningKeyRow): Promise<void>;
  /** Every key of the tenant, revoked ones included, oldest first. */
  listByTenant(tenantId: string): Promise<SigningKeyRow[]>;
  /** One key of the tenant by kid, whatever its status. */
  get(tenantId: string, kid: string): Promise<SigningKeyRow | undefined>;
  /**
   * Rotates atomically (all three changes or none): false, with nothing
   * changed, when `currentKid` is no longer `current` or `nextKid` no longer
   * `next` (another rotation came first).
   */
  rotate(tenantId: string, rotation: KeyRotation): Promise<boolean>;
  /** Marks a `previous` key `revoked` at `at` (ISO); false, nothing changed, for a key in any other status or unknown. */
  revoke(tenantId: string, kid: string, at: string): Promise<boolean>;
}
