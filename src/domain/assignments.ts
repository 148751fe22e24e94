/**
 * What assigning a list of items to an owner did (roles to a user or a
 * group, users to a group): all of them or none, and which was missing.
 */
export type AssignResult = { status: 'assigned' } | { status: 'owner_not_found' } | { status: 'item_not_found'; id: string };

/** An assignment under an entity limit (src/domain/entity-limits.ts): also refused, whole, when it would pass the limit for `id`. */
export type LimitedAssignResult = AssignResult | { status: 'limit_exceeded'; id: string };
