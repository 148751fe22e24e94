/**
 * Storage of connection profiles. Implemented by
 * src/storage/kysely/connection-profiles.ts.
 */
import type { ConnectionProfileMembers, ConnectionProfileRow } from './rows.js';

export interface ConnectionProfileChanges {
  name?: string;
  /** The whole set of members after the change (the service merges the PATCH). */
  profile?: ConnectionProfileMembers;
}

export interface ConnectionProfileStore {
  /** Profiles of the tenant by id after `after` (exclusive), at most `limit`. */
  list(tenantId: string, after: string | undefined, limit: number): Promise<ConnectionProfileRow[]>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<ConnectionProfileRow | undefined>;
  /** False (nothing written) when the tenant has a profile of that name already. */
  create(row: ConnectionProfileRow): Promise<boolean>;
  /** The profile after the change; undefined when there is none; 'conflict' when the new name is another profile's. */
  update(tenantId: string, id: string, changes: ConnectionProfileChanges, now: string): Promise<ConnectionProfileRow | undefined | 'conflict'>;
  /** False when there was no such profile. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /**
   * The ids of the tenant's clients whose `express_configuration` or
   * `my_organization_configuration` names the profile as its `connection_profile_id`,
   * in client id order, at most `limit`.
   */
  clientsUsing(tenantId: string, id: string, limit: number): Promise<string[]>;
}
