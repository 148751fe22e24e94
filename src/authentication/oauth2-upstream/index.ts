/**
 * Logging in through a social provider: the OAuth 2.0 authorization code
 * flow toward it with openid-client as the relying-party library, shared by
 * the social strategies (../social-connections/, one provider module each).
 * A provider is either an OpenID provider (`protocol: 'oidc'`: its issuer's
 * discovery document gives the endpoints and keys, an id_token is required
 * and verified) or plain OAuth 2.0 (`protocol: 'oauth2'`: fixed endpoints,
 * then its profile API). Every call to the provider goes through the
 * outbound guard (src/platform/http/upstream-fetch.ts: public addresses
 * unless GATEHOUSE_OUTBOUND_ALLOW, https, 1 MiB, 10 s). The provider's
 * endpoints are its own unless GATEHOUSE_FEDERATION_ENDPOINTS replaces them
 * (src/platform/federation-endpoints.ts; tests and staging).
 *
 * - `start`: the browser goes to the authorization endpoint with
 *   `redirect_uri=https://{domain}/login/callback`, the connection's
 *   scopes, PKCE S256 (an OpenID provider: when it advertises it; OAuth 2.0:
 *   when the provider module says it takes it), a nonce toward an OpenID
 *   provider, the connection's `upstream_params`, and a `state` that is
 *   `{strategy}~` then the transaction, the connection, the nonce and the
 *   verifier sealed (AES-GCM under the master key, bound to the tenant) for
 *   ten minutes.
 * - The callback (GET, or the cross-site form POST of Apple): the state
 *   opened and used once; the connection and the transaction it names (never
 *   a parameter of the callback); an `error` answers the application with
 *   `access_denied` and its state; else openid-client's checks (`state`,
 *   RFC 9207 `iss`, the code exchanged with the verifier; for an OpenID
 *   provider the id_token's signature against its JWKS with its advertised
 *   asymmetric algorithms only, `iss`, `aud`, `exp`, `nonce`), then the
 *   provider's profile. Any refusal is an error page: no user, no session.
 * - The user `{strategy}|{id}` is made or refreshed (per
 *   `set_user_root_attributes`; never found by email) and the login
 *   finishes through the sealed hop (../connections/hop.ts), where only the
 *   browser that started it can.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { rootAttributesSync } from '../../domain/connections/social-options.js';
import type { SocialStrategy } from '../../domain/connections/strategies/social.js';
import type { Logger } from 'pino';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';
import type { UserStore } from '../../domain/users/store.js';
import type { Config } from '../../platform/config.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { upsertFederatedUser, type FederatedProfile } from '../../domain/users/federated-user.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { FederationEndpoints } from '../../platform/federation-endpoints.js';
import { upstreamFetch, type UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import { sendHop } from '../connections/hop.js';
import { sendToUpstream } from '../connections/upstream-redirect.js';
import { AuthorizationErrorResponse, pageErrors } from '../errors.js';
import type { ConnectionLogin, Interaction, InteractionDeps } from '../interaction/step.js';
import { pick, readBody, readQuery } from '../params.js';

const STATE_TTL_MS = 600_000;
const DISCOVERY_TTL_MS = 600_000;
const STATE_MAX = 2048;
const ID_TOKEN_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const DENIED = 'User did not authorize the request';
/** What a provider's answer at the callback may carry (Apple's `user`; Google's echoes; Facebook's `error_reason`). */
const CALLBACK_PARAMS = ['state', 'code', 'iss', 'error', 'error_description', 'error_reason', 'user', 'scope', 'authuser', 'prompt', 'hd'];

/** What the provider module is given once the code is exchanged. */
export interface UpstreamAnswer {
  options: Readonly<Record<string, unknown>>;
  tokens: client.TokenEndpointResponse;
  /** The verified id_token's claims (an OpenID provider). */
  claims: Record<string, unknown> | undefined;
  /** The callback's parameters (Apple's `user`). */
  callback: Readonly<Record<string, string | undefined>>;
  /** GET `{api_base}{path}` with the access token, as JSON (a status other than 200 is a failure). */
  api(path: string, headers?: Record<string, string>): Promise<unknown>;
}

/** The identity a provider's answer names, and its normalised profile. */
export interface UpstreamIdentity {
  id: string;
  profile: FederatedProfile;
}

