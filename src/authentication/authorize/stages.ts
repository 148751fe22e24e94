/**
 * The authorization-request family as one table of named stages, each marked
 * with the endpoints it runs on, as node-oidc-provider builds its
 * authorization endpoints (lib/actions/authorization/index.js,
 * `use(() => checkClient, A, DA, PAR, BA)`):
 *
 * - A: GET /authorize (RFC 6749 §4.1.1; OIDC Core §3), and
 *   /passwordless/verify_redirect, whose query is an authorization request too;
 * - PAR: POST /oauth/par (RFC 9126);
 * - BA: POST /bc-authorize (OpenID CIBA Core §7);
 * - DA: POST /oauth/device/code (RFC 8628 §3.1).
 *
 * Each endpoint reads exactly the parameters of its list (PARAMETERS), a
 * named one sent twice refused in one place (../params.ts `pick`; RFC 6749
 * §3.1), others ignored. The stages throw OAuthErrors and the endpoint
 * renders them (../error-rendering.ts): /authorize answers with an error
 * page until the redirect target is trusted, then to that target; the
 * others with OAuth JSON; the audience is checked by one stage
 * (`checkResource`); response types and modes come from the registries
 * discovery lists (./request.ts `ResponseSupport`). An endpoint runs its
 * stages in the table's order, then does what is its own (keep the pushed
 * request, start the interaction, ask the user on a channel, keep the
 * device codes).
 *
 * A stage takes only the parts of the context it uses.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { audienceApi } from '../../domain/issuance/audience.js';
import type { IssuanceClient, IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { UserRow } from '../../domain/rows.js';
import type { Stores } from '../../domain/stores.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { checkBindingMessage, checkCibaScope, checkRequestedExpiry, hintedUser } from '../ciba/request.js';
import { authenticateClient as authenticateWith, clientAuthenticationParameters, type ClientAuthenticationContext } from '../client-auth/authenticate.js';
import type { AuthenticatedClient, ClientAuthMethod } from '../client-auth/method.js';
import { answerErrorsTo, answerErrorsWithPage } from '../error-rendering.js';
import { pick, readBody, readQuery } from '../params.js';
import type { DpopContext } from '../sender-constraint/dpop.js';
import { proofOfPossession } from '../sender-constraint/token-proof.js';
import { CIBA_GRANT } from '../token/grants/ciba.js';
import { DEVICE_CODE_GRANT } from '../token/grants/device-code.js';
import { pushedParameters, requiresPushedRequests } from './pushed.js';
import { withRequestObject } from './request-object.js';
import { checkWebMessageOrigin, resolveRedirectTarget, responseModeOf, validateAuthorizeRequest, type AuthorizeRequest, type ResponseSupport } from './request.js';

export const A = 'authorize';
export const PAR = 'par';
export const BA = 'backchannel_authentication';
export const DA = 'device_authorization';
export type AuthorizationEndpoint = typeof A | typeof PAR | typeof BA | typeof DA;

/** The parameters of an authorization request, pushed or not (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1, RFC 9101, RFC 9449 §10, the service's extensions). */
const AUTHORIZATION_REQUEST_PARAMETERS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'audience',
  'prompt',
  'max_age',
  'ui_locales',
  'login_hint',
  'acr_values',
  'code_challenge',
  'code_challenge_method',
  'dpop_jkt',
  'request',
  'connection',
  'screen_hint',
  'organization',
  'invitation',
] as const;

/** Each endpoint's parameters (client authentication's come from the registry's methods). */
export const PARAMETERS: Readonly<Record<AuthorizationEndpoint, readonly string[]>> = {
  // request_uri names a pushed request (RFC 9126 §4); login_ticket and realm finish a cross-origin login (../cross-origin/redeem.ts).
  [A]: [...AUTHORIZATION_REQUEST_PARAMETERS, 'request_uri', 'login_ticket', 'realm'],
  // request_uri is read to be refused (RFC 9126 §2.1).
  [PAR]: [...AUTHORIZATION_REQUEST_PARAMETERS, 'request_uri'],
  [BA]: ['scope', 'login_hint', 'binding_message', 'requested_expiry', 'audience'],
  [DA]: ['scope', 'audience'],
};

/** What the stages found out, read by the endpoint once they ran. */
export interface AuthorizationState {
  readonly endpoint: AuthorizationEndpoint;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly tenant: Tenant;
  /** The endpoint's parameters (at /authorize: a pushed request's, or with a request object's members over them). */
  params: Record<string, string>;
  /** The client, authenticated at the back-channel endpoints (PAR, BA, DA). */
  client?: IssuanceClient;
  authenticated?: AuthenticatedClient;
  /** The parameters are a pushed request's (A with a request_uri). */
  pushed?: boolean;
  /** The trusted redirect target (A, PAR). */
  redirectTarget?: string;
  /** The validated authorization request (A, PAR). */
  authorize?: AuthorizeRequest;
  /** The requested audience, checked (A, BA, DA). */
  audience?: string;
  /** The CIBA request's checked parts (BA). */
  backchannel?: { scope: string; bindingMessage: string; expiresIn: number; user: UserRow };
}

