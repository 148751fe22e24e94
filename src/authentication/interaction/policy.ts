/**
 * Runs the interaction steps (./step.ts) of an authorization request, in
 * their order: the first that has something to do sends the browser to its
 * page (keeping the request as a transaction bound to this browser), or,
 * under `prompt=none`, its error to the client; when none has, the
 * transaction is spent and the authorization response sent through the
 * request's response mode.
 *
 * The pages of the steps load their interaction here (`stepPage`): the
 * transaction of the page's `state`, usable only from the browser that
 * started it, and the login it is answered for. Once a step completed with a
 * logged-in user, the transaction keeps that session and later pages accept
 * only it: a page cannot be finished with another login than the one the
 * request went through (`prompt=login`, `max_age`). A page that is not the
 * request's current step (the back button, a bookmarked page) runs the
 * policy again, which leads to the current one.
 *
 * An error of the steps or of issuing the response (an unknown audience,
 * found while working out scopes, is the token layer's OAuthError) goes back
 * to the client's redirect target (../error-rendering.ts).
 */
import type { RenderingFacts } from '../../domain/branding/rendering.js';
import { renderingFacts } from './rendering-facts.js';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { oauthErrors } from '../../platform/http/errors.js';
import { actionsWantSecondFactor, runLoginActions } from '../actions/login-actions.js';
import { suspendLogin } from '../actions/redirect.js';
import type { PostLoginOutcome } from '../../domain/actions-runtime/triggers/post-login.js';
import { MULTI_FACTOR_ACR } from './acr.js';
import { authorizationResponse } from '../authorize/response.js';
import { sendAuthorizationResponse } from '../authorize/response-modes/index.js';
import { bindBrowser, BROWSER_COOKIE, readCookie } from '../cookies.js';
import { answeringErrorsTo } from '../error-rendering.js';
import { pageErrors } from '../errors.js';
import { pageParams } from '../params.js';
import type { Interaction, StepDeps, InteractionStep, ProtocolResponse } from './step.js';


/** 302 to one of the hosted pages of a transaction. */
function redirectToPage(reply: FastifyReply, path: string, transactionId: string): FastifyReply {
  return reply.code(302).header('Location', `${path}?state=${encodeURIComponent(transactionId)}`).header('Cache-Control', 'no-store').send();
}

/** The module answering a request of another protocol; undefined for an authorization request. */
function protocolOf(deps: StepDeps, interaction: Interaction): ProtocolResponse | undefined {
  const name = interaction.request.protocol?.name;
  if (name === undefined) return undefined;
  const protocol = deps.protocols.find((p) => p.name === name);
  if (!protocol) throw new Error(`no protocol response is registered for ${name}`);
  return protocol;
}

/** The first step with something to do; an error of a step's check goes back to the client. */
function firstNeeded(deps: StepDeps, http: FastifyRequest, interaction: Interaction): Promise<InteractionStep | undefined> {
  return answeringErrorsTo(http, interaction.request, async () => {
    const skipped = protocolOf(deps, interaction)?.skipsSteps ?? [];
    for (const step of deps.steps) {
      if (skipped.includes(step.name)) continue;
      if (!interaction.completed.includes(step.name) && (await step.needed(deps, interaction))) return step;
    }
    return undefined;
  });
}

/**
 * `decided`: the post-login actions already ran for this login (resumed at
 * `/continue`, ../actions/continue.ts): their outcome, not run again.
 */
export async function runInteraction(deps: StepDeps, reply: FastifyReply, interaction: Interaction, decided?: PostLoginOutcome): Promise<FastifyReply> {
  const { ctx, transactions } = deps;
  const { tenant, request } = interaction;
  return answeringErrorsTo(reply.request, request, async () => {
    const step = await firstNeeded(deps, reply.request, interaction);
    if (step) {
      if (request.prompt === 'none') throw oauthErrors.authorizationRequest(step.promptNone.error, step.promptNone.description);
      const id = interaction.transactionId ?? (await transactions.start(tenant, request, interaction.browser));
      return redirectToPage(reply, step.page(interaction), id);
    }
    if (!interaction.authenticated) throw new Error('the interaction steps ended without a logged-in user');
    const protocol = protocolOf(deps, interaction);
    const actions = protocol ? undefined : (decided ?? (await runLoginActions(ctx, reply.request, interaction)));
    if (actions?.interactionRequired) throw oauthErrors.authorizationRequest('interaction_required', 'An action redirects the login, which prompt=none does not allow');
    // An action sends the browser away: the login waits for /continue.
    if (actions?.redirect) return await suspendLogin(deps, reply, interaction, actions);
    if (actionsWantSecondFactor(actions, interaction)) {
      // Asked again after the MFA step was offered: no factor the user could use (the service: the login fails).
      if (request.acr_values?.split(' ').includes(MULTI_FACTOR_ACR)) throw oauthErrors.accessDenied('An action requires a second factor, but no MFA factor is enabled for the tenant');
      // The MFA step, in a transaction whose request asks for it; the actions run again once it is done.
      const acr = [request.acr_values, MULTI_FACTOR_ACR].filter((value) => value !== undefined).join(' ');
      const { transactionId: _replaced, ...rest } = interaction;
      return runInteraction(deps, reply, { ...rest, request: { ...request, acr_values: acr } });
    }
    if (interaction.transactionId !== undefined && !(await transactions.consume(tenant, interaction.transactionId))) throw pageErrors.expiredTransaction();
    if (protocol) return await protocol.respond(deps, reply, interaction);
    return sendAuthorizationResponse(reply, request, await authorizationResponse(ctx, tenant, interaction.client, request, interaction.authenticated, actions));
  });
}

