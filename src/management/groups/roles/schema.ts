/**
 * The body of POST and DELETE /groups/{id}/roles (`AssignGroupRolesRequestContent`,
 * `DeleteGroupRolesRequestContent`; spec "Group role removal request"): `roles`,
 * at least one role id, nothing else.
 */
import { Type } from '@sinclair/typebox';
import { formListAsArray } from '../../route.js';

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

/** preValidation: a form body's lone `roles=a` is a one-item list. */
export const formRolesAsArray = formListAsArray('roles');
