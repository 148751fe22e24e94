/**
 * The `mfa_token` of a login that needs a second factor (wire notes §5.1
 * `mfa_required`): opaque to the client, sealed with the master key under a
 * context naming the tenant and this one purpose, so it is no other token
 * and no other tenant's. It carries the user, the client it was issued to,
 * its expiry and what the first grant asked for (audience, scope), so the
 * MFA grant issues what the password grant would have. A successful MFA
 * grant spends it (one_time_uses, by its `jti`); a spent token opens nowhere
 * (the MFA API included).
 */
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import { secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import type { OneTimeUseStore } from '../one-time-use/store.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

export interface MfaTokenClaims {
  /** The user. */
  sub: string;
  /** The client it was issued to. */
  client_id: string;
  /** Expiry, ms since the epoch. */
  exp: number;
  jti: string;
  audience?: string;
  scope?: string;
}

export type OpenedMfaToken = { ok: true; claims: MfaTokenClaims } | { ok: false; failure: 'malformed' | 'expired' | 'spent' };

/** The one_time_uses purpose under which a completed login spends its token. */
export const MFA_TOKEN_PURPOSE = 'mfa_token';

function context(tenant: Tenant): string {
  return `mfa_token:${tenant.id}`;
}

/** What mfa_token touches. */
export interface MfaTokenContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly oneTimeUses: OneTimeUseStore };
}

export function sealMfaToken(ctx: MfaTokenContext, tenant: Tenant, claims: Omit<MfaTokenClaims, 'jti' | 'exp'>, lifetimeSeconds: number): string {
  const full: MfaTokenClaims = { ...claims, exp: ctx.now() + lifetimeSeconds * 1000, jti: randomBytes(16).toString('base64url') };
  return ctx.box.seal(JSON.stringify(full), context(tenant));
}

/** The token's claims while it opens, is unexpired and was not spent by a completed login. */
export async function openMfaToken(ctx: MfaTokenContext, tenant: Tenant, token: string): Promise<OpenedMfaToken> {
  let claims: MfaTokenClaims;
  try {
    claims = JSON.parse(ctx.box.openString(token, context(tenant))) as MfaTokenClaims;
  } catch {
    return { ok: false, failure: 'malformed' };
  }
  if (typeof claims.sub !== 'string' || typeof claims.client_id !== 'string' || typeof claims.exp !== 'number') return { ok: false, failure: 'malformed' };
  if (claims.exp <= ctx.now()) return { ok: false, failure: 'expired' };
  if (await ctx.stores.oneTimeUses.used(tenant.id, MFA_TOKEN_PURPOSE, secretHash(claims.jti), isoAt(ctx.now()))) return { ok: false, failure: 'spent' };
  return { ok: true, claims };
}
