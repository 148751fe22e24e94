/**
 * Single logout of the identity provider (SAML Core §3.7, Profiles §4.4):
 *
 * - `GET|POST /samlp/{client_id}/logout` with a `LogoutRequest` (HTTP-Redirect
 *   or HTTP-POST; its signature checked with the addon's `signingCert` when
 *   there is one, and only what it covered read): when the browser's SSO
 *   session answered this SP with the request's NameID (and SessionIndex, if
 *   it names any), the session ends and its cookie is cleared; the SP gets a
 *   signed `LogoutResponse` at its `logout.callback`, by the addon's
 *   `binding` (HTTP-POST by default): `Success`, also when there was no
 *   session left to end, or `Requester` when the session is someone else's
 *   (it is then left alone). Without a `logout.callback` the request gets an
 *   error page and nothing changes.
 * - The other SPs the session answered whose addon has `logout.slo_enabled`
 *   and a `logout.callback` are told with a signed HTTP-Redirect
 *   `LogoutRequest` each (their NameID and SessionIndex), loaded in hidden
 *   frames of the page that then goes on (front-channel, as SAML
 *   Profiles §4.4.3.3 allows); `/v2/logout` tells them the same way
 *   (`samlLogoutNotices`).
 * - A `LogoutResponse` arriving here (an SP answering such a notice) ends in
 *   an empty page: there is nothing left to do.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { samlpSettings, HTTP_REDIRECT_BINDING } from '../../domain/clients/samlp-addon.js';
import type { SamlpParticipantRow, SessionRow } from '../../domain/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { scriptHash } from '../authorize/response-modes/mode.js';
import { clearedSessionCookie } from '../cookies.js';
import { pageErrors } from '../errors.js';
import type { StepDeps } from '../interaction/step.js';
import { bareDocument, cspSourceOf, html, Html, sendHtml } from '../pages/html.js';
import { pick, readQueryOrBody } from '../params.js';
import { inboundMessage, samlpClient, ssoUrl } from './endpoint.js';
import { readLogoutRequest, SamlRefusal, type LogoutRequest } from './messages.js';
import { samlIssuer } from './response.js';
import { logoutRequest, logoutResponse, redirectUrl, STATUS } from './xml-messages.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { SamlpSessionStore } from '../../domain/samlp-sessions/store.js';
import type { SessionStore } from '../../domain/sessions/store.js';

const PARAMETERS = ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg', 'Signature'];

/** What SAML logout touches. */
export interface SamlLogoutContext {
  readonly keyring: Keyring;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly stores: { readonly samlpSessions: SamlpSessionStore; readonly sessions: SessionStore };
}

/**
 * The signed HTTP-Redirect LogoutRequests that tell the SPs `session`
 * answered (but `except`) that it ended: those whose addon has
 * `logout.slo_enabled` and a `logout.callback`.
 */
export async function samlLogoutNotices(ctx: SamlLogoutContext, tenant: Tenant, session: SessionRow | undefined, except?: string): Promise<string[]> {
  if (!session) return [];
  const participants = await ctx.stores.samlpSessions.listForSession(tenant.id, session.id_hash);
  const notices: string[] = [];
  for (const participant of participants) {
    if (participant.client_id === except) continue;
    const client = await ctx.lookups.client(tenant.id, participant.client_id);
    const settings = client && samlpSettings(client.row.config);
    const callback = settings?.logout.callback;
    if (!settings?.logout.slo_enabled || callback === undefined) continue;
    const { signing } = await ctx.keyring.keys(tenant.id);
    const xml = logoutRequest(
      { issuer: samlIssuer(tenant, settings), destination: callback, nameId: participant.name_id, nameIdFormat: participant.name_id_format, sessionIndex: participant.session_index, now: ctx.now(), settings },
      undefined,
    );
    notices.push(redirectUrl(callback, 'SAMLRequest', xml, undefined, signing, settings));
  }
  return notices;
}

/** Leaves the page once every frame has loaded: the form's post, else the link's address. */
const CONTINUE_SCRIPT = "addEventListener('load',function(){var f=document.forms[0];if(f){f.submit()}else{var a=document.getElementById('continue');if(a)location.replace(a.href)}});";
const CONTINUE_SCRIPT_HASH = scriptHash(CONTINUE_SCRIPT);

/**
 * The page that tells other SPs (hidden frames, one per notice) and then goes
 * on: posts `form` to its action, or follows `next`, or stays (logged out).
 */
