/**
 * /authorize with `login_ticket` (./ticket.ts): the login of POST
 * /co/authenticate, finished in the browser that made it.
 *
 * The ticket must be this tenant's, unexpired, the client's, for the realm
 * (or `connection`) the request names if it names one, unspent, and the
 * browser must hold its verifier; then it is spent, a session starts for its
 * user (still active) and the interaction steps go on as after a login on
 * the login page (MFA, consent). Any failure is `access_denied` to the
 * redirect target.
 *
 * A browser that did not keep the verifier cookie (third-party cookies
 * blocked when /co/authenticate set it) gets the verification page instead,
 * when the client has a `cross_origin_loc`: the page frames that location
 * (the application's page calling auth0.js's `crossOriginVerification()`)
 * with `#origin=` this tenant, asks it for the verifier auth0.js kept under
 * `co_id` (`{type: 'co_verifier_request', request: {id}}`, answered with
 * `co_verifier_response`), and posts it to POST /co/verify. That route
 * checks it against the ticket and a CSRF token bound to this browser (so
 * no other site can plant a ticket in it: a login CSRF), sets the cookie and
 * sends the browser back to the same /authorize request. Without a
 * `cross_origin_loc` such a browser is refused. (The service's own page is
 * not recorded; this follows the message protocol auth0.js implements.)
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { secretHash } from '../../domain/secrets.js';
import { isActive } from '../../domain/users/active-user.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import { scriptHash } from '../authorize/response-modes/mode.js';
import { appendCookie, bindBrowser, BROWSER_COOKIE, readCookie } from '../cookies.js';
import { answerErrorsTo } from '../error-rendering.js';
import { pageErrors } from '../errors.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { startInteraction } from '../interaction/policy.js';
import type { StepDeps } from '../interaction/step.js';
import { bareDocument, cspSourceOf, html, Html } from '../pages/html.js';
import { pageParams } from '../params.js';
import { cookieVerifier, openLoginTicket, spendLoginTicket, ticketMismatch, verifierCookie, verifierMatches, type LoginTicket } from './ticket.js';

const VERIFY_PATH = '/co/verify';
/**
 * U+2026 as an interpolated string, not in the template's text: the bundler keeps a tagged
 * template's raw text as written, and one non-Latin-1 character there makes V8 hold the whole
 * bundle's source as a two-byte string (about 2.6 MiB more resident; scripts/build-server.mjs).
 */
const ELLIPSIS = '\u2026';

/** A ticket's refusal: /authorize answers it to the request's redirect target (redeemLoginTicket chooses so). */
const refused = (description: string) => oauthErrors.accessDenied(description);

/** The verification page's one script: the message exchange with the application's cross_origin_loc frame, then the form. */
const VERIFY_SCRIPT = `(() => {
  const form = document.getElementById('co-verify');
  const frame = document.getElementById('co-frame');
  if (!(form instanceof HTMLFormElement) || !(frame instanceof HTMLIFrameElement)) return;
  const origin = form.dataset.locOrigin;
  const id = form.dataset.coId;
  window.addEventListener('message', (event) => {
    if (event.origin !== origin || event.source !== frame.contentWindow || !event.data) return;
    if (event.data.type === 'ready') {
      frame.contentWindow.postMessage({ type: 'co_verifier_request', request: { id } }, origin);
    } else if (event.data.type === 'co_verifier_response') {
      form.elements.namedItem('co_verifier').value = String((event.data.response && event.data.response.verifier) || '');
      form.submit();
    }
  });
})();`;

const formTokens = (deps: StepDeps) => deps.ctx.formTokens('gatehouse co verify');

