/**
 * Schemas of the role-based access control operations (roles' permissions,
 * users and groups; users' roles, permissions, effective permissions and
 * roles, and groups; groups' members), from the service's OpenAPI document.
 * Descriptions appear in validation messages, so they carry no trailing period.
 *
 * Bounds the document does not give, so that no request is unbounded:
 * - a list of permissions holds at most what a role or a user may hold
 *   (1000), and a user's roles at most what a user may hold (50): the
 *   service's entity limits (src/domain/entity-limits.ts), so that one call
 *   may carry a whole role (auth0-deploy-cli sends a role's permissions in
 *   one); other lists of ids at most 100 items (`MAX_ITEMS`, Gatehouse's; the
 *   document sets no maxItems on them);
 * - an API identifier at most 600 characters and a permission name at most
 *   280, the limits of an API's identifier and of a scope's value (longer ones
 *   cannot name anything);
 * - a role id at most 64 characters and a user id at most 512 (the document
 *   types them as non-empty strings, or by its own `user-id-with-max-length`
 *   format whose maximum it does not state); ids that fit but name nothing
 *   are answered 404, as ids of deleted rows are;
 * - none of these strings may hold control characters (src/management/strings.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../strings.js';
import { ENTITY_LIMITS } from '../../domain/entity-limits.js';

export const MAX_ITEMS = 100;

const PermissionRequest = Type.Object(
  {
    resource_server_identifier: Type.String({
      maxLength: 600,
      pattern: NO_CONTROL_CHARACTERS,
      description: 'Resource server (API) identifier that this permission is for',
    }),
    permission_name: Type.String({ maxLength: 280, pattern: NO_CONTROL_CHARACTERS, description: 'Name of this permission' }),
  },
  { additionalProperties: false },
);

function permissionsBody(description: string, maxItems: number) {
  return Type.Object(
    { permissions: Type.Array(PermissionRequest, { minItems: 1, maxItems, description }) },
    { additionalProperties: false },
  );
}

/** POST and DELETE /roles/{id}/permissions (`AddRolePermissionsRequestContent`, `DeleteRolePermissionsRequestContent`). */
export const RolePermissionsBody = permissionsBody('array of resource_server_identifier, permission_name pairs', ENTITY_LIMITS.permissionsPerRole);
/** POST /users/{id}/permissions (`CreateUserPermissionsRequestContent`). */
export const CreateUserPermissionsBody = permissionsBody('List of permissions to add to this user', ENTITY_LIMITS.permissionsPerUser);
/** DELETE /users/{id}/permissions (`DeleteUserPermissionsRequestContent`). */
export const DeleteUserPermissionsBody = permissionsBody('List of permissions to remove from this user', ENTITY_LIMITS.permissionsPerUser);

export const RoleIdItem = Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS });

function userRolesBody(description: string) {
  return Type.Object({ roles: Type.Array(RoleIdItem, { minItems: 1, maxItems: ENTITY_LIMITS.rolesPerUser, description }) }, { additionalProperties: false });
}

/** POST /users/{id}/roles (`AssignUserRolesRequestContent`). */
export const AssignUserRolesBody = userRolesBody('List of roles IDs to associated with the user');
/** DELETE /users/{id}/roles (`DeleteUserRolesRequestContent`). */
export const DeleteUserRolesBody = userRolesBody('List of roles IDs to remove from the user');

export const UserIdItem = Type.String({ minLength: 1, maxLength: 512, pattern: NO_CONTROL_CHARACTERS });

/** POST /roles/{id}/users (`AssignRoleUsersRequestContent`): the document sets no minItems, so `[]` is a valid no-op. */
export const AssignRoleUsersBody = Type.Object(
  { users: Type.Array(UserIdItem, { maxItems: MAX_ITEMS, description: "user_id's of the users to assign the role to" }) },
  { additionalProperties: false },
);
export type AssignRoleUsersBody = Static<typeof AssignRoleUsersBody>;

const GroupIdItem = Type.String({
  minLength: 18,
  maxLength: 26,
  pattern: '^grp_[1-9a-km-zA-HJ-NP-Z]{14,22}$',
  description: 'Unique identifier for the group (service-generated)',
});

function roleGroupsBody(description: string) {
  return Type.Object({ groups: Type.Array(GroupIdItem, { minItems: 1, maxItems: MAX_ITEMS, description }) }, { additionalProperties: false });
}

