import type { UpstreamTokenSetRow } from './rows.js';

/** Users' token sets at upstream identity providers, one per user and connection. */
export interface UpstreamTokenSetStore {
  /** Inserts, or replaces the tokens of the user's set at that connection (its id kept). */
  keep(row: UpstreamTokenSetRow): Promise<void>;
  /** The user's set at a connection (by connection name). */
  find(tenantId: string, userId: string, connection: string): Promise<UpstreamTokenSetRow | undefined>;
  list(tenantId: string, userId: string): Promise<UpstreamTokenSetRow[]>;
  /** Replaces the tokens after a refresh at the provider, or marks a use. */
  update(tenantId: string, id: string, changes: Partial<Pick<UpstreamTokenSetRow, 'access_token' | 'refresh_token' | 'scope' | 'access_token_expires_at' | 'last_used_at'>>): Promise<void>;
  delete(tenantId: string, userId: string, id: string): Promise<void>;
}
