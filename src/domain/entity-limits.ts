/**
 * How much one role, user, API, tenant or user-and-application may hold, in
 * one place: the service's entity limits (its "Entity Limit Policy" page,
 * Authorization Core RBAC and refresh tokens) where it states them, and
 * Gatehouse's own where it does not (sessions per user).
 *
 * Two kinds:
 * - refused (`refuse`): a Management API write that would pass the limit is
 *   refused and changes nothing (src/management/entity-limits.ts words the
 *   refusal); bodies of those writes are bounded by the same number, so one
 *   call may carry everything an entity may hold;
 * - trimmed (`trim`): issuing one more revokes the oldest beyond the limit,
 *   as the service does for refresh tokens ("If the limit is reached and a
 *   new refresh token is created, the system revokes or deletes the oldest
 *   token for that user in the application. Revoked tokens and expired tokens
 *   do not count against the limit").
 *
 * Limits count what is assigned directly: a user's permissions are those
 * assigned to the user, not those of the user's roles (the page's note), and
 * a user's roles those assigned to the user, not through groups.
 */
export const ENTITY_LIMITS = {
  /** Permissions of one role (service: 1000). */
  permissionsPerRole: 1000,
  /** Permissions assigned to one user directly (service: 1000). */
  permissionsPerUser: 1000,
  /** Roles assigned to one user directly (service: 50). */
  rolesPerUser: 50,
  /** Scopes of one API (service: 1000). */
  scopesPerApi: 1000,
  /** Roles of one tenant (service: 1000). */
  rolesPerTenant: 1000,
  /** Active refresh tokens of one user for one application; the oldest beyond are revoked (service: 200). */
  refreshTokensPerUserAndClient: 200,
  /**
   * Active SSO sessions of one user; the oldest beyond are revoked. The
   * service states no number: Gatehouse's, high enough for every browser
   * and device a person uses, low enough that a script logging one user in
   * again and again cannot fill the database (README "Entity limits").
   */
  sessionsPerUser: 100,
} as const;

export type EntityLimit = keyof typeof ENTITY_LIMITS;
