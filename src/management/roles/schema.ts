/**
 * Role schemas, from the service's OpenAPI document (`Role`,
 * `CreateRoleRequestContent`, `UpdateRoleRequestContent`). Descriptions appear
 * in validation messages, so they carry no trailing period (the service's
 * messages end with `(<description>).`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

/**
 * The document sets no length on `name`; an empty name is refused here because a
 * role is known by its name in every other place (dashboards, `name_filter`).
 */
const name = Type.String({ minLength: 1, description: 'Name of the role' });
const description = Type.String({ description: 'Description of the role' });

export const CreateRoleBody = Type.Object({ name, description: Type.Optional(description) }, { additionalProperties: false });
export type CreateRoleBody = Static<typeof CreateRoleBody>;

export const UpdateRoleBody = Type.Object(
  { name: Type.Optional(name), description: Type.Optional(description) },
  { additionalProperties: false },
);
export type UpdateRoleBody = Static<typeof UpdateRoleBody>;

export const RoleResponse = Type.Object(
  {
    id: Type.String({ description: 'ID for this role' }),
    name: Type.String({ description: 'Name of this role' }),
    description: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Description of this role' }),
  },
  { additionalProperties: false },
);

/**
 * The document types the path id of /roles/{id} as a bare string, with a
 * description per operation; control characters are refused (src/management/strings.ts).
 */
export function roleIdParams(description: string) {
  return Type.Object({ id: Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS, description }) });
}
