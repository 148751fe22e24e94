/**
 * Social providers on the shared upstream login flow
 * (../connections/upstream-login.ts: the sealed single-use state, the
 * transaction, access_denied, the user, the hop): the OAuth 2.0
 * authorization code flow toward the provider with openid-client as the
 * relying-party library, for the social strategies
 * (../social-connections/, one provider module each). A provider is either
 * an OpenID provider (`protocol: 'oidc'`: its issuer's discovery document
 * gives the endpoints and keys; an id_token is required and verified
 * against its JWKS) or plain OAuth 2.0 (`protocol: 'oauth2'`: fixed
 * endpoints, then its profile API). Every call to the provider goes
 * through the outbound guard (src/platform/http/upstream-fetch.ts: public
 * addresses unless GATEHOUSE_OUTBOUND_ALLOW, https, 1 MiB, 10 s). The
 * provider's endpoints are its own unless GATEHOUSE_FEDERATION_ENDPOINTS
 * replaces them (src/platform/federation-endpoints.ts; tests and staging).
 *
 * - `authorize`: `redirect_uri=https://{domain}/login/callback`,
 *   `response_type=code`, the connection's scopes, PKCE S256 (an OpenID
 *   provider: when it advertises it; OAuth 2.0: when the provider module
 *   says it takes it), a nonce toward an OpenID provider, the connection's
 *   `upstream_params`, the provider's own parameters.
 * - `verify`: openid-client's checks (`state`, RFC 9207 `iss`, the code
 *   exchanged with the verifier; for an OpenID provider the id_token's
 *   signature against its JWKS with its advertised asymmetric algorithms
 *   only, `iss`, `aud`, `exp`, `nonce`), then the provider's profile.
 */
import * as client from 'openid-client';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import { rootAttributesSync } from '../../domain/connections/social-options.js';
import type { SocialStrategy } from '../../domain/connections/strategies/social.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { FederatedProfile } from '../../domain/users/federated-user.js';
import type { FederationEndpoints } from '../../platform/federation-endpoints.js';
import { upstreamFetch, type UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import { callbackUrl, upstreamLogin, type UpstreamAnswer, type UpstreamContext, type UpstreamIdentity, type UpstreamProtocol, type UpstreamSecrets } from '../connections/upstream-login.js';
import type { UpstreamTokens } from '../../domain/upstream-tokens/vault.js';
import { pageErrors } from '../errors.js';
import type { ConnectionLogin, Interaction } from '../interaction/step.js';

const DISCOVERY_TTL_MS = 600_000;
export const ID_TOKEN_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** What a provider's answer may carry besides the common parameters (Apple's `user`; Google's echoes; Facebook's `error_reason`). */
const CALLBACK_PARAMS = ['code', 'user', 'error_reason', 'scope', 'authuser', 'prompt', 'hd'];

/** What the provider module is given once the code is exchanged. */
export interface ProviderAnswer {
  options: Readonly<Record<string, unknown>>;
  /** The verified id_token's claims (an OpenID provider). */
  claims: Record<string, unknown> | undefined;
  /** The callback's parameters (Apple's `user`). */
  callback: Readonly<Record<string, string | undefined>>;
  /** The tenant whose login it is. */
  tenantId: string;
  /** The provider's access token and its whole token response (the `oauth2` strategy's script reads both). */
  accessToken: string;
  tokenResponse: Readonly<Record<string, unknown>>;
  /** Runs a connection script in the tenant's sandbox processes. */
  scripts: ConnectionScripts;
  /** GET `{api_base}{path}` with the access token, as JSON (a status other than 200 is a failure). */
  api(path: string, headers?: Record<string, string>): Promise<unknown>;
}

export interface SocialProvider {
  readonly strategy: SocialStrategy;
  readonly protocol: 'oidc' | 'oauth2';
  /** Its own endpoints: an OpenID provider's `issuer`; OAuth 2.0's `authorization_endpoint`, `token_endpoint` (and `api_base`). */
  readonly endpoints: Readonly<FederationEndpoints>;
  /** The connection's own endpoints, for a provider whose options name them (`oauth2`); over `endpoints`. */
  endpointsOf?(options: Readonly<Record<string, unknown>>): Readonly<FederationEndpoints>;
  /** Headers of the token request the options add (`oauth2`'s `customHeaders`). */
  tokenHeaders?(options: Readonly<Record<string, unknown>>): Record<string, string>;
  /** OAuth 2.0 providers that take PKCE (an OpenID provider's discovery says). */
  readonly pkce?: boolean;
  /** Whether PKCE is used, from the connection's options (`oauth2`'s `pkce_enabled`); over `pkce`. */
  pkceOf?(options: Readonly<Record<string, unknown>>): boolean;
  /** The scope parameter of the authorization request, from the connection's options. */
  scope(options: Readonly<Record<string, unknown>>): string;
  /** Further parameters of the authorization request (Google's `access_type`, Apple's `response_mode`). */
  authorizationParams?(options: Readonly<Record<string, unknown>>): Record<string, string>;
  /** The client secret toward the provider (Apple's signed JWT); default `client_secret`. */
  clientSecret?(options: Readonly<Record<string, unknown>>, audience: string): Promise<string>;
  /** The profile members the provider sends on the first login only (Apple's name): kept from the user when absent later. */
  readonly firstLoginOnly?: readonly (keyof FederatedProfile)[];
  /** The provider's id of the user and its normalised profile. */
  identity(answer: ProviderAnswer): Promise<{ id: string; profile: FederatedProfile }>;
}

