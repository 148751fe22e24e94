/**
 * Storage of /authorize requests waiting for a login (only the transaction id's hash).
 * Implemented by src/storage/kysely/authorize-transactions.ts; the composition root builds one.
 */
import type { JsonObject } from '../json.js';
import type { AuthorizationRequestRow } from './rows.js';

export interface AuthorizationRequestStore {
  /** Stores a new request. Fails with a unique violation on a taken hash. */
  insert(row: Omit<AuthorizationRequestRow, 'used_at' | 'completed_steps' | 'session_hash' | 'continue_hash' | 'action_suspension'>): Promise<void>;
  /** The request when usable at `now` (ISO): not used and not expired; undefined otherwise. Does not consume it. */
  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined>;
  /**
   * Marks the request used at `now` if it is still usable, in one conditional
   * UPDATE, so of two concurrent calls exactly one gets true.
   */
  /**
   * Records the steps completed so far (and, once the login step is, its
   * session) while the request is still usable at `now`; false when it no
   * longer is.
   */
  recordSteps(tenantId: string, idHash: string, now: string, completed: readonly string[], sessionHash: string | null): Promise<boolean>;
  consume(tenantId: string, idHash: string, now: string): Promise<boolean>;
  /** Replaces the kept request (a step that completes its parameters, e.g. the organization chosen on a page); false when no longer usable. */
  recordRequest(tenantId: string, idHash: string, now: string, params: AuthorizationRequestRow['params']): Promise<boolean>;
  /** Suspends the login for a post-login action's redirect: the `/continue` nonce's hash and what resumes it; false when no longer usable. */
  suspend(tenantId: string, idHash: string, now: string, continueHash: string, suspension: JsonObject): Promise<boolean>;
  /**
   * Resumes a suspended login: clears `continue_hash` if it is still
   * `continueHash` and the request usable, in one conditional UPDATE (of two
   * concurrent calls one gets the row); the row, or undefined.
   */
  resume(tenantId: string, idHash: string, now: string, continueHash: string): Promise<AuthorizationRequestRow | undefined>;
}