export interface SocialProvider {
  readonly strategy: SocialStrategy;
  readonly protocol: 'oidc' | 'oauth2';
  /** Its own endpoints: an OpenID provider's `issuer`; OAuth 2.0's `authorization_endpoint`, `token_endpoint` (and `api_base`). */
  readonly endpoints: Readonly<FederationEndpoints>;
  /** OAuth 2.0 providers that take PKCE (an OpenID provider's discovery says). */
  readonly pkce?: boolean;
  /** The scope parameter of the authorization request, from the connection's options. */
  scope(options: Readonly<Record<string, unknown>>): string;
  /** Further parameters of the authorization request (Google's `access_type`, Apple's `response_mode`). */
  authorizationParams?(options: Readonly<Record<string, unknown>>): Record<string, string>;
  /** The client secret toward the provider (Apple's signed JWT); default `client_secret`. */
  clientSecret?(options: Readonly<Record<string, unknown>>, audience: string): Promise<string>;
  /** The profile members the provider sends on the first login only (Apple's name): kept from the user when absent later. */
  readonly firstLoginOnly?: readonly (keyof FederatedProfile)[];
  identity(answer: UpstreamAnswer): Promise<UpstreamIdentity>;
}

/** What a social login's start and callback touch (the sealed hop's own is the interaction's). */
export interface SocialLoginContext {
  readonly box: SecretBox;
  readonly logger: Logger;
  readonly now: () => number;
  readonly config: Pick<Config, 'outbound' | 'federationEndpoints'>;
  readonly stores: {
    readonly authorizeTransactions: AuthorizationRequestStore;
    readonly connections: ConnectionStore;
    readonly oneTimeUses: OneTimeUseStore;
    readonly users: UserStore;
  };
}

/** What the sealed state carries to the callback. */
interface LoginState {
  /** The transaction id, the connection id. */
  tx: string;
  conn: string;
  nonce?: string;
  verifier?: string;
  exp: number;
}

/** The provider's metadata as openid-client takes it, and where its profile API is. */
interface Upstream {
  server: client.ServerMetadata;
  apiBase: string | undefined;
}

export const callbackUrl = (tenant: Tenant) => `https://${tenant.domain}/login/callback`;
const stateContext = (tenant: Tenant) => `social connection state:${tenant.id}`;
const failed = (message: string) => pageErrors.authorize(message);

let guarded: { policy: unknown; fetch: UpstreamFetch } | undefined;
function guardedFetch(ctx: SocialLoginContext): UpstreamFetch {
  if (guarded?.policy !== ctx.config.outbound) guarded = { policy: ctx.config.outbound, fetch: upstreamFetch({ outbound: ctx.config.outbound }) };
  return guarded.fetch;
}

/** Discovery documents read, by issuer, for ten minutes (an issuer is the provider's or the operator's, never a tenant's). */
const discovered = new Map<string, { server: client.ServerMetadata; until: number }>();

