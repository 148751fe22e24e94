import { UserAccessService, type UserAccessContext } from '../rbac/user-access.js';
import type { ManagementRoute } from '../route.js';
import { listUsersByEmail } from '../users-by-email/list.js';
import { createUser } from './create.js';
import { deleteUser } from './delete.js';
import { deleteConnectionUserByEmail } from './delete-by-email.js';
import { listEffectivePermissions } from './effective-permissions/list.js';
import { listEffectivePermissionRoles } from './effective-permissions/sources/effective-roles.js';
import { listEffectiveRoles } from './effective-roles/list.js';
import { listRoleSourceGroups } from './effective-roles/sources/groups.js';
import { getUser } from './get.js';
import { listUserGroups } from './groups/list.js';
import { listUsers } from './list.js';
import { addUserPermissions } from './permissions/create.js';
import { deleteUserPermissions } from './permissions/delete.js';
import { listUserPermissions } from './permissions/list.js';
import { assignUserRoles } from './roles/create.js';
import { deleteUserRoles } from './roles/delete.js';
import { listUserRoles } from './roles/list.js';
import { UserService, type UserServiceContext } from './service.js';
import { updateUser } from './update.js';
import { listUserOrganizations } from './organizations/list.js';
import { OrganizationMemberService, type OrganizationMemberServiceContext } from '../organizations/members/service.js';
import { linkUserIdentity } from './identities/link.js';
import { UserIdentityService, type UserIdentityServiceContext } from './identities/service.js';
import { unlinkUserIdentity } from './identities/unlink.js';
import { federatedTokenSetRoutes, type FederatedTokenSetContext } from './federated-tokensets/routes.js';
import { listConnectedAccounts, type ConnectedAccountContext } from './connected-accounts/list.js';

/** /api/v2/users, /api/v2/users-by-email, and a user's identities, roles, permissions and groups. */
export function userRoutes(ctx: UserServiceContext & UserAccessContext & UserIdentityServiceContext & OrganizationMemberServiceContext & FederatedTokenSetContext & ConnectedAccountContext): ManagementRoute[] {
  const users = new UserService(ctx);
  const rbac = new UserAccessService(ctx);
  const identities = new UserIdentityService(ctx);
  return [
    ...[listUsers, createUser, updateUser, deleteUser, listUsersByEmail, deleteConnectionUserByEmail].map((route) => route(ctx, users)),
    getUser(ctx, users),
    ...[
      listUserRoles,
      assignUserRoles,
      deleteUserRoles,
      listUserPermissions,
      addUserPermissions,
      deleteUserPermissions,
      listEffectivePermissions,
      listEffectivePermissionRoles,
      listEffectiveRoles,
      listRoleSourceGroups,
      listUserGroups,
    ].map((route) => route(ctx, rbac)),
    listUserOrganizations(ctx, new OrganizationMemberService(ctx)),
    ...[linkUserIdentity, unlinkUserIdentity].map((route) => route(ctx, identities)),
    ...federatedTokenSetRoutes(ctx),
    listConnectedAccounts(ctx),
  ];
}
