/**
 * Users' tokens at upstream identity providers, kept sealed (AES-GCM under
 * the master key, bound to the tenant and the token set), never logged:
 * written at each federated login that brings them (the shared upstream
 * flow, src/authentication/connections/upstream-login.ts), read by the
 * Management API for `identities[]` under read:user_idp_tokens and by Token
 * Vault's grant, which refreshes them at the provider when expired.
 */
import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { isoAt } from '../../platform/clock.js';
import type { UpstreamTokenSetRow } from './rows.js';
import type { UpstreamTokenSetStore } from './store.js';

/** The tokens an upstream login or refresh brought. */
export interface UpstreamTokens {
  access_token?: string;
  refresh_token?: string;
  /** Seconds since the epoch. */
  expires_at?: number;
  scope?: string;
}

export interface UpstreamTokenContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly upstreamTokenSets: UpstreamTokenSetStore };
}

export const upstreamTokenContext = (tenantId: string, id: string) => `upstream token set:${tenantId}:${id}`;

function sealed(ctx: UpstreamTokenContext, tenantId: string, id: string, tokens: UpstreamTokens) {
  const seal = (value: string | undefined) => (value === undefined ? null : ctx.box.seal(value, upstreamTokenContext(tenantId, id), tenantId));
  return {
    access_token: seal(tokens.access_token),
    refresh_token: seal(tokens.refresh_token),
    scope: tokens.scope ?? null,
    access_token_expires_at: tokens.expires_at === undefined ? null : isoAt(tokens.expires_at * 1000),
  };
}

/** Keeps the tokens of the user's login through a connection (replacing the set's earlier ones). */
export async function keepUpstreamTokens(ctx: UpstreamTokenContext, tenantId: string, userId: string, connection: { id: string; name: string }, tokens: UpstreamTokens): Promise<void> {
  const existing = await ctx.stores.upstreamTokenSets.find(tenantId, userId, connection.name);
  const id = existing?.id ?? `fcts_${randomBytes(12).toString('base64url')}`;
  await ctx.stores.upstreamTokenSets.keep({
    tenant_id: tenantId,
    id,
    user_id: userId,
    connection_id: connection.id,
    connection: connection.name,
    ...sealed(ctx, tenantId, id, tokens),
    issued_at: isoAt(ctx.now()),
    last_used_at: existing?.last_used_at ?? null,
  });
}

/** Replaces a set's tokens after a refresh at the provider (a refresh token the provider did not rotate is kept). */
export async function refreshedUpstreamTokens(ctx: UpstreamTokenContext, row: UpstreamTokenSetRow, tokens: UpstreamTokens): Promise<void> {
  const next = sealed(ctx, row.tenant_id, row.id, tokens);
  await ctx.stores.upstreamTokenSets.update(row.tenant_id, row.id, { ...next, refresh_token: next.refresh_token ?? row.refresh_token, last_used_at: isoAt(ctx.now()) });
}

/** The set's tokens in clear. */
export function openUpstreamTokens(box: SecretBox, row: UpstreamTokenSetRow): { access_token?: string; refresh_token?: string } {
  const open = (value: string | null) => (value === null ? undefined : box.openString(value, upstreamTokenContext(row.tenant_id, row.id)));
  const access = open(row.access_token);
  const refresh = open(row.refresh_token);
  return { ...(access !== undefined && { access_token: access }), ...(refresh !== undefined && { refresh_token: refresh }) };
}
