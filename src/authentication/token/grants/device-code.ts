/**
 * The device_code grant (RFC 8628 §3.4-3.5; authentication-api-wire-notes
 * §5.1, §16 item 3) as a pipeline: find the request (the client's own; any
 * other device code is `invalid_grant`), refuse a spent one, answer an
 * expired one `expired_token` once and `invalid_grant` after, pace the
 * polling (a poll sooner than `interval` after the last is 429 `slow_down`),
 * then by the user's decision: `authorization_pending` while pending,
 * `access_denied` once denied, or, once approved, spend it and issue the
 * tokens of the login that approved it (refresh token with
 * `offline_access`, org_id when that login was for an organization).
 * Statuses are the current docs' 403 and 429, not the legacy 400.
 */
import { oauthErrors } from '../../../platform/http/errors.js';
import type { DeviceCodeRow } from '../../../domain/rows.js';
import { secretHash } from '../../../domain/secrets.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import type { AuthenticatedClient } from '../../client-auth/method.js';
import { requireParams, type Params } from '../../params.js';
import type { GrantContext, GrantHandler, GrantHandlerContext, TokenResponse } from '../grant.js';
import { approvedLoginTokens } from '../approved-login.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const invalidCode = () => oauthErrors.invalidGrant('Invalid or expired device code.');

async function findRequest(ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient, params: Params): Promise<DeviceCodeRow> {
  const code = params.device_code!;
  const row = code.length <= 100 ? await ctx.stores.deviceCodes.findByDeviceCode(tenant.id, secretHash(code)) : undefined;
  if (!row || row.client_id !== client.client.row.client_id || row.used_at !== null) throw invalidCode();
  return row;
}

async function checkExpiry(ctx: GrantHandlerContext, tenant: Tenant, row: DeviceCodeRow): Promise<void> {
  if (row.expires_at > isoAt(ctx.now())) return;
  if (await ctx.stores.deviceCodes.reportExpiry(tenant.id, row.id)) throw oauthErrors.expiredToken('The device code has expired.');
  throw invalidCode();
}

async function pacePolling(ctx: GrantHandlerContext, tenant: Tenant, row: DeviceCodeRow): Promise<void> {
  const now = ctx.now();
  if (!(await ctx.stores.deviceCodes.recordPoll(tenant.id, row.id, isoAt(now), isoAt(now - row.interval * 1000)))) {
    throw oauthErrors.slowDown(`You are polling faster than the specified interval of ${row.interval} seconds.`, 429);
  }
}

function checkDecision(row: DeviceCodeRow): void {
  if (row.status === 'pending') throw oauthErrors.authorizationPending('User has yet to authorize device code.', 403);
  if (row.status === 'denied') throw oauthErrors.accessDenied('User cancelled the confirmation prompt.');
}

export const deviceCode: GrantHandler = {
  grantType: DEVICE_CODE_GRANT,
  parameters: ['device_code'],
  // Devices are public clients; a confidential one authenticates as usual.
  requiresConfidentialClient: false,
  discovery: (issuer) => ({ device_authorization_endpoint: `${issuer}oauth/device/code` }),

  async handle({ ctx, tenant, params, client }: GrantContext): Promise<TokenResponse> {
    requireParams(params, 'device_code');
    const row = await findRequest(ctx, tenant, client, params);
    await checkExpiry(ctx, tenant, row);
    await pacePolling(ctx, tenant, row);
    checkDecision(row);
    if (!(await ctx.stores.deviceCodes.consume(tenant.id, row.id, isoAt(ctx.now())))) throw invalidCode();
    return approvedLoginTokens(ctx, tenant, client, { ...row, user_id: row.user_id! }, invalidCode);
  },
};