/** A stage is a named function of the state; its name is the step's name in stack traces. */
export type StageFunction = (state: AuthorizationState) => void | Promise<void>;

export interface Stage {
  readonly run: StageFunction;
  readonly endpoints: ReadonlySet<AuthorizationEndpoint>;
}

const use = (run: StageFunction, ...endpoints: AuthorizationEndpoint[]): Stage => ({ run, endpoints: new Set(endpoints) });

const client = (state: AuthorizationState): IssuanceClient => state.client!;

/** /authorize answers errors with a page until its redirect target is trusted (../error-rendering.ts). */
function errorPageUntilTrusted(state: AuthorizationState): void {
  answerErrorsWithPage(state.request);
}

/** From here on /authorize answers errors to the trusted redirect target, in the mode the request asked for. */
function answerToRedirectTarget(supported: ResponseSupport): StageFunction {
  return function answerToRedirectTarget(state) {
    const { params } = state;
    answerErrorsTo(state.request, { redirect_target: state.redirectTarget!, response_mode: responseModeOf(params, supported), ...(params.state !== undefined && { state: params.state }) });
  };
}

function readParameters(clientAuthMethods: readonly ClientAuthMethod[], extra: readonly string[]): StageFunction {
  const authentication = clientAuthenticationParameters(clientAuthMethods);
  const names: Record<AuthorizationEndpoint, readonly string[]> = {
    [A]: [...PARAMETERS[A], ...extra],
    [PAR]: [...authentication, ...PARAMETERS[PAR]],
    [BA]: [...authentication, ...PARAMETERS[BA]],
    [DA]: [...authentication, ...PARAMETERS[DA]],
  };
  return function readParameters(state) {
    const raw = state.endpoint === A ? readQuery(state.request) : readBody(state.request);
    state.params = { ...pick(raw, new Set(names[state.endpoint])) };
  };
}

function authenticate(ctx: ClientAuthenticationContext, clientAuthMethods: readonly ClientAuthMethod[]): StageFunction {
  return async function authenticateClient(state) {
    state.authenticated = await authenticateWith(clientAuthMethods, ctx, state.tenant, state.request, state.params);
    state.client = state.authenticated.client;
  };
}

function findClient({ lookups }: { readonly lookups: IssuanceLookups }): StageFunction {
  return async function checkClient(state) {
    const clientId = state.params.client_id;
    if (!clientId) throw oauthErrors.invalidRequest('Missing required parameter: client_id');
    const found = await lookups.client(state.tenant.id, clientId);
    if (!found) throw oauthErrors.invalidRequest('Unknown client.');
    state.client = found;
  };
}

/** The grant each back-channel endpoint starts (its token request redeems it). */
const GRANT_OF: Partial<Record<AuthorizationEndpoint, string>> = { [BA]: CIBA_GRANT, [DA]: DEVICE_CODE_GRANT };

/** The client may use the grant the endpoint starts; a CIBA client is confidential (CIBA Core §4). */
function checkClientGrant(state: AuthorizationState): void {
  const grant = GRANT_OF[state.endpoint]!;
  if (state.endpoint === BA && !state.authenticated!.confidential) throw oauthErrors.unauthorizedClient(`Grant type '${grant}' not allowed for public clients.`);
  if (!client(state).grantTypes.has(grant)) throw oauthErrors.unauthorizedClient(`Grant type '${grant}' not allowed for the client.`);
}

/** What is pushed: the request's parameters without the client's credentials, never a request_uri (RFC 9126 §2.1). */
function pushableParameters(clientAuthMethods: readonly ClientAuthMethod[]): StageFunction {
  const authentication = new Set(clientAuthenticationParameters(clientAuthMethods));
  return function checkPushable(state) {
    if (state.params.request_uri !== undefined) throw oauthErrors.invalidRequest('request_uri cannot be pushed.');
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(state.params)) if (!authentication.has(name)) params[name] = value;
    params.client_id = client(state).row.client_id;
    state.params = params;
  };
}

/** A request_uri's pushed parameters (./pushed.ts); a client that must push may send nothing else. */
function loadPushedRequest(deps: { readonly now: () => number } & { stores: Pick<Stores, 'pushedRequests'> }): StageFunction {
  return async function loadPushedRequest(state) {
    const { params } = state;
    if (params.request_uri !== undefined) {
      if (params.request !== undefined) throw oauthErrors.invalidRequest('request and request_uri cannot be sent together.');
      state.params = await pushedParameters(deps, state.tenant, client(state), params.request_uri);
      state.pushed = true;
      return;
    }
    if (requiresPushedRequests(client(state))) throw oauthErrors.invalidRequest('This client must use pushed authorization requests (request_uri from /oauth/par).');
  };
}

