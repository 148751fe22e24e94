/**
 * The /activate pages (RFC 8628 §3.3; issue: device authorization flow):
 *
 * 1. `GET /activate` asks for the user code (`?user_code=` of
 *    `verification_uri_complete` fills it in); `POST /activate` finds the
 *    waiting request by the code and shows it again to be confirmed, with the
 *    application's name, or cancelled (the request is denied).
 * 2. Confirming hands an authorization request for the device's client,
 *    scope and audience to the interaction steps, the login (or the browser's
 *    session), organization and consent pages of /authorize. Its response
 *    comes back here as an authorization code to
 *    `/activate/callback` (the tenant's own URL, never the client's), which
 *    spends the code and approves the device request with that login; an
 *    error response (consent declined) denies it.
 *
 * Guessing: every code looked up takes one from a bucket of 10 per 5
 * minutes per tenant and client address (wire notes §12's ~34 bits per code
 * then take millennia to hit one by chance); past it the page answers 429.
 * Forms carry a CSRF token bound to the browser's binding cookie. The
 * authorization code's `nonce` is the device request's id, so a code can
 * approve only the request it was issued for.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { displayUserCode, normalizeUserCode } from '../../domain/device-codes/codes.js';
import type { DeviceCodeRow } from '../../domain/rows.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { bindBrowser, BROWSER_COOKIE, readCookie } from '../cookies.js';
import { PageError, pageErrors } from '../errors.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import { runInteraction } from '../interaction/policy.js';
import type { StepDeps } from '../interaction/step.js';
import { activateCodePage, activateConfirmPage, activateDonePage } from '../pages/device.js';
import { sendPage } from '../pages/html.js';
import { pageParams } from '../params.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';

/** Lookups of user codes per tenant and address: 10 per 5 minutes. */
export const USER_CODE_ATTEMPTS = { burst: 10, perSecond: 10 / 300 };

const CALLBACK = 'activate/callback';

function callbackUrl(tenant: Tenant): string {
  return `${tenant.issuer}${CALLBACK}`;
}

async function usableRequest(deps: StepDeps, tenant: Tenant, normalized: string): Promise<DeviceCodeRow | undefined> {
  const row = await deps.ctx.stores.deviceCodes.findByUserCode(tenant.id, secretHash(normalized));
  return row && row.status === 'pending' && row.expires_at > isoAt(deps.ctx.now()) ? row : undefined;
}

/** The authorization request a confirmed code stands for: the device client's, answered to the callback. */
function deviceAuthorizeRequest(tenant: Tenant, row: DeviceCodeRow): AuthorizeRequest {
  return {
    client_id: row.client_id,
    response_type: ['code'],
    redirect_target: callbackUrl(tenant),
    response_mode: 'query',
    state: row.id,
    nonce: row.id,
    ...(row.scope !== null && { scope: row.scope }),
    ...(row.audience !== null && { audience: row.audience }),
  };
}

export function activateRoutes(deps: StepDeps): RouteOptions[] {
  const { ctx } = deps;
  let tokens: FormTokens | undefined;
  const csrf = () => (tokens ??= ctx.formTokens('gatehouse device activation'));
  const csrfFor = (tenant: Tenant, browser: string) => csrf().token(tenant.id, secretHash(browser));

  const codePage = (reply: FastifyReply, tenant: Tenant, browser: string, status: number, userCode?: string, message?: string) =>
    sendPage(reply, status, activateCodePage({ csrf: csrfFor(tenant, browser), ...(userCode !== undefined && { userCode }), ...(message !== undefined && { error: { message } }) }));

  return [
    {
      method: 'GET',
      url: '/activate',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const browser = bindBrowser(request, reply);
        const typed = pageParams(request, ['user_code']).user_code;
        return codePage(reply, request.tenant, browser, 200, typed !== undefined && typed.length <= 20 ? typed : undefined);
      },
    },
    {
      method: 'POST',
      url: '/activate',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { tenant } = request;
        const browser = readCookie(request.headers.cookie, BROWSER_COOKIE);
        const params = pageParams(request, ['user_code', 'decision', 'csrf_token']);
        if (browser === undefined || !csrf().matches(params.csrf_token, tenant.id, secretHash(browser))) throw pageErrors.refusedForm();
        const limit = await ctx.rateLimiter.consume('device_user_code', `${tenant.id}:${request.ip}`, USER_CODE_ATTEMPTS);
        if (!limit.allowed) {
          reply.header('Retry-After', String(limit.retryAfter));
          return codePage(reply, tenant, browser, 429, undefined, 'Too many attempts. Wait a few minutes, then try again.');
        }
        const normalized = normalizeUserCode(params.user_code ?? '');
        const row = normalized === undefined ? undefined : await usableRequest(deps, tenant, normalized);
        if (!row) return codePage(reply, tenant, browser, 400, params.user_code?.slice(0, 20), 'The code you entered is invalid or has expired.');
        const client = await ctx.lookups.client(tenant.id, row.client_id);
        if (!client) throw pageErrors.expiredTransaction();
        if (params.decision === 'cancel') {
          await ctx.stores.deviceCodes.deny(tenant.id, row.id, isoAt(ctx.now()));
          return sendPage(reply, 200, activateDonePage(false));
        }
        if (params.decision !== 'confirm') {
          return sendPage(reply, 200, activateConfirmPage({ csrf: csrfFor(tenant, browser), userCode: displayUserCode(normalized!), clientName: client.row.name }));
        }
        const authorize = deviceAuthorizeRequest(tenant, row);
        const authenticated = await deps.sessions.usable(tenant, client, authorize, request.headers.cookie);
        return runInteraction(deps, reply, { tenant, client, request: authorize, browser, completed: [], ...(authenticated && { authenticated }) });
      },
    },
    {
      method: 'GET',
      url: `/${CALLBACK}`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { tenant } = request;
        const params = pageParams(request, ['code', 'state', 'error']);
        const row = params.state && params.state.length <= 64 ? await ctx.stores.deviceCodes.get(tenant.id, params.state) : undefined;
        const now = isoAt(ctx.now());
        if (!row || row.status !== 'pending' || row.expires_at <= now) throw pageErrors.expiredTransaction();
        if (params.error !== undefined || params.code === undefined) {
          await ctx.stores.deviceCodes.deny(tenant.id, row.id, now);
          return sendPage(reply, 200, activateDonePage(false));
        }
        const codeHash = secretHash(params.code);
        const code = await ctx.stores.authorizationCodes.find(tenant.id, codeHash);
        if (!code || code.client_id !== row.client_id || code.nonce !== row.id || code.used_at !== null || code.expires_at <= now) {
          throw new PageError(400, activateDonePage(false));
        }
        if (!(await ctx.stores.authorizationCodes.consume(tenant.id, codeHash, now, row.id))) throw pageErrors.expiredTransaction();
        const approved = await ctx.stores.deviceCodes.approve(tenant.id, row.id, now, {
          user_id: code.user_id,
          session_id: code.session_id,
          auth_time: code.auth_time,
          scope: code.scope,
          audience: code.audience,
          organization_id: code.organization_id,
        });
        if (!approved) throw pageErrors.expiredTransaction();
        return sendPage(reply, 200, activateDonePage(true));
      },
    },
  ];
}
