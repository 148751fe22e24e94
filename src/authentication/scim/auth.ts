/**
 * The SCIM endpoint's bearer tokens (RFC 7644 §2): looked up by their
 * SHA-256 (the store keeps nothing else), compared in constant time, valid
 * until `valid_until`, for their own connection only, each operation needing
 * its scope (`get:users` …).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ScimTokenScope } from '../../domain/scim/connections.js';
import type { ScimTokenRow } from '../../domain/scim/rows.js';
import type { ScimStore } from '../../domain/scim/store.js';
import { secretHash } from '../../domain/secrets.js';
import { isoAt } from '../../platform/clock.js';
import { scimErrors } from './errors.js';

export interface ScimAuthContext {
  readonly now: () => number;
  readonly stores: { readonly scim: Pick<ScimStore, 'findToken' | 'touchToken'> };
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i;

export async function authenticateScim(ctx: ScimAuthContext, request: FastifyRequest, connectionId: string, scope: ScimTokenScope | undefined): Promise<ScimTokenRow> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  if (!match) throw scimErrors.unauthorized();
  const hash = secretHash(match[1]!);
  const token = await ctx.stores.scim.findToken(request.tenant.id, hash);
  // The lookup is by hash; the compare is constant-time all the same, so no byte of a stored hash can be learnt by timing.
  if (!token || !timingSafeEqual(Buffer.from(token.token_hash), Buffer.from(hash))) throw scimErrors.unauthorized();
  const now = ctx.now();
  if (token.valid_until !== null && Date.parse(token.valid_until) <= now) throw scimErrors.unauthorized('The token has expired');
  if (token.connection_id !== connectionId) throw scimErrors.forbidden('The token is not valid for this connection');
  if (scope !== undefined && !token.scopes.includes(scope)) throw scimErrors.forbidden(`The token lacks the scope ${scope}`);
  await ctx.stores.scim.touchToken(token.tenant_id, token.id, isoAt(now));
  return token;
}
