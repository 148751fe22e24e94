/**
 * The Management API's refusals of writes that would take an entity past its
 * limit (src/domain/entity-limits.ts). The service documents the limits but
 * no recording of its refusal was found (UNCONFIRMED): Gatehouse answers 400
 * with `errorCode: "entity_limit_exceeded"` and a message naming the limit,
 * and changes nothing. Bodies are bounded by the same numbers (the schemas'
 * `maxItems`), so one call may still carry everything an entity may hold.
 */
import { ENTITY_LIMITS } from '../domain/entity-limits.js';
import { managementErrors } from '../platform/http/errors.js';

export const entityLimitRefusals = {
  permissionsPerRole: () => managementErrors.entityLimitExceeded(`A role can have at most ${ENTITY_LIMITS.permissionsPerRole} permissions`),
  permissionsPerUser: () =>
    managementErrors.entityLimitExceeded(`A user can have at most ${ENTITY_LIMITS.permissionsPerUser} permissions assigned directly`),
  rolesPerUser: (userId: string) =>
    managementErrors.entityLimitExceeded(`A user can have at most ${ENTITY_LIMITS.rolesPerUser} roles assigned directly: ${userId}`),
  rolesPerTenant: () => managementErrors.entityLimitExceeded(`A tenant can have at most ${ENTITY_LIMITS.rolesPerTenant} roles`),
};
