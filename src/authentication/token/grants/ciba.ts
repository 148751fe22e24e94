/**
 * The CIBA grant `urn:openid:params:grant-type:ciba` (OpenID CIBA Core 1.0
 * §10-11, poll mode; authentication-api-wire-notes §5.1) as a pipeline: find
 * the request (the client's own), refuse a spent one, pace the polling, then
 * by the user's decision: `authorization_pending` while pending,
 * `access_denied` once denied or expired (the service's one answer for
 * both), or, once approved, spend it and issue the user's tokens (no
 * session: no `sid`; `auth_time` is the approval). Polling faster than the
 * interval is `slow_down` with `interval: 10` and `Retry-After`, in the
 * service's words. Statuses are CIBA's 400 (the service's are unconfirmed).
 */
import { OAuthError, oauthErrors } from '../../../platform/http/errors.js';
import type { BackchannelAuthRequestRow } from '../../../domain/rows.js';
import { secretHash } from '../../../domain/secrets.js';
import { isoAt } from '../../../platform/clock.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { approvedLoginTokens } from '../approved-login.js';

export const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
const SLOW_DOWN_INTERVAL = 10;

const invalidRequestId = () => oauthErrors.invalidGrant('Invalid or expired auth_req_id.');
const denied = () => oauthErrors.accessDenied('The end-user denied the authorization request or it has been expired', 400);

class SlowDown extends OAuthError {
  constructor() {
    super(400, 'slow_down', `You are polling faster than allowed. Try again in ${SLOW_DOWN_INTERVAL} seconds.`);
    this.withHeader('Retry-After', String(SLOW_DOWN_INTERVAL));
  }
  override body(): Record<string, unknown> {
    return { ...super.body(), interval: SLOW_DOWN_INTERVAL };
  }
}

function checkDecision(row: BackchannelAuthRequestRow, now: string): void {
  if (row.status === 'denied' || (row.status === 'pending' && row.expires_at <= now)) throw denied();
  if (row.status === 'pending') throw oauthErrors.authorizationPending('The end-user authorization is pending');
}

export const ciba: GrantHandler = {
  grantType: CIBA_GRANT,
  parameters: ['auth_req_id'],
  requiresConfidentialClient: true,
  discovery: (issuer) => ({
    backchannel_authentication_endpoint: `${issuer}bc-authorize`,
    backchannel_token_delivery_modes_supported: ['poll'],
  }),

  async handle({ ctx, tenant, params, client }: GrantContext): Promise<TokenResponse> {
    requireParams(params, 'auth_req_id');
    const id = params.auth_req_id!;
    const store = ctx.stores.backchannelAuthRequests;
    const row = id.length <= 100 ? await store.findByAuthReqId(tenant.id, secretHash(id)) : undefined;
    if (!row || row.client_id !== client.client.row.client_id || row.used_at !== null) throw invalidRequestId();
    const nowMs = ctx.now();
    if (!(await store.recordPoll(tenant.id, row.id, isoAt(nowMs), isoAt(nowMs - row.interval * 1000)))) throw new SlowDown();
    checkDecision(row, isoAt(nowMs));
    if (!(await store.consume(tenant.id, row.id, isoAt(nowMs)))) throw invalidRequestId();
    return approvedLoginTokens(ctx, tenant, client, {
      user_id: row.user_id,
      audience: row.audience,
      scope: row.scope,
      auth_time: Math.floor(Date.parse(row.decided_at!) / 1000),
      session_id: null,
      organization_id: null,
    }, invalidRequestId);
  },
};
