/**
 * Storage of organization members, the roles they hold in an organization,
 * and a user's organizations.
 * Implemented by src/storage/kysely/organization-members.ts; the composition root builds one.
 */
import type { AssignResult } from '../assignments.js';
import type { OffsetWindow, Page, PageQuery } from '../paging.js';
import type { RoleRow } from '../roles/rows.js';
import type { OrganizationRow } from './rows.js';

/** A member as GET /organizations/{id}/members shows them: the user's profile fields. */
export interface OrganizationMemberProfile {
  user_id: string;
  email: string | null;
  picture: string | null;
  name: string | null;
}

/**
 * Every method is scoped to one tenant; another tenant's ids are unknown ids.
 * Members are listed by user_id (byte-wise on both databases).
 */
export interface OrganizationMemberStore {
  /**
   * Makes every listed user a member, or none (one transaction):
   * `owner_not_found` for an unknown organization, `item_not_found` with the
   * first unknown user. Existing memberships stay as they are.
   */
  addMembers(tenantId: string, organizationId: string, userIds: readonly string[], createdAt: string): Promise<AssignResult>;
  /** Ends the listed memberships (their roles go with them); false when the organization does not exist. */
  removeMembers(tenantId: string, organizationId: string, userIds: readonly string[]): Promise<boolean>;
  /** A page of the organization's members. */
  listMembers(tenantId: string, organizationId: string, page: PageQuery): Promise<Page<OrganizationMemberProfile>>;
  /** The roles each listed member holds in the organization, by user id, each list by role id. */
  rolesOfMembers(tenantId: string, organizationId: string, userIds: readonly string[]): Promise<Map<string, RoleRow[]>>;
  isMember(tenantId: string, organizationId: string, userId: string): Promise<boolean>;
  /**
   * Gives a member roles in the organization, all or none: `owner_not_found`
   * when the user is not a member, `item_not_found` with the first unknown role.
   */
  assignMemberRoles(tenantId: string, organizationId: string, userId: string, roleIds: readonly string[], createdAt: string): Promise<AssignResult>;
  /** Takes roles from a member; false when the user is not a member. */
  removeMemberRoles(tenantId: string, organizationId: string, userId: string, roleIds: readonly string[]): Promise<boolean>;
  /** A page of the roles a member holds in the organization, by role id. */
  listMemberRoles(tenantId: string, organizationId: string, userId: string, page: OffsetWindow): Promise<Page<RoleRow>>;
  /** A page of the organizations the user is a member of, by organization id. */
  listUserOrganizations(tenantId: string, userId: string, page: OffsetWindow): Promise<Page<OrganizationRow>>;
}
