/**
 * Storage of user attribute profiles. Implemented by
 * src/storage/kysely/user-attribute-profiles.ts.
 */
import type { UserAttributeProfileRow } from './rows.js';

export type UserAttributeProfileChanges = Partial<Pick<UserAttributeProfileRow, 'name' | 'user_id' | 'user_attributes'>>;

export interface UserAttributeProfileStore {
  /** Profiles of the tenant by id after `after` (exclusive), at most `limit`. */
  list(tenantId: string, after: string | undefined, limit: number): Promise<UserAttributeProfileRow[]>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<UserAttributeProfileRow | undefined>;
  /** False (nothing written) when the tenant has a profile of that name already. */
  create(row: UserAttributeProfileRow): Promise<boolean>;
  /** The profile after the change; undefined when there is none; 'conflict' when the new name is another profile's. */
  update(tenantId: string, id: string, changes: UserAttributeProfileChanges, now: string): Promise<UserAttributeProfileRow | undefined | 'conflict'>;
  /** False when there was no such profile. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /**
   * The ids of the tenant's clients whose `express_configuration` or
   * `my_organization_configuration` names the profile as its `user_attribute_profile_id`,
   * in client id order, at most `limit`.
   */
  clientsUsing(tenantId: string, id: string, limit: number): Promise<string[]>;
  /** The ids of the tenant's self-service profiles that name the profile, in id order, at most `limit`. */
  selfServiceProfilesUsing(tenantId: string, id: string, limit: number): Promise<string[]>;
}
