/**
 * Management API authentication: a Bearer JWT issued by the tenant for its
 * Management API audience, verified against the tenant's keys with the
 * algorithm pinned to RS256, then a per-operation scope check.
 *
 * Error bodies follow management-api-wire-notes §2 (hapi-auth-jwt2 behaviour):
 * no usable Bearer credential → 401 "Missing authentication"; a credential that
 * is not three dot-separated parts → 400 "Bad HTTP authentication header
 * format"; anything that fails verification → 401 "Invalid token"; an expired
 * token → 401 "Expired token received for JSON Web Token validation".
 *
 * Three kinds of principal: machine tokens, end users' tokens (the
 * `*:current_user*` rule), and the admin console's operators: a user token
 * whose `azp` is a client the token policy makes an operator's (the tenant's
 * built-in console client, src/domain/issuance/token-policy.ts), whose scopes were limited at issuance to the
 * operator's RBAC permissions (src/domain/console/operator.ts) and so count as
 * a machine token's. The operator must still exist and not be blocked: read
 * per request, so one removed from the tenant loses access at once.
 */
import type { FastifyRequest } from 'fastify';
import { managementErrors } from '../platform/http/errors.js';
import { CURRENT_USER_SCOPE_SET, isCurrentUserScope } from '../domain/management-api/current-user.js';
import { verifyTenantJwt } from '../domain/tokens/verify.js';
import { tokenPolicy } from '../domain/issuance/token-policy.js';
import { isActive } from '../domain/users/active-user.js';
import type { UserStore } from '../domain/users/store.js';
import type { Keyring } from '../domain/keys/keyring.js';

export interface ManagementPrincipal {
  /**
   * `client`: a machine token (client_credentials, `sub` `{client_id}@clients`);
   * `user`: a token issued to an end user, which may act only on that user
   * through the `*:current_user*` operations (src/domain/management-api/current-user.ts);
   * `operator`: a user's token issued to the admin console's client, whose scopes count as a client token's.
   */
  kind: 'client' | 'user' | 'operator';
  /** `{client_id}@clients` for machine tokens, the user id for user tokens. */
  sub: string;
  /** The client the token was issued to (`azp`). */
  clientId: string | undefined;
  /**
   * The scopes that count: a user token's `*:current_user*` scopes only, a
   * client token's scopes but those (they name no user to act on).
   */
  scopes: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: ManagementPrincipal;
  }
  interface FastifyContextConfig {
    /** Management operations: the token needs any one of these scopes. */
    scopes?: readonly string[];
    /**
     * Operations on one user (`/users/:id…`) that a user token may call on
     * itself with a `*:current_user*` scope among `scopes`. Every other
     * operation refuses user tokens as it refuses a client token without the scope.
     * `self`: an operation without a user id in its path that acts on the
     * token's own user (POST /device-credentials); its handler reads the
     * user from the principal.
     */
    currentUser?: true | 'self';
    /** The token needs every one of `scopes`, not one of them (the service's POST /keys/signing/rotate). */
    allScopes?: true;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^bearer(?:\s+(\S*))?\s*$/i.exec(header.trim());
  return match?.[1] || undefined;
}

/** What authenticating a Management API request touches. */
export interface ManagementAuthContext {
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly stores: { readonly users: UserStore };
}

export async function authenticateManagement(ctx: ManagementAuthContext, request: FastifyRequest): Promise<ManagementPrincipal> {
  const token = bearerToken(request);
  if (token === undefined) throw managementErrors.missingAuthentication();
  if (token.split('.').length !== 3) throw managementErrors.badAuthorizationHeader();

  const verified = await verifyTenantJwt(ctx, request.tenant, token, 'management');
  if (!verified.ok) throw verified.failure === 'expired' ? managementErrors.expiredToken() : managementErrors.invalidToken();
  const { payload } = verified;
  const scope = typeof payload.scope === 'string' ? payload.scope : '';
  const sub = String(payload.sub);
  const clientId = typeof payload.azp === 'string' ? payload.azp : undefined;
  // Machine tokens are the client_credentials grant's: `sub` is `{azp}@clients` (wire notes §6).
  const machine = payload.gty === 'client-credentials' && clientId !== undefined && sub === `${clientId}@clients`;
  // `azp`, or `client_id` under the RFC 9068 dialect.
  const issuedTo = clientId ?? (typeof payload.client_id === 'string' ? payload.client_id : undefined);
  const kind = machine ? 'client' : tokenPolicy(request.tenant.id, issuedTo, 'management').principal;
  if (kind === 'operator' && !isActive(await ctx.stores.users.get(request.tenant.id, sub))) throw managementErrors.invalidToken();
  const granted = scope.split(' ').filter(Boolean);
  return {
    kind,
    sub,
    clientId,
    scopes: new Set(kind === 'user' ? granted.filter((s) => CURRENT_USER_SCOPE_SET.has(s)) : granted.filter((s) => !isCurrentUserScope(s))),
  };
}

/** 403 unless the principal holds at least one of `anyOf`. */
export function requireScope(principal: ManagementPrincipal, anyOf: readonly string[]): void {
  if (!anyOf.some((scope) => principal.scopes.has(scope))) throw managementErrors.insufficientScope(anyOf);
}

/**
 * Whether the principal may call the operation: a scope among `scopes` (every
 * one of them when the operation sets `allScopes`), and
 * for a user token an operation open to it (`currentUser`) on its own user id.
 * A user token on any other operation gets the same 403 as a client token
 * without the scope: its scopes are only `*:current_user*` ones.
 */
export function authorizeOperation(
  principal: ManagementPrincipal,
  config: { scopes: readonly string[]; currentUser?: true | 'self'; allScopes?: true },
  params: unknown,
): void {
  if (config.allScopes && !config.scopes.every((scope) => principal.scopes.has(scope))) throw managementErrors.insufficientScopes(config.scopes);
  requireScope(principal, config.scopes);
  if (principal.kind !== 'user') return;
  if (!config.currentUser) throw managementErrors.insufficientScope(config.scopes);
  if (config.currentUser === 'self') return;
  const id = (params as { id?: unknown } | undefined)?.id;
  if (id !== principal.sub) throw managementErrors.otherUser();
}
