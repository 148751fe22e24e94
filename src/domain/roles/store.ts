/**
 * Storage of roles.
 * Implemented by src/storage/kysely/roles.ts; the composition root builds one.
 */
import type { RoleRow } from './model.js';
import type { OffsetWindow, Page } from '../paging.js';

export interface RolePageQuery extends OffsetWindow {
  /** Case-insensitive substring of the name (ASCII case folding). */
  nameFilter?: string;
}

/** Storage of roles. */
export interface RoleStore {
  get(tenantId: string, id: string): Promise<RoleRow | undefined>;
  /**
   * A page ordered by id (byte-wise on both databases, as groups and client grants are:
   * stable, unlike creation times, which tie within a millisecond); `withTotal` also counts every match.
   */
  list(tenantId: string, query: RolePageQuery): Promise<Page<RoleRow>>;
  /**
   * Stores the role; false, and nothing written, when the tenant already has
   * `ENTITY_LIMITS.rolesPerTenant` roles (counted with the tenant locked, so
   * concurrent creations cannot pass it together). Fails with a unique
   * violation when the tenant has a role of that name.
   */
  insert(row: RoleRow): Promise<boolean>;
  /** Applies the changed columns; false when the role does not exist. Fails with a unique violation on a taken name. */
  update(tenantId: string, id: string, changes: Partial<Pick<RoleRow, 'name' | 'description'>>): Promise<boolean>;
  /**
   * Deletes the role with its permissions and its assignments to users and groups,
   * atomically; false when the role does not exist.
   */
  delete(tenantId: string, id: string): Promise<boolean>;
}
