/**
 * Storage of authorization codes (only their hash).
 * Implemented by src/storage/kysely/authorization-codes.ts; the composition root builds one.
 */
import type { AuthorizationCodeRow } from './rows.js';

export interface AuthorizationCodeStore {
  /** Stores a new code. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(
    row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id' | 'amr' | 'organization_id'> & Partial<Pick<AuthorizationCodeRow, 'amr'>> & { organization_id?: string | null },
  ): Promise<void>;
  /** The code with this hash in the tenant, whatever its state (used, expired); undefined when unknown. */
  find(tenantId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined>;
  /**
   * Marks the code used at `now`, recording the refresh-token family its use
   * may issue, if it is neither used nor expired, in one conditional UPDATE:
   * of two concurrent calls exactly one gets true (one use, RFC 6749 §4.1.2).
   */
  consume(tenantId: string, codeHash: string, now: string, refreshFamilyId: string): Promise<boolean>;
}