/** The provider's metadata as openid-client takes it, and where its profile API is. */
interface Upstream {
  server: client.ServerMetadata;
  apiBase: string | undefined;
}

/** What reading a provider's documents needs: the outbound policy, the clock. */
export type ProviderReadContext = Pick<UpstreamContext, 'config' | 'now'>;

let guarded: { policy: unknown; fetch: UpstreamFetch } | undefined;
/** HTTPS toward providers through the outbound guard. */
export function guardedFetch(ctx: Pick<UpstreamContext, 'config'>): UpstreamFetch {
  if (guarded?.policy !== ctx.config.outbound) guarded = { policy: ctx.config.outbound, fetch: upstreamFetch({ outbound: ctx.config.outbound }) };
  return guarded.fetch;
}

/** Discovery documents read, by issuer, for ten minutes (an issuer is the provider's or the operator's, never a tenant's). */
const discovered = new Map<string, { server: client.ServerMetadata; until: number }>();

export async function discover(ctx: ProviderReadContext, issuer: string): Promise<client.ServerMetadata> {
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
async function upstreamOf(ctx: UpstreamContext, provider: SocialProvider, options: Readonly<Record<string, unknown>>): Promise<Upstream> {
  const endpoints = { ...provider.endpoints, ...ctx.config.federationEndpoints?.overrides[provider.strategy.name], ...provider.endpointsOf?.(options) };
  if (provider.protocol === 'oauth2' && (!endpoints.authorization_endpoint || !endpoints.token_endpoint)) throw new Error('the connection has no authorization or token endpoint');
  if (provider.protocol === 'oidc') {
    const server = await discover(ctx, endpoints.issuer!);
    const algs = (server.id_token_signing_alg_values_supported ?? ['RS256']).filter((alg) => ID_TOKEN_ALGS.includes(alg));
    return { server: { ...server, id_token_signing_alg_values_supported: algs.length > 0 ? algs : ['RS256'] }, apiBase: endpoints.api_base };
  }
  const server = { issuer: new URL(endpoints.authorization_endpoint!).origin, authorization_endpoint: endpoints.authorization_endpoint!, token_endpoint: endpoints.token_endpoint! };
  return { server, apiBase: endpoints.api_base };
}

async function configuration(ctx: UpstreamContext, provider: SocialProvider, upstream: Upstream, options: Readonly<Record<string, unknown>>): Promise<client.Configuration> {
  const clientId = typeof options.client_id === 'string' ? options.client_id : '';
  // The service's "developer keys" (an empty client_id) do not exist here: such a connection cannot log in.
  if (clientId === '') throw new Error('the connection has no client_id at its identity provider');
  const secret = provider.clientSecret ? await provider.clientSecret(options, upstream.server.issuer) : typeof options.client_secret === 'string' ? options.client_secret : '';
  const config = new client.Configuration(upstream.server, clientId, { client_secret: secret }, client.ClientSecretPost(secret));
  const fetch = guardedFetch(ctx);
  const extra = provider.tokenHeaders?.(options) ?? {};
  config[client.customFetch] = (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers as ConstructorParameters<typeof Headers>[0]));
    if (url === upstream.server.token_endpoint) Object.assign(headers, extra);
    return fetch(url, { method: init.method, headers, body: init.body as string | null, signal: init.signal ?? null });
  };
  // The token endpoint's id_token is verified against the provider's JWKS (openid-client trusts TLS alone otherwise).
  if (provider.protocol === 'oidc') client.enableNonRepudiationChecks(config);
  return config;
}

function usesPkce(provider: SocialProvider, upstream: Upstream, options: Readonly<Record<string, unknown>>): boolean {
  if (provider.protocol === 'oauth2') return provider.pkceOf?.(options) ?? provider.pkce === true;
  return (upstream.server.code_challenge_methods_supported ?? []).includes('S256');
}

