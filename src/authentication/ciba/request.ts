/**
 * The checks of a backchannel authentication request's own parameters
 * (OpenID CIBA Core §7.1; authentication-api-wire-notes §12), stages of the
 * authorization-request table (../authorize/stages.ts, BA): `scope` with
 * `openid`, `binding_message` of at most 64 characters of letters, digits,
 * spaces and `+-_.,:#`, `requested_expiry` 1 to 300 seconds (default 300),
 * `login_hint` in `iss_sub` form naming an active user of the tenant.
 */
import type { UserRow } from '../../domain/rows.js';
import type { Stores } from '../../domain/stores.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { Params } from '../params.js';

const DEFAULT_EXPIRY = 300;
const MAX_EXPIRY = 300;
const BINDING_MESSAGE = /^[A-Za-z0-9 +\-_.,:#]{1,64}$/;

const unknownUser = oauthErrors.unknownUserId;

export function checkCibaScope(params: Params): string {
  const scopes = (params.scope ?? '').split(' ').filter((s) => s !== '');
  if (!scopes.includes('openid')) throw oauthErrors.invalidRequest('openid scope must be requested');
  return scopes.join(' ');
}

export function checkBindingMessage(params: Params): string {
  const message = params.binding_message;
  if (message === undefined || message === '') throw oauthErrors.invalidRequest('binding_message is required');
  if (!BINDING_MESSAGE.test(message)) {
    throw oauthErrors.invalidRequest('binding_message must be at most 64 characters of letters, digits, spaces and +-_.,:#');
  }
  return message;
}

export function checkRequestedExpiry(params: Params): number {
  if (params.requested_expiry === undefined) return DEFAULT_EXPIRY;
  const seconds = /^\d{1,6}$/.test(params.requested_expiry) ? Number(params.requested_expiry) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_EXPIRY)) throw oauthErrors.invalidRequest(`requested_expiry must be between 1 and ${MAX_EXPIRY} seconds`);
  return seconds;
}

/** The user of `login_hint` `{"format":"iss_sub","iss":<issuer>,"sub":<user id>}`, active, in this tenant. */
export async function hintedUser({ stores }: { stores: Pick<Stores, 'users'> }, tenant: Tenant, params: Params): Promise<UserRow> {
  let hint: unknown;
  try {
    hint = JSON.parse(params.login_hint ?? '');
  } catch {
    throw unknownUser();
  }
  const { format, iss, sub } = (hint ?? {}) as { format?: unknown; iss?: unknown; sub?: unknown };
  if (format !== 'iss_sub' || iss !== tenant.issuer || typeof sub !== 'string' || sub.length > 512) throw unknownUser();
  const user = await stores.users.get(tenant.id, sub);
  if (!isActive(user)) throw unknownUser();
  return user;
}
