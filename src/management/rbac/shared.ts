/**
 * Business rules of role-based access control behind the Management API
 * routes under /roles/{id}/…, /users/{id}/… and /groups/{id}/members, one
 * service per URL family (role-access.ts, user-access.ts, group-members.ts);
 * this module holds what they share.
 *
 * - The role, user or group named in the path must exist: 404 in the
 *   service's words ("The role does not exist.", "The user does not exist." /
 *   inexistent_user, "Group not found." / inexistent_group).
 * - Assignments are all or nothing: an id in the body that names nothing
 *   refuses the whole request with the 404 of what it names, and nothing
 *   changes. Repeating an assignment is not an error.
 * - Entity limits (src/domain/entity-limits.ts): permissions per role and per
 *   user, roles per user (assigned from either side); a write that would pass
 *   one is refused whole (src/management/entity-limits.ts).
 * - Removals are idempotent: removing what is not assigned, including ids
 *   that name nothing, is not an error (the end state the caller asked for
 *   holds), as DELETE /groups/{id}/roles already does.
 * - A permission must name an API of the tenant by identifier and one of that
 *   API's scopes. Removing a scope from an API later leaves the permission
 *   assigned; token issuance intersects effective permissions with the API's
 *   current scopes. Deleting the API removes the permissions.
 *
 * Effective permissions are read per token by the token endpoint, not
 * cached, so these writes need no cache invalidation.
 */
import type { AssignResult as LinkResult, LimitedAssignResult } from '../../domain/assignments.js';
import type { Group, GroupRow } from '../../domain/groups/model.js';
import type { PermissionAssignResult, PermissionDetail, PermissionRef, RoleWithSources } from '../../domain/rbac/store.js';
import { roleFromRow, type Role, type RoleRow } from '../../domain/roles/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { RoleStore } from '../../domain/roles/store.js';
import type { UserStore } from '../../domain/users/store.js';
import { isoAt } from '../../platform/clock.js';
import type { KeysetWindow, OffsetWindow } from '../../domain/paging.js';
import { checkpointPage, checkpointPaging, offsetList, offsetPaging, offsetWindow, type CheckpointList, type CheckpointSealing, type OffsetList } from '../lists.js';
import { parsePaging, type Paging, type PagingInput } from '../paging.js';
import { roleNotFound } from '../roles/service.js';
import { userNotFound } from '../users/service.js';

/**
 * An identifier that is not an API of the tenant. The wording is the service's
 * as a client printed it (auth0/auth0-cli issue #348: `404 Not Found: The
 * resource server does not exist: ''`, for a POST /roles/{id}/permissions
 * naming an empty identifier); the errorCode is not recorded, Gatehouse uses
 * the one of the service's other "resource server does not exist" 404.
 */
const resourceServerNotFound = (identifier: string) =>
  managementErrors.notFound(`The resource server does not exist: '${identifier}'`, 'inexistent_resource_server');
/**
 * A permission name that is not one of the API's scopes. UNCONFIRMED: no
 * recording of the service's answer was found; this is a 400 worded after the
 * message above, with the code of the service's other payload refusals.
 */
const permissionNotFound = (identifier: string, name: string) =>
  managementErrors.invalidBody(`Permission '${name}' does not exist on resource server '${identifier}'`);

/** Checkpoints are sealed for one list of one owner, so that a `next` cannot be replayed against another. */
export const checkpointScopes = {
  roleUsers: (tenant: Tenant, roleId: string) => `${tenant.id}:roles:${roleId}:users`,
  roleGroups: (tenant: Tenant, roleId: string) => `${tenant.id}:roles:${roleId}:groups`,
  userGroups: (tenant: Tenant, userId: string) => `${tenant.id}:users:${userId}:groups`,
  effectiveRoles: (tenant: Tenant, userId: string) => `${tenant.id}:users:${userId}:effective-roles`,
  roleSourceGroups: (tenant: Tenant, userId: string, roleId: string) => `${tenant.id}:users:${userId}:effective-roles:${roleId}:groups`,
  effectivePermissions: (tenant: Tenant, userId: string, identifier: string) =>
    `${tenant.id}:users:${userId}:effective-permissions:${JSON.stringify(identifier)}`,
  permissionRoles: (tenant: Tenant, userId: string, permission: PermissionRef) =>
    `${tenant.id}:users:${userId}:effective-permissions:${JSON.stringify([permission.resource_server_identifier, permission.permission_name])}:roles`,
  groupMembers: (tenant: Tenant, groupId: string) => `${tenant.id}:groups:${groupId}:members`,
};

export interface ApiPermission {
  permission_name: string;
  description?: string;
  resource_server_name: string;
  resource_server_identifier: string;
}

export interface PermissionSource {
  source_id: string;
  source_name: string;
  source_type: 'DIRECT' | 'ROLE';
}

export type UserApiPermission = ApiPermission & { sources: PermissionSource[] };
export type EffectiveApiPermission = ApiPermission & { sources: ('direct' | 'roles')[] };
export type RoleWithSourcesApi = Role & { sources: ('direct' | 'groups')[] };

export interface RoleUser {
  user_id: string;
  email?: string;
  picture?: string;
  name?: string;
}

