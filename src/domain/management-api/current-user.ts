/**
 * The tenant's Management API seen as one resource server among others: what
 * an end user may hold of it.
 *
 * The service gives user-issued tokens for its Management API audience only
 * the `*:current_user*` scopes (its "Get Management API tokens for single-page
 * applications" rules): whatever else a user asks for is dropped, never
 * granted, whatever the flow (password grants, code, implicit, refresh). The
 * Management API in turn accepts such a token only on the operations these
 * scopes cover, and only for the token's own subject (src/management/auth.ts).
 * Client (machine) tokens never count these scopes: they name no user.
 */

/** The scopes a user token for the Management API may carry. */
export const CURRENT_USER_SCOPES: readonly string[] = [
  'read:current_user',
  'update:current_user_identities',
  'create:current_user_metadata',
  'update:current_user_metadata',
  'delete:current_user_metadata',
  'create:current_user_device_credentials',
  'delete:current_user_device_credentials',
];

export const CURRENT_USER_SCOPE_SET: ReadonlySet<string> = new Set(CURRENT_USER_SCOPES);

/** Whether a scope is one of the `*:current_user*` family (including ones no user is ever given, such as `delete:current_user`). */
export function isCurrentUserScope(scope: string): boolean {
  return scope.includes(':current_user');
}
