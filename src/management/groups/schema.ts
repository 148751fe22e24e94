/**
 * Group schemas, from the service's OpenAPI document (`Group`,
 * `GetGroupResponseContent`, the path parameter of /groups/{id}) and, for
 * Gatehouse's POST /groups, the same field rules. Descriptions appear in
 * validation messages, so they carry no trailing period (the service's messages
 * end with `(<description>).`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

/**
 * Every group operation's path `id`: length 18 to 26 (spec, Limits: "group
 * id"); no pattern in the document, but control characters are refused
 * (src/management/strings.ts).
 */
export const GroupIdParams = Type.Object({
  id: Type.String({ minLength: 18, maxLength: 26, pattern: NO_CONTROL_CHARACTERS, description: 'Unique identifier for the group (service-generated)' }),
});

const name = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[\\x20-\\x7E]+$',
  description: 'Name of the group. Must be unique within its connection. Must contain between 1 and 128 printable ASCII characters',
});
const externalId = Type.String({
  maxLength: 256,
  description: 'External identifier for the group, often used for SCIM synchronization. Max length of 256 characters',
});
/** The document gives no limit; Gatehouse takes the external id's. */
const description = Type.String({ maxLength: 256, description: 'Description of the group. Max length of 256 characters' });

/**
 * POST /groups (a Gatehouse extension: the service creates groups only from
 * directory connections and organizations). Connection and organization groups
 * are not created through it.
 */
export const CreateGroupBody = Type.Object(
  { name, description: Type.Optional(description), external_id: Type.Optional(externalId) },
  { additionalProperties: false },
);
export type CreateGroupBody = Static<typeof CreateGroupBody>;

const groupProperties = {
  id: Type.String({ description: 'Unique identifier for the group (service-generated)' }),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  external_id: Type.Optional(Type.String()),
  connection_id: Type.Optional(Type.String()),
  organization_id: Type.Optional(Type.String()),
  tenant_name: Type.String({ description: 'Identifier for the tenant this group belongs to' }),
  created_at: Type.String({ description: 'Timestamp of when the group was created' }),
  updated_at: Type.String({ description: 'Timestamp of when the group was last updated' }),
};

/**
 * One group. Every member is declared optional although `id, name, tenant_name,
 * created_at, updated_at` are always present (GetGroupResponseContent requires
 * them, and `groupFromRow` always sets them): the serialiser writes required
 * members first, and this keeps the members in the order declared above. The
 * same schema serves list items, which `fields` / `include_fields` may trim.
 */
export const GroupResponse = Type.Partial(Type.Object(groupProperties, { additionalProperties: false }));

/** An item of GET /users/{id}/groups (`UserGroupsResponseSchema`): a group and when the user became a member of it. */
export const UserGroupResponse = Type.Partial(
  Type.Object(
    { ...groupProperties, membership_created_at: Type.String({ description: 'Timestamp of when the group membership was added' }) },
    { additionalProperties: false },
  ),
);