function verificationPage(deps: StepDeps, request: FastifyRequest, reply: FastifyReply, ticket: LoginTicket, location: string, authorize: AuthorizeRequest): FastifyReply {
  const { tenant } = request;
  const locOrigin = cspSourceOf(location);
  if (locOrigin === undefined) throw refused('The login could not be verified in this browser.');
  const browser = bindBrowser(request, reply);
  const query = request.url.slice(request.url.indexOf('?') + 1);
  const csrf = formTokens(deps).token(tenant.id, secretHash(ticket.jti), browser);
  const frameSrc = `${location.split('#')[0]}#origin=${encodeURIComponent(`https://${tenant.domain}`)}`;
  const body = bareDocument(
    'Verifying your login',
    html`<p>Verifying your login${ELLIPSIS}</p>
<form id="co-verify" method="post" action="${VERIFY_PATH}" data-loc-origin="${locOrigin}" data-co-id="${ticket.co_id}">
<input type="hidden" name="authorize" value="${query}">
<input type="hidden" name="csrf_token" value="${csrf}">
<input type="hidden" name="co_verifier" value="">
</form>
<iframe id="co-frame" title="Login verification" src="${frameSrc}" style="display:none"></iframe>
<script>${new Html(VERIFY_SCRIPT)}</script>`,
  );
  const redirectOrigin = cspSourceOf(authorize.redirect_target) ?? '';
  return reply
    .code(200)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; script-src ${scriptHash(VERIFY_SCRIPT)}; style-src 'unsafe-inline'; frame-src ${locOrigin}; form-action 'self' ${redirectOrigin}; frame-ancestors 'none'`,
    )
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .send(body.value);
}

/** /authorize with `login_ticket`: the ticket's login, the verification page, or access_denied. */
export async function redeemLoginTicket(
  deps: StepDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  client: IssuanceClient,
  authorize: AuthorizeRequest,
  params: Record<string, string>,
): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = request;
  answerErrorsTo(request, authorize);
  const ticket = openLoginTicket(ctx, tenant, params.login_ticket ?? '');
  if (!ticket) throw refused('Invalid or expired login ticket.');
  const mismatch = ticketMismatch(ticket, client, params.realm ?? params.connection);
  if (mismatch !== undefined) throw refused(mismatch);
  if (!verifierMatches(ticket, cookieVerifier(request.headers.cookie))) {
    const location = client.browser.crossOriginLoc;
    if (location === undefined) throw refused('The login could not be verified in this browser (third-party cookies blocked, and the application has no cross_origin_loc).');
    return verificationPage(deps, request, reply, ticket, location, authorize);
  }
  if (!(await spendLoginTicket(ctx, tenant, ticket))) throw refused('Invalid or expired login ticket.');
  const user = await ctx.stores.users.get(tenant.id, ticket.user_id);
  if (!user || !isActive(user)) throw refused('user is blocked');
  const authenticated = await deps.sessions.start(tenant, user, reply);
  return startInteraction(deps, request, reply, client, authorize, authenticated);
}

/** POST /co/verify: the verification page's answer; the verifier cookie, then the same /authorize request again. */
export function coVerifyEndpoint(deps: StepDeps): RouteOptions {
  return {
    method: 'POST',
    url: VERIFY_PATH,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const form = pageParams(request, ['authorize', 'csrf_token', 'co_verifier']);
      // Re-encoded: whatever the form carried, the Location below holds only a well-formed query.
      const authorize = new URLSearchParams(form.authorize ?? '');
      const query = authorize.toString();
      const ticket = openLoginTicket(deps.ctx, tenant, authorize.get('login_ticket') ?? '');
      if (!ticket) throw pageErrors.expiredTransaction();
      const browser = readCookie(request.headers.cookie, BROWSER_COOKIE);
      if (browser === undefined || !formTokens(deps).matches(form.csrf_token, tenant.id, secretHash(ticket.jti), browser)) throw pageErrors.refusedForm();
      if (!verifierMatches(ticket, form.co_verifier)) throw pageErrors.expiredTransaction();
      appendCookie(reply, verifierCookie(form.co_verifier!, Math.max(1, Math.ceil((ticket.expires_at - deps.ctx.now()) / 1000))));
      return reply.code(302).header('Location', `/authorize?${query}`).header('Cache-Control', 'no-store').send();
    },
  };
}
