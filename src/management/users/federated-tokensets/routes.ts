/**
 * A user's token sets at upstream identity providers (federation wire notes
 * §4.3; src/domain/upstream-tokens/): their metadata, never the tokens.
 *
 * - GET /api/v2/users/{id}/federated-connections-tokensets
 *   (read:federated_connections_tokens): a plain array of `{id, connection,
 *   scope, expires_at, issued_at, last_used_at}`, `[]` for a user with none;
 *   404 for an unknown user.
 * - DELETE …/{tokenset_id} (delete:federated_connections_tokens): 204, an
 *   unknown tokenset id too, as the service answers.
 */
import { Type } from '@sinclair/typebox';
import type { UpstreamTokenSetStore } from '../../../domain/upstream-tokens/store.js';
import type { UserStore } from '../../../domain/users/store.js';
import type { User } from '../../../domain/users/model.js';
import { openUpstreamTokens } from '../../../domain/upstream-tokens/vault.js';
import type { SecretBox } from '../../../platform/crypto/secret-box.js';
import { managementRoute, NoContent, type ManagementRoute } from '../../route.js';
import { userNotFound } from '../service.js';

const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const UserId = Type.String({ minLength: 1, maxLength: 512, pattern: NO_CONTROL, description: 'ID of the user' });
const TokenSet = Type.Object({
  id: Type.String(),
  connection: Type.String(),
  scope: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  issued_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
});

export interface FederatedTokenSetContext {
  readonly box: SecretBox;
  readonly stores: { readonly users: Pick<UserStore, 'get'>; readonly upstreamTokenSets: UpstreamTokenSetStore };
}

export const IDP_TOKENS_SCOPE = 'read:user_idp_tokens';

/**
 * The user with its identities' upstream tokens (`access_token`,
 * `refresh_token`), opened from their sealed sets: for a Management API
 * token with read:user_idp_tokens only (federation wire notes §3.2).
 */
export async function withIdpTokens(ctx: FederatedTokenSetContext, tenantId: string, user: User): Promise<User> {
  const identities = await Promise.all(
    user.identities.map(async (identity) => {
      const set = await ctx.stores.upstreamTokenSets.find(tenantId, `${identity.provider}|${identity.user_id}`, identity.connection);
      return set ? { ...identity, ...openUpstreamTokens(ctx.box, set) } : identity;
    }),
  );
  return { ...user, identities };
}

export function federatedTokenSetRoutes(ctx: FederatedTokenSetContext): ManagementRoute[] {
  const existing = async (tenantId: string, userId: string) => {
    if (!(await ctx.stores.users.get(tenantId, userId))) throw userNotFound();
  };
  return [
    managementRoute({
      method: 'GET',
      url: '/users/:id/federated-connections-tokensets',
      config: { scopes: ['read:federated_connections_tokens'] },
      schema: { params: Type.Object({ id: UserId }), response: { 200: Type.Array(TokenSet) } },
      handler: async (request) => {
        await existing(request.tenant.id, request.params.id);
        const sets = await ctx.stores.upstreamTokenSets.list(request.tenant.id, request.params.id);
        return sets.map((s) => ({ id: s.id, connection: s.connection, scope: s.scope ?? '', expires_at: s.access_token_expires_at, issued_at: s.issued_at, last_used_at: s.last_used_at }));
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/users/:id/federated-connections-tokensets/:tokenset_id',
      config: { scopes: ['delete:federated_connections_tokens'] },
      schema: { params: Type.Object({ id: UserId, tokenset_id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL }) }), response: { 204: NoContent } },
      handler: async (request, reply) => {
        await existing(request.tenant.id, request.params.id);
        await ctx.stores.upstreamTokenSets.delete(request.tenant.id, request.params.id, request.params.tokenset_id);
        return reply.code(204).send();
      },
    }),
  ];
}
