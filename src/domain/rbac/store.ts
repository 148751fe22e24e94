/**
 * Storage of role-based access control: role and user permissions, user roles, group members.
 * Implemented by src/storage/kysely/rbac.ts; the composition root builds one.
 */
import type { AssignResult as LinkResult, LimitedAssignResult } from '../assignments.js';
import type { GroupRow } from '../groups/model.js';
import type { RoleRow } from '../roles/model.js';
import type { KeysetWindow, OffsetWindow, Page, PageQuery } from '../paging.js';

/** A permission as assignments name it. */
export interface PermissionRef {
  resource_server_identifier: string;
  permission_name: string;
}

/** A permission as lists show it: with its API's name and its scope's description. */
export interface PermissionDetail extends PermissionRef {
  resource_server_name: string;
  /** The API scope's description; undefined when the scope has none, or is no longer one of the API's. */
  description: string | undefined;
}

/** A user's permission for GET /users/{id}/permissions: direct, from the user's own roles, or both. */
export interface UserPermission extends PermissionDetail {
  direct: boolean;
  /** The roles assigned to the user directly that carry the permission, by role id. */
  roles: { id: string; name: string }[];
}

/** A role holder's view of a user (GET /roles/{id}/users). */
export interface RoleUserRow {
  user_id: string;
  email: string | null;
  picture: string | null;
  name: string | null;
}

/** A group with the time the user became a member of it. */
export type UserGroupRow = GroupRow & { membership_created_at: string };

/** A group membership. */
export interface GroupMemberRow {
  user_id: string;
  created_at: string;
}

/** A role a user holds, and how: assigned directly, through a group, or both. */
export interface RoleWithSources {
  role: RoleRow;
  direct: boolean;
  viaGroups: boolean;
}

/** A permission a user holds for one API, and how: assigned directly, through roles (the user's own or its groups'), or both. */
export interface EffectivePermission {
  permission_name: string;
  direct: boolean;
  viaRoles: boolean;
}

/** Offset pages (`withTotal` also counts every row), or keyset pages: keys greater than `after`, ascending. */
/** What adding permissions did. */
export type PermissionAssignResult =
  | { status: 'assigned' }
  | { status: 'owner_not_found' }
  | { status: 'resource_server_not_found'; identifier: string }
  | { status: 'permission_not_found'; identifier: string; permissionName: string }
  /** The owner would hold more than the limit's permissions. */
  | { status: 'limit_exceeded' };

/*
 * Storage of role-based access control, one interface per sub-resource of the
 * Management API (/roles/{id}/permissions, /roles/{id}/users and groups,
 * /users/{id}/roles, /users/{id}/permissions, group members) and the one read
 * of token issuance, so that a consumer names what it touches. Every method is
 * scoped to one tenant; ids of another tenant's rows are unknown ids. Lists of
 * an unknown role, user or group are empty (callers check the owner first, for
 * their 404).
 */

/** What token issuance reads. */
export interface EffectivePermissionStore {
  /**
   * The distinct names of the permissions the user holds for the API whose
   * identifier is given (direct ∪ the user's roles' ∪ the user's groups'
   * roles'), ascending byte-wise. One statement, every step by index
   * (primary keys and group_members_user_idx); empty for an unknown user or API.
   * Token issuance calls it for each user token of an API with RBAC. With
   * `organizationId` (a login to that organization), also the permissions of
   * the roles the user holds in it: as its member, and through their groups'
   * roles in that organization; never those of another organization.
   */
  effectivePermissions(tenantId: string, userId: string, resourceServerIdentifier: string, organizationId?: string): Promise<string[]>;
}

/** /roles/{id}/permissions */
export interface RolePermissionStore {
  /** A role's permissions, by API identifier then permission name. */
  listRolePermissions(tenantId: string, roleId: string, page: OffsetWindow): Promise<Page<PermissionDetail>>;
  /**
   * Adds every listed permission to the role, or none (one transaction).
   * Nothing is written, and the first failure in list order is reported, when
   * the role does not exist, or a permission names an API identifier that is
   * not an API of the tenant, or a permission name that is not one of that
   * API's scopes, or the role would then hold more than its entity limit
   * (src/domain/entity-limits.ts `permissionsPerRole`; a user's: `permissionsPerUser`)
   * (checked with the role locked, so concurrent additions cannot pass it
   * together). Permissions the role already has stay as they are and count
   * once; duplicates count once.
   */
  addRolePermissions(tenantId: string, roleId: string, permissions: readonly PermissionRef[], createdAt: string): Promise<PermissionAssignResult>;
  /**
   * Removes every listed permission from the role, in one transaction; false
   * (and nothing removed) when the role does not exist. Permissions the role
   * does not have, whatever they name, are skipped.
   */
  removeRolePermissions(tenantId: string, roleId: string, permissions: readonly PermissionRef[]): Promise<boolean>;
}