export interface GroupMember {
  id: string;
  member_type: 'user';
  type: 'connection' | 'organization' | 'tenant';
  connection_id?: string;
  created_at: string;
}

export type UserGroup = Group & { membership_created_at: string };

/** The paging parameters of lists that offer only offsets, and of those that offer only checkpoints. */
export type OffsetInput = Pick<PagingInput, 'page' | 'per_page' | 'include_totals'>;
export type CheckpointInput = Pick<PagingInput, 'from' | 'take'>;

/** The recorded shape: description only when the API's scope has one. */
export function apiPermission(p: PermissionDetail): ApiPermission {
  return {
    permission_name: p.permission_name,
    ...(p.description !== undefined && { description: p.description }),
    resource_server_name: p.resource_server_name,
    resource_server_identifier: p.resource_server_identifier,
  };
}

/** Unset members are left out rather than sent as null: the document types them as strings. */
export function roleUser(row: { user_id: string; email: string | null; picture: string | null; name: string | null }): RoleUser {
  return {
    user_id: row.user_id,
    ...(row.email !== null && { email: row.email }),
    ...(row.picture !== null && { picture: row.picture }),
    ...(row.name !== null && { name: row.name }),
  };
}

export function roleWithSources(r: RoleWithSources): RoleWithSourcesApi {
  const sources: ('direct' | 'groups')[] = [];
  if (r.direct) sources.push('direct');
  if (r.viaGroups) sources.push('groups');
  return { ...roleFromRow(r.role), sources };
}

/** A group's kind, as its members are described: from a connection, an organization, or the tenant. */
export function groupType(group: GroupRow): GroupMember['type'] {
  if (group.connection_id !== null) return 'connection';
  if (group.organization_id !== null) return 'organization';
  return 'tenant';
}

/** Turns an all-or-nothing assignment's refusal into the 404 of what was missing. */
export function linked(result: LinkResult, ownerNotFound: () => Error, itemNotFound: () => Error): void {
  if (result.status === 'owner_not_found') throw ownerNotFound();
  if (result.status === 'item_not_found') throw itemNotFound();
}

/** As `linked`, for an assignment under an entity limit: its refusal names the row that would pass it. */
export function linkedWithin(result: LimitedAssignResult, ownerNotFound: () => Error, itemNotFound: () => Error, overLimit: (id: string) => Error): void {
  if (result.status === 'limit_exceeded') throw overLimit(result.id);
  linked(result, ownerNotFound, itemNotFound);
}

export function permissionsAdded(result: PermissionAssignResult, ownerNotFound: () => Error, overLimit: () => Error): void {
  if (result.status === 'owner_not_found') throw ownerNotFound();
  if (result.status === 'limit_exceeded') throw overLimit();
  if (result.status === 'resource_server_not_found') throw resourceServerNotFound(result.identifier);
  if (result.status === 'permission_not_found') throw permissionNotFound(result.identifier, result.permissionName);
}

/** The time of a write, as stored. */
export function nowIso(ctx: { readonly now: () => number }): string {
  return isoAt(ctx.now());
}

/** Offset or checkpoint paging, checkpoints opened for `scope` (an invalid `from` is a 400). */
export function pagingOf(ctx: CheckpointSealing, query: PagingInput, scope: string): Paging {
  return parsePaging(query, ctx.box, scope, ctx.now());
}

export async function requireRole(roles: Pick<RoleStore, 'get'>, tenant: Tenant, roleId: string): Promise<RoleRow> {
  const role = await roles.get(tenant.id, roleId);
  if (!role) throw roleNotFound();
  return role;
}

export async function requireUser(users: Pick<UserStore, 'get'>, tenant: Tenant, userId: string): Promise<void> {
  if (!(await users.get(tenant.id, userId))) throw userNotFound();
}

/**
 * An offset-paged list of what the path's role or user holds: its 404 first
 * (`requireOwner`), then the store's page shaped by `toApi`.
 */
export async function ownedOffsetList<K extends string, R, T>(
  query: OffsetInput,
  requireOwner: () => Promise<unknown>,
  key: K,
  fetch: (window: OffsetWindow) => Promise<{ rows: R[]; total?: number }>,
  toApi: (row: R) => T,
): Promise<OffsetList<K, T>> {
  const page = offsetPaging(query);
  await requireOwner();
  const { rows, total } = await fetch(offsetWindow(page));
  return offsetList(key, rows.map(toApi), page, total);
}

/**
 * A checkpoint-paged list of what the path's role or user holds: the paging
 * read first (a `from` that does not open is 400), then the owner's 404
 * (`requireOwner`), then the page (../lists.ts checkpointPage).
 */
export async function ownedCheckpointList<K extends string, R, T>(
  ctx: CheckpointSealing,
  query: CheckpointInput,
  scope: string,
  requireOwner: () => Promise<unknown>,
  key: K,
  fetch: (window: KeysetWindow) => Promise<R[]>,
  keyOf: (row: R) => string,
  toApi: (row: R) => T,
): Promise<CheckpointList<K, T>> {
  const page = checkpointPaging(ctx, query, scope);
  await requireOwner();
  return checkpointPage(ctx, scope, key, page, fetch, keyOf, toApi);
}
