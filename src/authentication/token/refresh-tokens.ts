/**
 * Refresh tokens as the token endpoint issues them (RFC 6749 §1.5, §6;
 * authentication-api-wire-notes §5): when `offline_access` is requested, the
 * client may use the `refresh_token` grant and, for an API audience, the API
 * allows offline access. Lifetimes follow the client's `refresh_token`
 * settings, fixed when a token is issued:
 *
 * - `expiration_type: non-expiring`: no expiry at all;
 * - `expiring`: an absolute expiry `token_lifetime` seconds after the family's
 *   first token (a rotated successor inherits it, so rotation never extends
 *   a grant), and an idle expiry `idle_token_lifetime` seconds after the last
 *   use; `infinite_token_lifetime` / `infinite_idle_token_lifetime` take
 *   precedence over the numbers, as the Management API documents.
 */
import { ENTITY_LIMITS } from '../../domain/entity-limits.js';
import { isPublicClient, type IssuanceApi, type IssuanceClient } from '../../domain/issuance/lookups.js';
import { REFRESH_TOKEN_DEFAULT } from '../../domain/clients/model.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import type { RefreshTokenRow } from '../../domain/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { newRefreshToken, secretHash } from '../../domain/secrets.js';
import { isoAt } from '../../platform/clock.js';
import type { Confirmation } from '../../domain/tokens/confirmation.js';
import type { RefreshTokenStore } from '../../domain/refresh-tokens/store.js';

export const OFFLINE_ACCESS = 'offline_access';
export const REFRESH_TOKEN_GRANT = 'refresh_token';

/** The client's `refresh_token` configuration (Management API Client `refresh_token`). */
export interface RefreshTokenSettings {
  rotation_type: 'rotating' | 'non-rotating';
  expiration_type: 'expiring' | 'non-expiring';
  /** Seconds a rotated token is still accepted (concurrent requests, lost responses) before reuse counts as a breach. */
  leeway: number;
  token_lifetime: number;
  infinite_token_lifetime: boolean;
  idle_token_lifetime: number;
  infinite_idle_token_lifetime: boolean;
}

/** The client's settings over the defaults of a new client. Not cached: read from the cached row per use. */
export function refreshTokenSettings(client: IssuanceClient): RefreshTokenSettings {
  const config = client.row.config as { refresh_token?: Partial<RefreshTokenSettings> | null };
  return { ...(REFRESH_TOKEN_DEFAULT as RefreshTokenSettings), ...(config.refresh_token ?? {}) };
}

/** Whether a grant asking for `offline_access` gets a refresh token (wire notes §5 "Token response"). */
export function offlineAccessAllowed(client: IssuanceClient, api: IssuanceApi | undefined): boolean {
  return client.grantTypes.has(REFRESH_TOKEN_GRANT) && (api === undefined || api.row.allow_offline_access === 1);
}


/** The absolute expiry of a new family, or null. */
export function absoluteExpiry(settings: RefreshTokenSettings, nowMs: number): string | null {
  if (settings.expiration_type !== 'expiring' || settings.infinite_token_lifetime) return null;
  return isoAt(nowMs + settings.token_lifetime * 1000);
}

/** The idle expiry of a token used (or issued) at `nowMs`, or null. */
export function idleExpiry(settings: RefreshTokenSettings, nowMs: number): string | null {
  if (settings.expiration_type !== 'expiring' || settings.infinite_idle_token_lifetime) return null;
  return isoAt(nowMs + settings.idle_token_lifetime * 1000);
}

/** Whether the token is past either expiry at `now` (ISO); expiry instants are exclusive. */
export function isExpired(row: Pick<RefreshTokenRow, 'expires_at' | 'idle_expires_at'>, now: string): boolean {
  return (row.expires_at !== null && row.expires_at <= now) || (row.idle_expires_at !== null && row.idle_expires_at <= now);
}

export interface RefreshTokenIssue {
  tenant: Tenant;
  client: IssuanceClient;
  userId: string;
  /** The resolved API audience; undefined for /userinfo-only tokens. */
  audience: string | undefined;
  /** The scope the token carries (what later refreshes may narrow). */
  scope: string;
  /** The family of a rotated predecessor, with its absolute expiry; a new family when absent. */
  family?: { id: string; expiresAt: string | null };
  /** The DPoP key the client proved; a public client's token is bound to it (RFC 9449 §5). */
  confirmation?: Confirmation;
  /** A rotated predecessor's binding, which its successor keeps (instead of `confirmation`'s). */
  boundTo?: string | null;
  /** The organization the grant is for; kept by every refresh. */
  organizationId?: string;
  /** The SSO session whose login started a new family (a successor takes its family's). */
  sessionId?: string;
}

/** What issuing and rotating refresh tokens touches. */
export interface RefreshTokenContext {
  readonly now: () => number;
  readonly stores: { readonly refreshTokens: RefreshTokenStore };
}

/** Stores a new refresh token (only its hash) and returns the token. */
export async function issueRefreshToken(ctx: RefreshTokenContext, request: RefreshTokenIssue): Promise<string> {
  const nowMs = ctx.now();
  const settings = refreshTokenSettings(request.client);
  const token = newRefreshToken();
  await ctx.stores.refreshTokens.insert({
    tenant_id: request.tenant.id,
    id_hash: secretHash(token),
    family_id: request.family?.id ?? newPrefixedId('rtf', 24),
    client_id: request.client.row.client_id,
    user_id: request.userId,
    audience: request.audience ?? null,
    scope: request.scope,
    created_at: isoAt(nowMs),
    expires_at: request.family ? request.family.expiresAt : absoluteExpiry(settings, nowMs),
    idle_expires_at: idleExpiry(settings, nowMs),
    last_used_at: isoAt(nowMs),
    dpop_jkt: request.boundTo !== undefined ? request.boundTo : isPublicClient(request.client) ? (request.confirmation?.jkt ?? null) : null,
    organization_id: request.organizationId ?? null,
    session_id: request.sessionId ?? null,
  });
  // The service's entity limit: the oldest active tokens of the user for the application beyond it are revoked.
  await ctx.stores.refreshTokens.revokeBeyond(request.tenant.id, request.userId, request.client.row.client_id, ENTITY_LIMITS.refreshTokensPerUserAndClient, isoAt(nowMs));
  return token;
}