export function sendLogoutNotices(
  reply: FastifyReply,
  notices: readonly string[],
  next: { form: { action: string; fields: Record<string, string | undefined> } } | { url: string } | undefined,
): FastifyReply {
  const frames = notices.map((url) => html`<iframe src="${url}" title="Signing out of another application" hidden></iframe>\n`);
  const target = next === undefined ? undefined : 'form' in next ? next.form.action : next.url;
  let body: Html;
  if (next !== undefined && 'form' in next) {
    const fields = Object.entries(next.form.fields).filter((e): e is [string, string] => e[1] !== undefined);
    body = html`<h1>Signing out</h1>${frames}<form method="post" action="${next.form.action}">
${fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<noscript><button type="submit">Continue</button></noscript></form>`;
  } else if (next !== undefined) {
    body = html`<h1>Signing out</h1>${frames}<p><a id="continue" href="${next.url}">Continue</a></p>`;
  } else {
    body = html`<h1>You are logged out</h1>${frames}`;
  }
  const frameSources = [...new Set(notices.map((url) => cspSourceOf(url)).filter((s): s is string => s !== undefined))];
  const formTarget = target === undefined ? undefined : cspSourceOf(target);
  const csp = [
    "default-src 'none'",
    `frame-src ${frameSources.length > 0 ? frameSources.join(' ') : "'none'"}`,
    `form-action ${formTarget ?? "'none'"}`,
    `script-src ${CONTINUE_SCRIPT_HASH}`,
    "style-src 'unsafe-inline'",
  ].join('; ');
  return sendHtml(reply, 200, csp, bareDocument('Signing out', html`${body}<script>${new Html(CONTINUE_SCRIPT)}</script>`));
}

/** Whether the request names the login the session gave this SP. */
function namesSession(participant: SamlpParticipantRow | undefined, request: LogoutRequest): boolean {
  if (!participant || participant.name_id !== request.nameId) return false;
  return request.sessionIndexes.length === 0 || request.sessionIndexes.includes(participant.session_index);
}

export function samlpLogoutEndpoints(deps: StepDeps): RouteOptions[] {
  const handler = async (request: FastifyRequest<{ Params: { client_id: string } }>, reply: FastifyReply) => {
    const { tenant } = request;
    const { ctx } = deps;
    const params = pick(readQueryOrBody(request), PARAMETERS, pageErrors.invalidParameter);
    const clientId = request.params.client_id;
    const { settings } = await samlpClient(deps, tenant, clientId);
    const inbound = inboundMessage(request, params, 'SAMLRequest');
    if (!inbound) {
      if (params.SAMLResponse !== undefined) return sendLogoutNotices(reply, [], undefined);
      throw pageErrors.authorize('Missing SAMLRequest.');
    }
    let logout: LogoutRequest;
    try {
      logout = readLogoutRequest(inbound, settings.signingCert);
    } catch (error) {
      if (error instanceof SamlRefusal) throw pageErrors.authorize(error.message);
      throw error;
    }
    if (logout.destination !== undefined && logout.destination.split('?')[0] !== `${ssoUrl(tenant, clientId)}/logout`) {
      throw pageErrors.authorize('The Destination of the LogoutRequest is not this endpoint.');
    }
    const callback = settings.logout.callback;
    if (callback === undefined) throw pageErrors.authorize('The application has no logout callback (addons.samlp.logout.callback).');

    const session = await deps.sessions.current(tenant, request.headers.cookie);
    let code: string = STATUS.success;
    let notices: string[] = [];
    if (session) {
      const participants = await ctx.stores.samlpSessions.listForSession(tenant.id, session.id_hash);
      if (namesSession(participants.find((p) => p.client_id === clientId), logout)) {
        notices = await samlLogoutNotices(ctx, tenant, session, clientId);
        await ctx.stores.sessions.revoke(tenant.id, session.id_hash, isoAt(ctx.now()));
        reply.header('Set-Cookie', clearedSessionCookie());
      } else {
        code = STATUS.requester;
      }
    }
    const { signing } = await ctx.keyring.keys(tenant.id);
    const answer = { issuer: samlIssuer(tenant, settings), destination: callback, inResponseTo: logout.id, now: ctx.now(), code, settings };
    if (settings.binding === HTTP_REDIRECT_BINDING) {
      const url = redirectUrl(callback, 'SAMLResponse', logoutResponse(answer, undefined), params.RelayState, signing, settings);
      if (notices.length === 0) return reply.code(302).header('Location', url).header('Cache-Control', 'no-store').send();
      return sendLogoutNotices(reply, notices, { url });
    }
    const response = Buffer.from(logoutResponse(answer, signing), 'utf8').toString('base64');
    return sendLogoutNotices(reply, notices, { form: { action: callback, fields: { SAMLResponse: response, RelayState: params.RelayState } } });
  };
  return [
    { method: 'GET', url: '/samlp/:client_id/logout', handler },
    { method: 'POST', url: '/samlp/:client_id/logout', handler },
  ] as RouteOptions[];
}