/** /roles/{id}/users and /roles/{id}/groups: whom a role is assigned to. */
export interface RoleMemberStore {
  /** The users a role is assigned to directly, by user_id. */
  listRoleUsers(tenantId: string, roleId: string, page: PageQuery): Promise<Page<RoleUserRow>>;
  /**
   * Assigns the role to every listed user, or to none: as `assignLinks`
   * (owner: the role; items: users), refused (`limit_exceeded` naming the
   * first such user) when a user would then hold more than `ENTITY_LIMITS.rolesPerUser`
   * roles directly.
   */
  assignRoleUsers(tenantId: string, roleId: string, userIds: readonly string[], createdAt: string): Promise<LimitedAssignResult>;

  /** The groups a role is assigned to, by group id. */
  listRoleGroups(tenantId: string, roleId: string, page: KeysetWindow): Promise<GroupRow[]>;
  /** Assigns the role to every listed group, or to none: as `assignLinks` (owner: the role; items: groups). */
  assignRoleGroups(tenantId: string, roleId: string, groupIds: readonly string[], createdAt: string): Promise<LinkResult>;
  /** Unassigns the role from the listed groups: as `removeLinks` (false when the role does not exist). */
  removeRoleGroups(tenantId: string, roleId: string, groupIds: readonly string[]): Promise<boolean>;
}

/** /users/{id}/roles and the roles a user holds through groups. */
export interface UserRoleStore {
  /** The roles assigned to a user directly, by role id. */
  listUserRoles(tenantId: string, userId: string, page: OffsetWindow): Promise<Page<RoleRow>>;
  /**
   * Assigns every listed role to the user, or none: as `assignLinks` (owner:
   * the user; items: roles), refused (`limit_exceeded`) when the user would
   * then hold more than `ENTITY_LIMITS.rolesPerUser` roles directly.
   */
  assignUserRoles(tenantId: string, userId: string, roleIds: readonly string[], createdAt: string): Promise<LimitedAssignResult>;
  /** Unassigns the listed roles from the user: as `removeLinks` (false when the user does not exist). */
  removeUserRoles(tenantId: string, userId: string, roleIds: readonly string[]): Promise<boolean>;
  /** Every role the user holds, directly or through groups, a keyset page by role id. */
  listEffectiveRoles(tenantId: string, userId: string, page: KeysetWindow): Promise<RoleWithSources[]>;
  /** The groups of the user that have the role, a keyset page by group id. */
  listRoleSourceGroups(tenantId: string, userId: string, roleId: string, page: KeysetWindow): Promise<GroupRow[]>;
}

/** /users/{id}/permissions and the permissions a user holds through roles and groups. */
export interface UserPermissionStore {
  /**
   * The permissions assigned to the user directly or through the roles
   * assigned to the user directly (not through groups: that is what
   * `listEffectivePermissions` adds), each once with its sources, by API
   * identifier then permission name.
   */
  listUserPermissions(tenantId: string, userId: string, page: OffsetWindow): Promise<Page<UserPermission>>;
  /** As `addRolePermissions`, for a user's direct permissions. */
  addUserPermissions(tenantId: string, userId: string, permissions: readonly PermissionRef[], createdAt: string): Promise<PermissionAssignResult>;
  /** As `removeRolePermissions`, for a user's direct permissions. */
  removeUserPermissions(tenantId: string, userId: string, permissions: readonly PermissionRef[]): Promise<boolean>;

  /** `effectivePermissions` with each permission's sources, a keyset page by permission name. */
  listEffectivePermissions(tenantId: string, userId: string, resourceServerIdentifier: string, page: KeysetWindow): Promise<EffectivePermission[]>;
  /**
   * The roles through which the user holds the permission (assigned to the
   * user directly, through groups, or both), a keyset page by role id.
   */
  listEffectivePermissionRoles(
    tenantId: string,
    userId: string,
    permission: PermissionRef,
    page: KeysetWindow,
  ): Promise<RoleWithSources[]>;
}

/** /groups/{id}/members, and the same memberships from the user's side (/users/{id}/groups). */
export interface GroupMemberStore {
  /** The groups the user is a member of, by group id. */
  listUserGroups(tenantId: string, userId: string, page: PageQuery): Promise<Page<UserGroupRow>>;
  /** A group's members, a keyset page by user_id. */
  listGroupMembers(tenantId: string, groupId: string, page: KeysetWindow): Promise<GroupMemberRow[]>;
  /** Adds every listed user to the group, or none: as `assignLinks` (owner: the group; items: users). */
  addGroupMembers(tenantId: string, groupId: string, userIds: readonly string[], createdAt: string): Promise<LinkResult>;
  /** Removes the listed users from the group: as `removeLinks` (false when the group does not exist). */
  removeGroupMembers(tenantId: string, groupId: string, userIds: readonly string[]): Promise<boolean>;
}

/** Every RBAC store in one, as src/storage/kysely/rbac.ts implements it. */
export interface RbacStore
  extends EffectivePermissionStore, RolePermissionStore, RoleMemberStore, UserRoleStore, UserPermissionStore, GroupMemberStore {}
