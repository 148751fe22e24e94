/**
 * Storage of custom token exchange profiles. Implemented by
 * src/storage/kysely/token-exchange-profiles.ts.
 */
import type { TokenExchangeProfileRow } from './rows.js';

export type TokenExchangeProfileChanges = Partial<Pick<TokenExchangeProfileRow, 'name' | 'subject_token_type'>>;

export interface TokenExchangeProfileStore {
  /** Profiles by id after `after` (exclusive), at most `limit`. */
  list(tenantId: string, after: string | undefined, limit: number): Promise<TokenExchangeProfileRow[]>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<TokenExchangeProfileRow | undefined>;
  /** The profile a token exchange request's `subject_token_type` selects. */
  bySubjectTokenType(tenantId: string, subjectTokenType: string): Promise<TokenExchangeProfileRow | undefined>;
  /** False when the tenant has a profile of that subject_token_type already. */
  create(row: TokenExchangeProfileRow): Promise<boolean>;
  /** The profile after the change; undefined when there is none; 'conflict' when the subject_token_type is taken. */
  update(tenantId: string, id: string, changes: TokenExchangeProfileChanges, now: string): Promise<TokenExchangeProfileRow | undefined | 'conflict'>;
  delete(tenantId: string, id: string): Promise<boolean>;
}
