/**
 * Storage of groups and the roles assigned to them.
 * Implemented by src/storage/kysely/groups.ts; the composition root builds one.
 */
import type { RoleRow } from '../roles/model.js';
import type { RoleWithSources } from '../rbac/store.js';
import type { GroupRow } from './model.js';
import type { KeysetWindow, Page, PageQuery } from '../paging.js';

export interface GroupFilter {
  connection_id?: string;
  /** Exact name. */
  name?: string;
  /** Exact external id. */
  external_id?: string;
  /** Case-insensitive substring of the name or of the external id. */
  search?: string;
}

/** What `assignRoles` did. */
export type AssignRolesResult = { status: 'assigned' } | { status: 'group_not_found' } | { status: 'role_not_found'; roleId: string };

/** Storage of groups and of the roles assigned to them. */
export interface GroupStore {
  get(tenantId: string, id: string): Promise<GroupRow | undefined>;
  /** A page of groups matching the filter, ordered by id (byte-wise on both databases). */
  list(tenantId: string, filter: GroupFilter, page: PageQuery): Promise<Page<GroupRow>>;
  /**
   * Fails with a unique violation when the id is taken, or when the name is taken
   * within the group's connection, organization, or (for tenant groups) tenant.
   */
  insert(row: GroupRow): Promise<void>;
  /**
   * Changes the name, external id and `updated_at`; false when the group does
   * not exist. Fails with a unique violation when the name is taken, as `insert`.
   */
  update(tenantId: string, id: string, changes: Pick<GroupRow, 'name' | 'external_id' | 'updated_at'>): Promise<boolean>;
  /** Deletes the group with its members and its role assignments, atomically; false when the group does not exist. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** The roles assigned to a group, by role id ascending, after `after` (exclusive). Empty for an unknown group. */
  listRoles(tenantId: string, groupId: string, page: KeysetWindow): Promise<RoleRow[]>;
  /**
   * Assigns every listed role to the group, or none (one transaction): nothing
   * is written when the group does not exist or any listed role does not exist
   * in the tenant (the first missing one is reported). Roles already assigned
   * stay as they are; duplicates in the list count once.
   */
  assignRoles(tenantId: string, groupId: string, roleIds: readonly string[], createdAt: string): Promise<AssignRolesResult>;
  /**
   * Removes every listed role from the group, in one transaction; false (and
   * nothing removed) when the group does not exist. Ids that are not assigned,
   * including ids of roles that do not exist, are skipped.
   */
  removeRoles(tenantId: string, groupId: string, roleIds: readonly string[]): Promise<boolean>;

  // --- groups in an organization (/organizations/{id}/groups, migration 0220) ---

  /**
   * The organization's groups, by id after `window.after`: groups created in
   * it (`organization_id`) and the groups of the connections enabled for it
   * (a customer's directory groups, provisioned through SCIM).
   */
  listOrganizationGroups(tenantId: string, organizationId: string, window: KeysetWindow): Promise<GroupRow[]>;
  /** The group if it is one of the organization's (as `listOrganizationGroups` counts them). */
  getOrganizationGroup(tenantId: string, organizationId: string, groupId: string): Promise<GroupRow | undefined>;
  /** The roles the group holds in the organization, by role id after `window.after`. */
  listOrganizationGroupRoles(tenantId: string, organizationId: string, groupId: string, window: KeysetWindow): Promise<RoleRow[]>;
  /** Assigns every listed role to the group in the organization, or none (a missing role is reported); existing ones stay. */
  assignOrganizationGroupRoles(tenantId: string, organizationId: string, groupId: string, roleIds: readonly string[], createdAt: string): Promise<AssignRolesResult>;
  /** Removes the listed roles from the group in the organization; ids not assigned are skipped. */
  removeOrganizationGroupRoles(tenantId: string, organizationId: string, groupId: string, roleIds: readonly string[]): Promise<void>;
  /**
   * The roles the user holds in the organization (`/organizations/{id}/members/{user_id}/effective-roles`):
   * as its member (`direct`) and through their groups' roles there (`viaGroups`), by role id after `window.after`.
   */
  listOrganizationMemberEffectiveRoles(tenantId: string, organizationId: string, userId: string, window: KeysetWindow): Promise<RoleWithSources[]>;
  /** The user's groups that hold the role in the organization, by group id after `window.after`. */
  listOrganizationMemberRoleSourceGroups(tenantId: string, organizationId: string, userId: string, roleId: string, window: KeysetWindow): Promise<GroupRow[]>;
}
