/**
 * Schemas of an organization's members and their roles, from the service's
 * OpenAPI document (`CreateOrganizationMemberRequestContent`,
 * `DeleteOrganizationMembersRequestContent`, `OrganizationMember`,
 * `AssignOrganizationMemberRolesRequestContent`,
 * `DeleteOrganizationMemberRolesRequestContent`). Lists of ids hold 1 to 100
 * items (rbac/schema.ts `MAX_ITEMS`, Gatehouse's bound).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_ITEMS, RoleIdItem, UserIdItem } from '../../rbac/schema.js';
import { NO_CONTROL_CHARACTERS } from '../../strings.js';

export const MembersBody = (description: string) =>
  Type.Object({ members: Type.Array(UserIdItem, { minItems: 1, maxItems: MAX_ITEMS, description }) }, { additionalProperties: false });
export type MembersBody = Static<ReturnType<typeof MembersBody>>;

export const MemberRolesBody = (description: string) =>
  Type.Object({ roles: Type.Array(RoleIdItem, { minItems: 1, maxItems: MAX_ITEMS, description }) }, { additionalProperties: false });

/** Members in the order the document lists them. */
export const OrganizationMemberResponse = Type.Object(
  {
    user_id: Type.Optional(Type.String()),
    picture: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    roles: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);

const organizationId = Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' });

export const MemberParams = Type.Object({
  id: organizationId,
  user_id: Type.String({ minLength: 1, maxLength: 512, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the user' }),
});