/** A signed request object's members over the parameters (./request-object.ts); not after a pushed request (verified when pushed). */
function readRequestObject(deps: { readonly now: () => number } & { stores: Pick<Stores, 'oneTimeUses'> }): StageFunction {
  return async function readRequestObject(state) {
    if (state.pushed) return;
    state.params = await withRequestObject(deps, state.tenant, client(state), state.params);
  };
}

/** A DPoP proof sent with a pushed request binds its code to the proof's key (RFC 9449 §10.1); a dpop_jkt beside it must name the same key. */
function bindDpopKey(ctx: DpopContext): StageFunction {
  return async function bindDpopKey(state) {
    const { tenant, request, reply } = state;
    const confirmation = await proofOfPossession(ctx, tenant, request, reply, client(state), `${tenant.issuer}oauth/par`, {
      // The tokens are constrained at the token endpoint; pushing without a proof leaves the code unbound.
      enforceClientRequirement: false,
    });
    if (confirmation?.jkt === undefined) return;
    if (state.params.dpop_jkt !== undefined && state.params.dpop_jkt !== confirmation.jkt) throw oauthErrors.invalidDpopProof('dpop_jkt does not match the DPoP proof');
    state.params.dpop_jkt = confirmation.jkt;
  };
}

/** The redirect target, trusted from here on (./request.ts stage 1). */
function checkRedirectUri(state: AuthorizationState): void {
  state.redirectTarget = resolveRedirectTarget(client(state), state.params.redirect_uri);
  checkWebMessageOrigin(client(state), state.params, state.redirectTarget);
}

/** The rest of the request (./request.ts stage 2), against the registries' response types and modes. */
function checkAuthorizationRequest(supported: ResponseSupport): StageFunction {
  return function checkAuthorizationRequest(state) {
    state.authorize = validateAuthorizeRequest(client(state), state.params, state.redirectTarget!, supported);
  };
}

function checkBackchannelRequest(deps: { stores: Pick<Stores, 'users'> }): StageFunction {
  return async function checkBackchannelRequest(state) {
    const scope = checkCibaScope(state.params);
    const bindingMessage = checkBindingMessage(state.params);
    const expiresIn = checkRequestedExpiry(state.params);
    const user = await hintedUser(deps, state.tenant, state.params);
    state.backchannel = { scope, bindingMessage, expiresIn, user };
  };
}

/**
 * The audience names an API of the tenant (checked once for the family, by
 * the Authentication API's one audience check, domain/issuance/audience.ts):
 * the requested one at /authorize, the requested one or the tenant's default
 * at the back-channel endpoints.
 */
function checkResource({ lookups }: { readonly lookups: IssuanceLookups }): StageFunction {
  return async function checkResource(state) {
    const { tenant } = state;
    const audience = state.endpoint === A ? state.authorize!.audience : (state.params.audience ?? tenant.settings.default_audience);
    if (audience !== undefined) await audienceApi(lookups, tenant.id, audience);
    state.audience = state.endpoint === A ? state.authorize!.audience : state.params.audience;
  };
}

/** What the stages touch, each taking its part. */
export interface StageContext extends ClientAuthenticationContext, DpopContext {
  readonly stores: ClientAuthenticationContext['stores'] & DpopContext['stores'] & Pick<Stores, 'pushedRequests' | 'users'>;
}

export interface StageDependencies {
  ctx: StageContext;
  clientAuthMethods: readonly ClientAuthMethod[];
  responses: ResponseSupport;
  /** Parameters an endpoint of the A family reads besides the request's (verify_redirect's email and code). */
  extraParameters?: readonly string[];
}

/** The table: every stage of the family, in order, with the endpoints it runs on. */
export function authorizationStages({ ctx, clientAuthMethods, responses, extraParameters = [] }: StageDependencies): readonly Stage[] {
  return [
    use(errorPageUntilTrusted, A),
    use(readParameters(clientAuthMethods, extraParameters), A, PAR, BA, DA),
    use(authenticate(ctx, clientAuthMethods), PAR, BA, DA),
    use(findClient(ctx), A),
    use(checkClientGrant, BA, DA),
    use(pushableParameters(clientAuthMethods), PAR),
    use(loadPushedRequest(ctx), A),
    use(readRequestObject(ctx), A, PAR),
    use(bindDpopKey(ctx), PAR),
    use(checkRedirectUri, A, PAR),
    use(answerToRedirectTarget(responses), A),
    use(checkAuthorizationRequest(responses), A, PAR),
    use(checkBackchannelRequest(ctx), BA),
    use(checkResource(ctx), A, BA, DA),
  ];
}

/** Runs an endpoint's stages of the table, in order, on a request. */
export type AuthorizationPipeline = (request: FastifyRequest, reply: FastifyReply) => Promise<AuthorizationState>;

export function authorizationPipeline(endpoint: AuthorizationEndpoint, dependencies: StageDependencies): AuthorizationPipeline {
  const stages = authorizationStages(dependencies).filter((stage) => stage.endpoints.has(endpoint));
  return async (request, reply) => {
    const state: AuthorizationState = { endpoint, request, reply, tenant: request.tenant, params: {} };
    for (const stage of stages) await stage.run(state);
    return state;
  };
}