async function authorize(provider: SocialProvider, ctx: UpstreamContext, interaction: Interaction, connection: ConnectionRow, secrets: UpstreamSecrets, state: () => string): Promise<string> {
  const options = connection.options;
  const upstream = await upstreamOf(ctx, provider, options);
  const params: Record<string, string> = {};
  const upstreamParams = (options.upstream_params ?? {}) as Record<string, { value?: string; alias?: string }>;
  for (const [name, spec] of Object.entries(upstreamParams)) {
    const value = spec.value ?? (spec.alias === undefined ? undefined : (interaction.request as unknown as Record<string, unknown>)[spec.alias]);
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  Object.assign(params, provider.authorizationParams?.(options), { redirect_uri: callbackUrl(interaction.tenant), response_type: 'code' });
  const scope = provider.scope(options);
  if (scope !== '') params.scope = scope;
  if (provider.protocol === 'oidc') params.nonce = secrets.n = client.randomNonce();
  if (usesPkce(provider, upstream, options)) {
    secrets.v = client.randomPKCECodeVerifier();
    Object.assign(params, { code_challenge: await client.calculatePKCECodeChallenge(secrets.v), code_challenge_method: 'S256' });
  }
  params.state = state();
  return client.buildAuthorizationUrl(await configuration(ctx, provider, upstream, options), params).href;
}

function tokensOf(response: client.TokenEndpointResponse, now: number): UpstreamTokens | undefined {
  if (!response.access_token) return undefined;
  return {
    access_token: response.access_token,
    ...(response.refresh_token && { refresh_token: response.refresh_token }),
    ...(typeof response.expires_in === 'number' && { expires_at: Math.floor(now / 1000) + response.expires_in }),
    ...(response.scope && { scope: response.scope }),
  };
}

async function verify(provider: SocialProvider, ctx: UpstreamContext, tenant: Tenant, connection: ConnectionRow, answer: UpstreamAnswer): Promise<UpstreamIdentity> {
  const { params, secrets } = answer;
  const upstream = await upstreamOf(ctx, provider, connection.options);
  const config = await configuration(ctx, provider, upstream, connection.options);
  // The authorization response as openid-client checks it: only its own members (Apple's form also
  // carries an id_token and `user`, which are not an implicit or hybrid response's).
  const response = new URL(callbackUrl(tenant));
  for (const name of ['code', 'state', 'iss']) if (params[name] !== undefined) response.searchParams.set(name, params[name]!);
  const tokens = await client.authorizationCodeGrant(config, response, {
    expectedState: params.state!,
    idTokenExpected: provider.protocol === 'oidc',
    ...(secrets.v !== undefined && { pkceCodeVerifier: secrets.v }),
    ...(secrets.n !== undefined && { expectedNonce: secrets.n }),
  });
  const fetch = guardedFetch(ctx);
  const { id, profile } = await provider.identity({
    options: connection.options,
    claims: tokens.claims() as Record<string, unknown> | undefined,
    callback: params,
    tenantId: tenant.id,
    accessToken: tokens.access_token,
    tokenResponse: Object.fromEntries(Object.entries(tokens).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))),
    scripts: ctx.scripts,
    api: async (path, headers = {}) => {
      if (upstream.apiBase === undefined) throw new Error('the provider has no profile API');
      const res = await fetch(`${upstream.apiBase}${path}`, { headers: { accept: 'application/json', 'user-agent': 'Gatehouse', ...headers, authorization: `Bearer ${tokens.access_token}` } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return res.json();
    },
  });
  const nonPersistent = new Set(Array.isArray(connection.options.non_persistent_attrs) ? (connection.options.non_persistent_attrs as string[]) : []);
  const kept: FederatedProfile = Object.fromEntries(Object.entries(profile).filter(([member, value]) => !nonPersistent.has(member) && value !== undefined && value !== '' && value.length <= 512));
  if (provider.firstLoginOnly && id !== '') {
    // Sent on the first login only (Apple's name): a later login keeps what the first one stored.
    const known = await ctx.stores.users.getIdentity(tenant.id, provider.strategy.userId(connection, id));
    for (const member of provider.firstLoginOnly) if (kept[member] === undefined && known?.[member]) kept[member] = String(known[member]);
  }
  const upstreamTokens = tokensOf(tokens, ctx.now());
  return { id, profile: kept, ...(upstreamTokens && { tokens: upstreamTokens }) };
}

/** The Authentication API's half of a social strategy, for the registry (../registries.ts `connectionLogins`). */
export function socialLogin(provider: SocialProvider): ConnectionLogin {
  const protocol: UpstreamProtocol = {
    strategy: provider.strategy.name,
    callbackParams: CALLBACK_PARAMS,
    settings: (connection) => ({ sync: rootAttributesSync(connection.options), domainAliases: [] }),
    authorize: async (ctx, interaction, connection, secrets, state) => {
      try {
        return await authorize(provider, ctx, interaction, connection, secrets, state);
      } catch (error) {
        // No discovery document, no client_id: an error page rather than a redirect to nowhere.
        throw pageErrors.authorize(`The identity provider cannot be used: ${(error as Error).message.replace(/https:\/\/\S+/g, 'its endpoint')}.`);
      }
    },
    verify: (ctx, tenant, connection, answer) => verify(provider, ctx, tenant, connection, answer),
  };
  return upstreamLogin(protocol);
}