/**
 * Hands a request that its endpoint validated (/authorize, /samlp) to the
 * steps, with the browser's usable login if any; no transaction yet.
 */
export function startInteraction(
  deps: StepDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  client: Interaction['client'],
  authorize: Interaction['request'],
  authenticated: Interaction['authenticated'],
): Promise<FastifyReply> {
  return runInteraction(deps, reply, {
    tenant: request.tenant,
    client,
    request: authorize,
    browser: bindBrowser(request, reply),
    completed: [],
    ...(request.headers.cookie !== undefined && { cookies: request.headers.cookie }),
    ...(authenticated && { authenticated }),
  });
}

/** The step `name` is done: kept on the transaction (with the login it was done as), then the policy goes on. */
export async function completeStep(deps: StepDeps, reply: FastifyReply, interaction: Interaction, name: string): Promise<FastifyReply> {
  const completed = [...interaction.completed, name];
  if (interaction.transactionId !== undefined) {
    const recorded = await deps.transactions.record(interaction.tenant, interaction.transactionId, completed, interaction.authenticated?.session.id_hash);
    if (!recorded) throw pageErrors.expiredTransaction();
  }
  return runInteraction(deps, reply, { ...interaction, completed });
}

/**
 * The interaction of a step's page: its transaction (else the expired-login
 * page) and its login. A form post's CSRF token is checked first (else the
 * refused page). When the step is not the request's current one the policy
 * answers instead (`{ reply }`).
 */
export async function stepPage(
  deps: StepDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  step: string,
): Promise<{ interaction: Interaction } | { reply: FastifyReply }> {
  const { interaction, current } = await stepInteraction(deps, request, reply);
  if (current?.name !== step) return { reply: await runInteraction(deps, reply, interaction) };
  return { interaction };
}

/** How a step's route refuses a request with no usable transaction: the hosted pages' pages, or an API's JSON. */
export interface StepRefusals {
  /** No such login is waiting in this browser (unknown, expired, spent, another browser's or session's). */
  expired: () => Error;
  /** A repeated or structured `state` or `csrf_token`. */
  invalidParameter: (message: string) => Error;
}

const PAGE_REFUSALS: StepRefusals = { expired: pageErrors.expiredTransaction, invalidParameter: pageErrors.invalidParameter };

/**
 * The interaction of the request's transaction and this browser, bound as
 * stepPage binds it, and the step it is at (undefined: none is left), for a
 * route that only looks (the push waiting page's status) and must not run
 * the policy.
 */
export async function stepInteraction(
  deps: StepDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  refusals: StepRefusals = PAGE_REFUSALS,
): Promise<{ interaction: Interaction; current: InteractionStep | undefined }> {
  const { tenant } = request;
  const form = request.method === 'POST';
  const { state, csrf_token: csrf } = pageParams(request, ['state', 'csrf_token'], refusals.invalidParameter);
  if (!state) throw refusals.expired();
  const browser = form ? readCookie(request.headers.cookie, BROWSER_COOKIE) : bindBrowser(request, reply);
  if (form && !deps.transactions.csrfMatches(tenant, state, browser, csrf)) throw pageErrors.refusedForm();
  const interaction = await transactionInteraction(deps, request, state, browser, refusals);
  return { interaction, current: await firstNeeded(deps, request, interaction) };
}

/**
 * The interaction of transaction `id` for this browser, with the login it is
 * answered for: once a step completed with a session, only that session
 * (else `refusals.expired`).
 */
export async function transactionInteraction(deps: StepDeps, request: FastifyRequest, id: string, browser: string | undefined, refusals: StepRefusals = PAGE_REFUSALS): Promise<Interaction> {
  const { tenant } = request;
  const transaction = await deps.transactions.find(tenant, id, browser);
  if (!transaction || browser === undefined) throw refusals.expired();
  let authenticated;
  if (transaction.sessionHash !== undefined) {
    authenticated = await deps.sessions.user(tenant, request.headers.cookie);
    if (authenticated?.session.id_hash !== transaction.sessionHash) throw refusals.expired();
  } else {
    authenticated = await deps.sessions.usable(tenant, transaction.client, transaction.request, request.headers.cookie);
  }
  if (transaction.request.ui_locales !== undefined) request.uiLocales = transaction.request.ui_locales;
  const interaction: Interaction = {
    tenant,
    client: transaction.client,
    request: transaction.request,
    browser,
    transactionId: transaction.id,
    completed: transaction.completed,
    ...(request.headers.cookie !== undefined && { cookies: request.headers.cookie }),
    ...(authenticated && { authenticated }),
  };
  let facts: Promise<RenderingFacts> | undefined;
  request.renderingFacts = () => (facts ??= renderingFacts(deps.ctx, interaction));
  return interaction;
}

/** The CSRF token of the transaction's forms, for this browser. */
export function csrfToken(deps: StepDeps, interaction: Interaction): string {
  return deps.transactions.csrfToken(interaction.tenant, interaction.transactionId!, interaction.browser);
}

/** A route of step `step`'s page: `handle` runs only when the request is at that step (see stepPage). */
export function stepRoute(
  deps: StepDeps,
  step: string,
  method: 'GET' | 'POST',
  url: string,
  handle: (interaction: Interaction, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
): RouteOptions {
  return {
    method,
    url,
    handler: async (request, reply) => {
      const page = await stepPage(deps, request, reply, step);
      return 'reply' in page ? page.reply : handle(page.interaction, request, reply);
    },
  };
}