async function discover(ctx: SocialLoginContext, issuer: string): Promise<client.ServerMetadata> {
  const cached = discovered.get(issuer);
  if (cached && cached.until > ctx.now()) return cached.server;
  const answer = await guardedFetch(ctx)(`${issuer}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`the discovery document answered ${answer.status}`);
  const server = (await answer.json()) as client.ServerMetadata;
  if (server.issuer !== issuer) throw new Error(`the discovery document names the issuer ${String(server.issuer)}`);
  discovered.set(issuer, { server, until: ctx.now() + DISCOVERY_TTL_MS });
  return server;
}

/** The provider's endpoints: its own, or those GATEHOUSE_FEDERATION_ENDPOINTS names for its strategy. */
async function upstreamOf(ctx: SocialLoginContext, provider: SocialProvider): Promise<Upstream> {
  const endpoints = { ...provider.endpoints, ...ctx.config.federationEndpoints?.overrides[provider.strategy.name] };
  if (provider.protocol === 'oidc') {
    const server = await discover(ctx, endpoints.issuer!);
    const advertised = server.id_token_signing_alg_values_supported ?? ['RS256'];
    const algs = advertised.filter((alg) => ID_TOKEN_ALGS.includes(alg));
    return { server: { ...server, id_token_signing_alg_values_supported: algs.length > 0 ? algs : ['RS256'] }, apiBase: endpoints.api_base };
  }
  const server = { issuer: new URL(endpoints.authorization_endpoint!).origin, authorization_endpoint: endpoints.authorization_endpoint!, token_endpoint: endpoints.token_endpoint! };
  return { server, apiBase: endpoints.api_base };
}

async function configuration(ctx: SocialLoginContext, provider: SocialProvider, upstream: Upstream, options: Readonly<Record<string, unknown>>): Promise<client.Configuration> {
  const clientId = typeof options.client_id === 'string' ? options.client_id : '';
  // The service's "developer keys" (an empty client_id) do not exist here: such a connection cannot log in.
  if (clientId === '') throw failed('This connection has no client_id at its identity provider.');
  const secret = provider.clientSecret ? await provider.clientSecret(options, upstream.server.issuer) : typeof options.client_secret === 'string' ? options.client_secret : '';
  const config = new client.Configuration(upstream.server, clientId, { client_secret: secret }, client.ClientSecretPost(secret));
  const fetch = guardedFetch(ctx);
  config[client.customFetch] = (url, init) => fetch(url, { method: init.method, headers: init.headers as Record<string, string>, body: init.body as string | null, signal: init.signal ?? null });
  return config;
}

function usesPkce(provider: SocialProvider, upstream: Upstream): boolean {
  if (provider.protocol === 'oauth2') return provider.pkce === true;
  return (upstream.server.code_challenge_methods_supported ?? []).includes('S256');
}

async function start(provider: SocialProvider, deps: InteractionDeps, interaction: Interaction, reply: FastifyReply, connection: ConnectionRow, how: { fromForm?: boolean }): Promise<FastifyReply> {
  const { ctx } = deps;
  const options = connection.options;
  let upstream: Upstream;
  let config: client.Configuration;
  try {
    upstream = await upstreamOf(ctx, provider);
    config = await configuration(ctx, provider, upstream, options);
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) throw error;
    deps.ctx.logger.warn({ connection: connection.name, reason: (error as Error).message }, 'the identity provider could not be reached');
    throw failed('The identity provider cannot be reached.');
  }
  const state: LoginState = { tx: interaction.transactionId!, conn: connection.id, exp: ctx.now() + STATE_TTL_MS };
  const params: Record<string, string> = {};
  const upstreamParams = (options.upstream_params ?? {}) as Record<string, { value?: string; alias?: string }>;
  for (const [name, spec] of Object.entries(upstreamParams)) {
    const value = spec.value ?? (spec.alias === undefined ? undefined : (interaction.request as unknown as Record<string, unknown>)[spec.alias]);
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  Object.assign(params, provider.authorizationParams?.(options), { redirect_uri: callbackUrl(interaction.tenant), response_type: 'code' });
  const scope = provider.scope(options);
  if (scope !== '') params.scope = scope;
  if (provider.protocol === 'oidc') params.nonce = state.nonce = client.randomNonce();
  if (usesPkce(provider, upstream)) {
    state.verifier = client.randomPKCECodeVerifier();
    Object.assign(params, { code_challenge: await client.calculatePKCECodeChallenge(state.verifier), code_challenge_method: 'S256' });
  }
  params.state = `${provider.strategy.name}~${ctx.box.seal(JSON.stringify(state), stateContext(interaction.tenant))}`;
  return sendToUpstream(reply, client.buildAuthorizationUrl(config, params).href, how.fromForm);
}

function openState(ctx: SocialLoginContext, tenant: Tenant, prefix: string, param: string): LoginState | undefined {
  if (param.length > STATE_MAX || !param.startsWith(prefix)) return undefined;
  try {
    const state = JSON.parse(ctx.box.openString(param.slice(prefix.length), stateContext(tenant))) as LoginState;
    return state.exp > ctx.now() ? state : undefined;
  } catch {
    return undefined;
  }
}

/** The callback's parameters: the query of a GET, the form of a POST (Apple's form_post). */
const callbackParams = (request: FastifyRequest) => pick(request.method === 'POST' ? readBody(request) : readQuery(request), CALLBACK_PARAMS, pageErrors.invalidParameter);

async function exchange(ctx: SocialLoginContext, provider: SocialProvider, connection: ConnectionRow, tenant: Tenant, sealed: string, state: LoginState, params: Record<string, string | undefined>): Promise<UpstreamIdentity> {
  const upstream = await upstreamOf(ctx, provider);
  const config = await configuration(ctx, provider, upstream, connection.options);
  // The authorization response as openid-client checks it: only its own members (Apple's form also
  // carries an id_token and `user`, which are not an implicit or hybrid response's).
  const answer = new URL(callbackUrl(tenant));
  for (const name of ['code', 'state', 'iss']) if (params[name] !== undefined) answer.searchParams.set(name, params[name]!);
  const tokens = await client.authorizationCodeGrant(config, answer, {
    expectedState: sealed,
    idTokenExpected: provider.protocol === 'oidc',
    ...(state.verifier !== undefined && { pkceCodeVerifier: state.verifier }),
    ...(state.nonce !== undefined && { expectedNonce: state.nonce }),
  });
  const fetch = guardedFetch(ctx);
  return provider.identity({
    options: connection.options,
    tokens,
    claims: tokens.claims() as Record<string, unknown> | undefined,
    callback: params,
    api: async (path, headers = {}) => {
      if (upstream.apiBase === undefined) throw new Error('the provider has no profile API');
      const res = await fetch(`${upstream.apiBase}${path}`, { headers: { accept: 'application/json', 'user-agent': 'Gatehouse', ...headers, authorization: `Bearer ${tokens.access_token}` } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return res.json();
    },
  });
}

/** The connection and the authorization request an opened state names, once: its first use is recorded, a second refused. */
async function loginOf(ctx: SocialLoginContext, tenant: Tenant, strategy: string, sealed: string, state: LoginState): Promise<{ connection: ConnectionRow; authorize: AuthorizeRequest }> {
  const key = createHash('sha256').update(sealed).digest('base64url');
  if (!(await ctx.stores.oneTimeUses.use(tenant.id, 'social_state', key, isoAt(state.exp), isoAt(ctx.now())))) throw failed('This answer of the identity provider was already used.');
  const [connection, waiting] = await Promise.all([ctx.stores.connections.get(tenant.id, state.conn), ctx.stores.authorizeTransactions.findUsable(tenant.id, secretHash(state.tx), isoAt(ctx.now()))]);
  if (connection?.strategy !== strategy) throw failed('The connection of this login no longer exists.');
  if (!waiting) throw pageErrors.expiredTransaction();
  return { connection, authorize: waiting.params as unknown as AuthorizeRequest };
}

async function callback(provider: SocialProvider, deps: InteractionDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = request;
  const params = callbackParams(request);
  const prefix = `${provider.strategy.name}~`;
  const state = openState(ctx, tenant, prefix, params.state!);
  if (!state) throw failed('The state of the identity provider\'s answer is unknown or expired.');
  const sealed = params.state!;
  const { connection, authorize } = await loginOf(ctx, tenant, provider.strategy.name, sealed, state);
  if (params.error !== undefined) {
    // The user refused (or the provider failed): the application hears access_denied with its state, nothing is made.
    request.log.info({ connection: connection.name, error: params.error }, 'the identity provider did not log the user in');
    await deps.transactions.consume(tenant, state.tx);
    throw new AuthorizationErrorResponse('access_denied', params.error === 'access_denied' ? DENIED : 'The identity provider did not log the user in.', authorize);
  }
  let identity: UpstreamIdentity;
  try {
    identity = await exchange(ctx, provider, connection, tenant, sealed, state, params);
  } catch (error) {
    request.log.warn({ connection: connection.name, reason: (error as Error).message, code: (error as { code?: string }).code }, 'identity provider answer refused');
    throw failed('The identity provider\'s answer could not be verified.');
  }
  if (identity.id === '' || identity.id.length > 255) throw failed('The identity provider named no user.');
  const nonPersistent = new Set(Array.isArray(connection.options.non_persistent_attrs) ? (connection.options.non_persistent_attrs as string[]) : []);
  const profile: FederatedProfile = Object.fromEntries(Object.entries(identity.profile).filter(([member, value]) => !nonPersistent.has(member) && value !== undefined && value !== '' && value.length <= 512));
  if (provider.firstLoginOnly) {
    // Sent on the first login only (Apple's name): a later login keeps what the first one stored.
    const known = await ctx.stores.users.getIdentity(tenant.id, provider.strategy.userId(connection, identity.id));
    for (const member of provider.firstLoginOnly) if (profile[member] === undefined && known?.[member]) profile[member] = String(known[member]);
  }
  let user;
  try {
    user = await upsertFederatedUser(ctx.stores.users, provider.strategy, connection, identity.id, profile, isoAt(ctx.now()), rootAttributesSync(connection.options));
  } catch (error) {
    if (isUniqueViolation(error)) throw failed('Another user of this connection has the same email address.');
    throw error;
  }
  if (!user) throw failed('This user is not known to this connection.');
  if (!isActive(user)) throw failed('This user is blocked.');
  return sendHop(deps.ctx, reply, tenant, state.tx, user.user_id, authorize.connection === connection.name ? 'enterprise' : 'login');
}

/** The Authentication API's half of a social strategy, for the registry (../registries.ts `connectionLogins`). */
export function socialLogin(provider: SocialProvider): ConnectionLogin {
  const prefix = `${provider.strategy.name}~`;
  return {
    strategy: provider.strategy.name,
    start: (deps, interaction, reply, connection, how) => start(provider, deps, interaction, reply, connection, how),
    domains: () => [],
    routes: () => [],
    callback: {
      claims: (request) => {
        const raw = request.method === 'POST' ? readBody(request) : readQuery(request);
        return raw.values.state?.startsWith(prefix) === true && raw.values.connection === undefined;
      },
      handle: (deps, request, reply) => callback(provider, deps, request, reply),
    },
  };
}
