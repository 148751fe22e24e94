/**
 * `/continue` (actions-wire-notes §2.3): where the site a post-login action
 * sent the browser to (./redirect.ts) sends it back, by GET or POST, with the
 * `state` it was given. The state must open (this tenant's seal, not
 * expired), its transaction must be waiting for this browser and this
 * session, and its nonce must still be unspent: the first `/continue` spends
 * it. Then the redirecting action's `onContinuePostLogin` runs (with the new
 * `event.request`, and `api.redirect.validateToken` reading this request's
 * query and body), then the actions after it, and the login completes as
 * any other. A forged, expired, replayed or other browser's `/continue` is
 * refused with `invalid_request` and resumes nothing.
 *
 * A POST from the external site is cross-site, so it carries no SameSite=Lax
 * cookie: its body is sealed (bound to the state's nonce, two minutes) and
 * the browser is sent on with a 303 to the GET, which does (as the federated
 * callback's hop does, ../connections/hop.ts).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { bindBrowser } from '../cookies.js';
import { answeringErrorsTo } from '../error-rendering.js';
import { pageErrors } from '../errors.js';
import { runInteraction, transactionInteraction } from '../interaction/policy.js';
import type { StepDeps } from '../interaction/step.js';
import { pick, readBody, readQuery } from '../params.js';
import { runLoginActions, type SuspendedActions } from './login-actions.js';
import { openContinueState, type ContinueState } from './redirect.js';

const HOP_LIFETIME_MS = 120_000;
/** The most of a POSTed body carried to the GET (its parameters are for the action's validateToken). */
const MAX_BODY_BYTES = 16 * 1024;

const refused = () => pageErrors.invalidParameter('invalid_request: the state of this login is invalid, expired or already used.');

const hopContext = (tenant: Tenant, state: ContinueState) => `actions continue body:${tenant.id}:${secretHash(state.n)}`;

function stateOf(deps: StepDeps, request: FastifyRequest, params: Record<string, string>): ContinueState {
  const state = openContinueState(deps.ctx, request.tenant, params.state);
  if (!state) throw refused();
  return state;
}

/** POST /continue: the body sealed, on to the GET. */
function continuePost(deps: StepDeps, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = readBody(request);
  const { state } = pick(body, ['state'], pageErrors.invalidParameter);
  const opened = stateOf(deps, request, { ...(state !== undefined && { state }) });
  const { state: _state, ...rest } = body.values;
  const sealedBody = JSON.stringify({ body: rest, exp: deps.ctx.now() + HOP_LIFETIME_MS });
  if (Buffer.byteLength(sealedBody) > MAX_BODY_BYTES) throw pageErrors.invalidParameter('invalid_request: the body of /continue is too large.');
  const next = `/continue?${new URLSearchParams({ state: state!, body: deps.ctx.box.seal(sealedBody, hopContext(request.tenant, opened)) })}`;
  return reply.code(303).header('Location', next).header('Cache-Control', 'no-store').send();
}

function openBody(deps: StepDeps, tenant: Tenant, state: ContinueState, sealed: string | undefined): Record<string, string> {
  if (sealed === undefined) return {};
  try {
    const opened = JSON.parse(deps.ctx.box.openString(sealed, hopContext(tenant, state))) as { body: Record<string, string>; exp: number };
    if (opened.exp > deps.ctx.now()) return opened.body;
  } catch {
    // Refused below.
  }
  throw refused();
}

/** GET /continue: the suspended login goes on. */
async function continueGet(deps: StepDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const query = readQuery(request);
  const params = pick(query, ['state', 'body'], pageErrors.invalidParameter);
  const state = stateOf(deps, request, params);
  const body = openBody(deps, request.tenant, state, params.body);
  const browser = bindBrowser(request, reply);
  // Another browser, another session, a spent or expired transaction: refused before the nonce is spent.
  const interaction = await transactionInteraction(deps, request, state.t, browser, { expired: refused, invalidParameter: pageErrors.invalidParameter });
  const suspended = (await deps.transactions.resume(request.tenant, state.t, secretHash(state.n))) as unknown as SuspendedActions | undefined;
  if (!suspended) throw refused();
  const { body: _sealed, ...shown } = query.values;
  return answeringErrorsTo(request, interaction.request, async () => {
    const outcome = await runLoginActions(deps.ctx, request, interaction, {
      suspended,
      request: { state: params.state!, params: { ...shown, ...body }, query: shown, body },
    });
    return runInteraction(deps, reply, interaction, outcome);
  });
}

export function continueRoutes(deps: StepDeps): RouteOptions[] {
  return [
    { method: 'GET', url: '/continue', handler: (request, reply) => continueGet(deps, request, reply) },
    { method: 'POST', url: '/continue', handler: async (request, reply) => continuePost(deps, request, reply) },
  ];
}
