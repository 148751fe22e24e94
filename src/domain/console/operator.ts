/**
 * Who is an operator of a tenant, and what the console's token carries.
 *
 * The one exception to the Management API's `*:current_user*` rule for user
 * tokens (../management-api/current-user.ts), only for the built-in console
 * client (./client.ts) and only through RBAC: its access token for the
 * tenant's Management API carries exactly the requested scopes that the user
 * holds on that API through RBAC (the permissions of their roles, their
 * direct permissions, their groups' roles: the same effective permissions as
 * every API that enforces policies). A user who holds none of the requested
 * ones is not an operator and gets no token at all.
 */
import { oauthErrors } from '../../platform/http/errors.js';
import type { IssuanceApi } from '../issuance/lookups.js';
import { isCurrentUserScope } from '../management-api/current-user.js';
import type { Stores } from '../stores.js';

/** The refusal of a user who holds none of the requested Management API scopes. */
export const NOT_AN_OPERATOR = 'The user is not an operator of this tenant.';

/**
 * The longest a console token lives: an hour, or the Management API's own
 * `token_lifetime` when that is shorter. The token is a bearer token in a
 * browser; an operator removed or blocked is refused at once anyway
 * (src/management/auth.ts), a role taken away counts from the next token.
 */
export const CONSOLE_TOKEN_LIFETIME = 3600;

/** The requested scopes (`candidates`) the user holds on the Management API through RBAC; refuses a user who holds none. */
export async function operatorScopes(
  stores: Pick<Stores, 'rbac'>,
  tenantId: string,
  userId: string,
  api: IssuanceApi,
  candidates: readonly string[],
): Promise<string[]> {
  const held = new Set((await stores.rbac.effectivePermissions(tenantId, userId, api.row.identifier)).filter((p) => api.scopeSet.has(p) && !isCurrentUserScope(p)));
  const scopes = candidates.filter((s) => held.has(s));
  if (scopes.length === 0) throw oauthErrors.accessDenied(NOT_AN_OPERATOR);
  return scopes;
}
