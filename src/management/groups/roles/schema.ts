/**
 * The body of POST and DELETE /groups/{id}/roles (`AssignGroupRolesRequestContent`,
 * `DeleteGroupRolesRequestContent`; spec "Group role removal request"): `roles`,
 * at least one role id, nothing else.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';

function rolesBody(description: string) {
  return Type.Object(
    {
      roles: Type.Array(Type.String({ format: 'role-id', description: 'Unique identifier for the role (service-generated)' }), {
        minItems: 1,
        description,
      }),
    },
    { additionalProperties: false },
  );
}

export const AssignGroupRolesBody = rolesBody('Array of role IDs to assign to the group');
export const DeleteGroupRolesBody = rolesBody('Array of role IDs to remove from the group');
export type GroupRolesBody = Static<typeof AssignGroupRolesBody>;

/**
 * preValidation: in a form body `roles=a&roles=b` parses to an array but a lone
 * `roles=a` to a string; it means a one-item array. JSON bodies are left alone,
 * so `{"roles":"a"}` is still refused as not an array.
 */
export async function formRolesAsArray(request: FastifyRequest): Promise<void> {
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return;
  const body = request.body as Record<string, unknown> | null | undefined;
  if (body && typeof body.roles === 'string') body.roles = [body.roles];
}