/** POST /roles/{id}/groups (`AssignRoleGroupsRequestContent`). */
export const AssignRoleGroupsBody = roleGroupsBody('Array of group IDs to assign to the role');
/** DELETE /roles/{id}/groups (`DeleteRoleGroupsRequestContent`). */
export const DeleteRoleGroupsBody = roleGroupsBody('Array of group IDs to remove from the role');

function groupMembersBody(description: string) {
  return Type.Object({ members: Type.Array(UserIdItem, { minItems: 1, maxItems: MAX_ITEMS, description }) }, { additionalProperties: false });
}

/** Gatehouse's POST /groups/{id}/members: user ids. */
export const AddGroupMembersBody = groupMembersBody('Array of user IDs to add to the group');
/** Gatehouse's DELETE /groups/{id}/members: user ids. */
export const RemoveGroupMembersBody = groupMembersBody('Array of user IDs to remove from the group');

// --- responses ---

/**
 * Members in the order the service sends them (`{"permission_name", "description",
 * "resource_server_name", "resource_server_identifier"}`, recorded by go-auth0
 * TestRoleManager_Permissions); all optional, so the serialiser keeps that order.
 */
const permissionProperties = {
  permission_name: Type.Optional(Type.String({ description: 'Name of this permission' })),
  description: Type.Optional(Type.String({ description: 'Description of this permission' })),
  resource_server_name: Type.Optional(Type.String({ description: 'Resource server (API) name this permission is for' })),
  resource_server_identifier: Type.Optional(Type.String({ description: 'Resource server (API) identifier that this permission is for' })),
};

/** An item of GET /roles/{id}/permissions (`PermissionsResponsePayload`). */
export const PermissionResponse = Type.Object(permissionProperties, { additionalProperties: false });

/** An item of GET /users/{id}/permissions (`UserPermissionSchema`): with where the user's permission comes from. */
export const UserPermissionResponse = Type.Object(
  {
    ...permissionProperties,
    sources: Type.Optional(
      Type.Array(
        Type.Object(
          { source_id: Type.String(), source_name: Type.String(), source_type: Type.Union([Type.Literal('DIRECT'), Type.Literal('ROLE')]) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/** An item of GET /users/{id}/effective-permissions (`UserEffectivePermissionResponseContent`). */
export const EffectivePermissionResponse = Type.Object(
  {
    ...permissionProperties,
    sources: Type.Optional(
      Type.Array(Type.Union([Type.Literal('direct'), Type.Literal('roles')]), { description: 'List of sources where this permission is coming from' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A role and how the user holds it: an item of GET /users/{id}/effective-roles
 * (`UserEffectiveRole`) and of …/effective-permissions/sources/effective-roles.
 * The description is null for a role created without one, as everywhere else.
 */
export const RoleWithSourcesResponse = Type.Object(
  {
    id: Type.String({ description: 'Role ID' }),
    name: Type.String({ description: 'Role name' }),
    description: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Role description' }),
    sources: Type.Array(Type.Union([Type.Literal('direct'), Type.Literal('groups')]), {
      description: 'Sources of the role assignment (direct or through group membership)',
    }),
  },
  { additionalProperties: false },
);

/** An item of GET /roles/{id}/users (`RoleUser`), in the recorded order user_id, email, picture, name. */
export const RoleUserResponse = Type.Object(
  {
    user_id: Type.Optional(Type.String({ description: 'ID of this user' })),
    email: Type.Optional(Type.String({ description: 'Email address of this user' })),
    picture: Type.Optional(Type.String({ description: 'URL to a picture for this user' })),
    name: Type.Optional(Type.String({ description: 'Name of this user' })),
  },
  { additionalProperties: false },
);

/** An item of GET /groups/{id}/members (`GroupMember`); every member optional, as `fields` may trim them. */
export const GroupMemberResponse = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Unique identifier for the member' })),
    member_type: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('group')])),
    type: Type.Optional(Type.Union([Type.Literal('connection'), Type.Literal('organization'), Type.Literal('tenant')])),
    connection_id: Type.Optional(Type.String({ description: 'Identifier for the connection this group belongs to (if a connection group)' })),
    created_at: Type.Optional(Type.String({ description: 'Timestamp of when the membership was created' })),
  },
  { additionalProperties: false },
);
