/**
 * Logging in through an OpenID provider: the `oidc` strategy and the
 * enterprise strategies built on it (`okta`, `waad`, `google-apps`), each a
 * flavour (its settings: endpoints, parameters, which claim names the user)
 * of one protocol over openid-client, run by the shared upstream flow
 * (../connections/upstream-login.ts: sealed single-use state, the
 * transaction, access_denied, the user, the hop). Every call to the provider
 * (its JWKS, its token endpoint) goes through the outbound guard
 * (src/platform/http/upstream-fetch.ts: public addresses unless
 * GATEHOUSE_OUTBOUND_ALLOW, 1 MiB, 10 s).
 *
 * - `authorize`: the provider's `authorization_endpoint` with
 *   `redirect_uri=https://{domain}/login/callback`, the connection's scope,
 *   a `nonce` (always on `front_channel`; on `back_channel` with
 *   `send_back_channel_nonce`), PKCE S256 on `back_channel` when the
 *   provider advertises it (or `connection_settings.pkce` asks), its
 *   `upstream_params`.
 * - `verify`: openid-client's checks: `state`, `iss` (RFC 9207, required
 *   when the provider advertises it) and the id_token's signature against
 *   the provider's JWKS with only its advertised asymmetric algorithms (or
 *   the connection's `id_token_signed_response_algs`; never `none` or a
 *   MAC), `iss`, `aud`, `azp`, `exp`, `nonce`; the code exchanged with PKCE.
 *   A multi-tenant Entra ID connection (its issuer the template
 *   `…/{tenantid}/v2.0`) has its id_token checked with jose against the
 *   template filled with the token's own `tid`. A Google Workspace login
 *   must carry the connection's domain in `hd`. The code is redeemed with
 *   the client secret, or a client assertion signed with the connection's
 *   current key (`private_key_jwt`).
 * - the profile: the claims, or the connection's `attribute_map.use_map`
 *   attributes, with the provider's userinfo answer fetched (its `sub` that
 *   of the id_token) when an attribute refers to `context.userinfo`.
 */
import * as jose from 'jose';
import * as client from 'openid-client';
import { mappedAttributes, needsUserinfo } from '../../domain/connections/attribute-map.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { GOOGLE_APPS_STRATEGY, googleAppsSettings, OKTA_STRATEGY, oktaSettings, WAAD_STRATEGY, waadSettings } from '../../domain/connections/enterprise-oidc-options.js';
import { connectionPrivateKey } from '../../domain/connections/keys.js';
import { OIDC_STRATEGY, oidcSettings, type OidcSettings } from '../../domain/connections/oidc-options.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { FederatedProfile } from '../../domain/users/federated-user.js';
import { upstreamFetch, type UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import { callbackUrl, upstreamLogin, type UpstreamAnswer, type UpstreamIdentity, type UpstreamProtocol, type UpstreamSecrets, type UpstreamContext } from '../connections/upstream-login.js';
import type { UpstreamTokens } from '../../domain/upstream-tokens/vault.js';
import type { ConnectionLogin, Interaction } from '../interaction/step.js';

/** The algorithms an id_token may be signed with: asymmetric only (never `none`, never a MAC keyed by what the client knows). */
const ASYMMETRIC = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);
const TENANT_TEMPLATE = '{tenantid}';
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A strategy on the OpenID Connect flow: its name and how its options read as settings. */
export interface OidcFlavour {
  readonly strategy: string;
  settings(options: Readonly<Record<string, unknown>>): OidcSettings;
}

let sharedFetch: { policy: unknown; fetch: UpstreamFetch } | undefined;
function fetchFor(ctx: Pick<UpstreamContext, 'config'>): UpstreamFetch {
  if (sharedFetch?.policy !== ctx.config.outbound) sharedFetch = { policy: ctx.config.outbound, fetch: upstreamFetch({ outbound: ctx.config.outbound }) };
  return sharedFetch.fetch;
}

/**
 * The providers' key sets as openid-client last read them, by `jwks_uri`
 * (public documents; only this module writes them): each login starts from
 * it instead of fetching the JWKS again. openid-client refetches a set past
 * its age or when a token names a key it does not hold, so a provider's
 * rotation is still seen. At most JWKS_CACHE_SIZE sets, the oldest dropped.
 */
const jwksCaches = new Map<string, client.ExportedJWKSCache>();
const JWKS_CACHE_SIZE = 1000;

function withJwksCache<T>(config: client.Configuration, settings: OidcSettings, use: () => Promise<T>): Promise<T> {
  const uri = settings.metadata.jwks_uri;
  const cached = jwksCaches.get(uri);
  if (cached) client.setJwksCache(config, cached);
  return use().finally(() => {
    const fresh = client.getJwksCache(config);
    if (!fresh || fresh === cached) return;
    jwksCaches.delete(uri);
    jwksCaches.set(uri, fresh);
    if (jwksCaches.size > JWKS_CACHE_SIZE) jwksCaches.delete(jwksCaches.keys().next().value!);
  });
}

const allowedAlgs = (settings: OidcSettings): string[] => {
  const advertised = settings.metadata.id_token_signing_alg_values_supported ?? ['RS256'];
  const algs = (settings.idTokenAlgs ?? advertised).filter((alg) => ASYMMETRIC.has(alg) && advertised.includes(alg));
  return algs.length > 0 ? algs : ['RS256'];
};

const multiTenant = (settings: OidcSettings) => settings.metadata.issuer.includes(TENANT_TEMPLATE);

/**
 * openid-client's view of the connection: the stored metadata, the allowed
 * algorithms, the guarded fetch (through `intercept` when the caller reads
 * the token response first).
 */
function configuration(ctx: Pick<UpstreamContext, 'config'>, settings: OidcSettings, intercept?: (url: string, response: Response) => Promise<Response>, auth?: client.ClientAuth): client.Configuration {
  const server = { ...settings.metadata, id_token_signing_alg_values_supported: allowedAlgs(settings) } as client.ServerMetadata;
  const secret = settings.clientSecret ?? '';
  const config = new client.Configuration(server, settings.clientId, settings.clientAuth.method === 'private_key_jwt' ? {} : { client_secret: secret }, auth ?? (secret === '' ? client.None() : client.ClientSecretPost(secret)));
  const fetch = fetchFor(ctx);
  config[client.customFetch] = async (url, options) => {
    const response = await fetch(url, { method: options.method, headers: options.headers as Record<string, string>, body: options.body as string | null, signal: options.signal ?? null });
    return intercept ? intercept(url, response) : response;
  };
  if (settings.type === 'front_channel') client.useIdTokenResponseType(config);
  // The id_token of the token endpoint is verified against the provider's JWKS too (openid-client trusts TLS alone otherwise).
  else client.enableNonRepudiationChecks(config);
  return config;
}

const SUBTLE_ALGS: Readonly<Record<string, { name: string; hash: string }>> = {
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  RS384: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
  RS512: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
  PS384: { name: 'RSA-PSS', hash: 'SHA-384' },
};

/**
 * How the connection authenticates at the token endpoint: its client secret,
 * or (`private_key_jwt`) a client assertion signed with its current key
 * (src/domain/connections/keys.ts), `aud` the issuer or the token endpoint.
 */
async function clientAuth(ctx: Pick<UpstreamContext, 'box'> & { readonly stores: Pick<UpstreamContext['stores'], 'connectionKeys'> }, connection: ConnectionRow, settings: OidcSettings): Promise<client.ClientAuth> {
  const method = settings.clientAuth;
  if (method.method !== 'private_key_jwt') return client.ClientSecretPost(settings.clientSecret ?? '');
  const current = (await ctx.stores.connectionKeys.list(connection.tenant_id, connection.id)).find((key) => key.status === 'current');
  if (!current) throw new Error('the connection has no current key for private_key_jwt (POST /api/v2/connections/{id}/keys)');
  const alg = SUBTLE_ALGS[method.alg ?? current.algorithm] ?? SUBTLE_ALGS.RS256!;
  const der = connectionPrivateKey(ctx.box, current).export({ type: 'pkcs8', format: 'der' });
  const key = await crypto.subtle.importKey('pkcs8', der, alg, false, ['sign']);
  const tokenEndpoint = settings.metadata.token_endpoint;
  return client.PrivateKeyJwt({ key, kid: current.kid }, method.audience === 'token_endpoint' && tokenEndpoint !== undefined ? { [client.modifyAssertion]: (_header, payload) => void (payload.aud = tokenEndpoint) } : undefined);
}

function usesPkce(settings: OidcSettings): boolean {
  if (settings.type !== 'back_channel' || settings.pkce === 'disabled') return false;
  return settings.pkce === 'S256' || (settings.metadata.code_challenge_methods_supported ?? []).includes('S256');
}

async function authorize(flavour: OidcFlavour, ctx: UpstreamContext, interaction: Interaction, connection: ConnectionRow, secrets: UpstreamSecrets, state: () => string): Promise<string> {
  const settings = flavour.settings(connection.options);
  const params: Record<string, string> = {};
  for (const [name, param] of Object.entries(settings.upstreamParams)) {
    const value = 'value' in param ? param.value : (interaction.request as unknown as Record<string, unknown>)[param.alias];
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  Object.assign(params, { redirect_uri: callbackUrl(interaction.tenant), scope: settings.scope, client_id: settings.clientId });
  if (settings.type === 'front_channel') Object.assign(params, { response_type: 'id_token', response_mode: 'form_post' });
  else params.response_type = 'code';
  if (settings.hostedDomain !== undefined) params.hd = settings.hostedDomain;
  if (settings.type === 'front_channel' || settings.backChannelNonce) params.nonce = secrets.n = client.randomNonce();
  if (usesPkce(settings)) {
    secrets.v = client.randomPKCECodeVerifier();
    Object.assign(params, { code_challenge: await client.calculatePKCECodeChallenge(secrets.v), code_challenge_method: 'S256' });
  }
  params.state = state();
  return client.buildAuthorizationUrl(configuration(ctx, settings), params).href;
}

/** A multi-tenant Entra ID id_token: signed by the provider's keys, `iss` the template filled with its own `tid`, for this client. */
async function verifyTenantIdToken(ctx: UpstreamContext, settings: OidcSettings, idToken: string, nonce: string | undefined): Promise<Record<string, unknown>> {
  const answer = await fetchFor(ctx)(settings.metadata.jwks_uri, { headers: { accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`the JWKS answered ${answer.status}`);
  const jwks = jose.createLocalJWKSet((await answer.json()) as jose.JSONWebKeySet);
  const { payload } = await jose.jwtVerify(idToken, jwks, { audience: settings.clientId, algorithms: allowedAlgs(settings), clockTolerance: 30, requiredClaims: ['iss', 'exp', 'iat', 'tid'] });
  const tid = payload.tid;
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) throw new Error('the id_token names no tenant (tid)');
  if (payload.iss !== settings.metadata.issuer.replace(TENANT_TEMPLATE, tid)) throw new Error('unexpected id_token "iss" for its tenant');
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== settings.clientId) throw new Error('unexpected id_token "azp"');
  if (nonce !== undefined && payload.nonce !== nonce) throw new Error('unexpected id_token "nonce"');
  return payload;
}

function tokensOf(response: client.TokenEndpointResponse, now: number): UpstreamTokens | undefined {
  if (!response.access_token && !response.refresh_token) return undefined;
  return {
    ...(response.access_token && { access_token: response.access_token }),
    ...(response.refresh_token && { refresh_token: response.refresh_token }),
    ...(typeof response.expires_in === 'number' && { expires_at: Math.floor(now / 1000) + response.expires_in }),
    ...(response.scope && { scope: response.scope }),
  };
}

/** A fetch interceptor that takes the id_token out of the token endpoint's answer (handing it to `take`). */
function idTokenTaker(settings: OidcSettings, take: (idToken: string | undefined) => void) {
  return async (target: string, response: Response): Promise<Response> => {
    if (target !== settings.metadata.token_endpoint || response.status !== 200) return response;
    const { id_token, ...rest } = (await response.json()) as Record<string, unknown>;
    take(typeof id_token === 'string' ? id_token : undefined);
    return new Response(JSON.stringify(rest), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/** The answer's claims (and the provider's tokens on the code flow), every check passed; throws otherwise. */
async function verifiedClaims(ctx: UpstreamContext, tenant: Tenant, connection: ConnectionRow, settings: OidcSettings, answer: UpstreamAnswer): Promise<{ claims: Record<string, unknown>; tokens?: UpstreamTokens }> {
  const { params, secrets } = answer;
  const sealed = params.state!;
  const fields = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  if (settings.type === 'front_channel') {
    if (answer.method !== 'POST') throw new Error('a front_channel answer comes by form post');
    if (multiTenant(settings)) return { claims: await verifyTenantIdToken(ctx, settings, params.id_token ?? '', secrets.n) };
    const form = new Request(callbackUrl(tenant), { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const config = configuration(ctx, settings);
    return { claims: (await withJwksCache(config, settings, () => client.implicitAuthentication(config, form, secrets.n!, { expectedState: sealed }))) as Record<string, unknown> };
  }
  const url = new URL(callbackUrl(tenant));
  for (const [name, value] of fields) url.searchParams.set(name, value);
  // A multi-tenant id_token is checked against its own tenant's issuer: taken out of the token response before openid-client reads it.
  let tenantIdToken: string | undefined;
  const intercept = multiTenant(settings) ? idTokenTaker(settings, (idToken) => (tenantIdToken = idToken)) : undefined;
  const config = configuration(ctx, settings, intercept, await clientAuth(ctx, connection, settings));
  const response = await withJwksCache(config, settings, () => client.authorizationCodeGrant(config, url, {
    expectedState: sealed,
    idTokenExpected: intercept === undefined,
    ...(secrets.v !== undefined && { pkceCodeVerifier: secrets.v }),
    ...(secrets.n !== undefined && intercept === undefined && { expectedNonce: secrets.n }),
  }));
  const claims = intercept ? await verifyTenantIdToken(ctx, settings, tenantIdToken ?? '', secrets.n) : (response.claims() as Record<string, unknown>);
  const tokens = tokensOf(response, ctx.now());
  return { claims, ...(tokens && { tokens }) };
}

const PROFILE_MEMBERS = ['email', 'name', 'given_name', 'family_name', 'nickname', 'picture'] as const;

/**
 * The normalised profile (federation wire notes §3.3): the id_token's claims
 * of the profile members (`bind_all`, `basic_profile`), or the members the
 * connection's `use_map` attributes give (./attribute-map.ts).
 */
function profileOf(claims: Record<string, unknown>, settings: OidcSettings, mapped: Record<string, unknown> | undefined): FederatedProfile {
  const source = mapped ?? claims;
  const profile: FederatedProfile = {};
  for (const member of PROFILE_MEMBERS) {
    const value = source[member] ?? (mapped === undefined && member === 'email' && settings.userIdClaim === 'oid' ? claims.preferred_username : undefined);
    if (typeof value === 'string' && value !== '' && value.length <= 512 && !settings.nonPersistent.has(member)) profile[member] = value;
  }
  if (profile.email !== undefined) {
    const claimed = source.email_verified === true || source.email_verified === 'true';
    profile.email_verified = settings.emailVerified === 'always' || (settings.emailVerified === 'claim' && claimed) ? 'true' : 'false';
  }
  return profile;
}

/**
 * The provider's userinfo answer, when the connection's map refers to it:
 * fetched with the code flow's access token through the outbound guard, its
 * `sub` that of the id_token (openid-client's check).
 */
async function userinfoOf(ctx: UpstreamContext, settings: OidcSettings, claims: Record<string, unknown>, tokens: UpstreamTokens | undefined): Promise<Record<string, unknown> | undefined> {
  if (!needsUserinfo(settings.attributeMap)) return undefined;
  if (tokens?.access_token === undefined) throw new Error('the provider gave no access token for its userinfo endpoint');
  if (typeof claims.sub !== 'string') throw new Error('the id_token has no sub to check the userinfo answer against');
  return (await client.fetchUserInfo(configuration(ctx, settings), tokens.access_token, claims.sub)) as Record<string, unknown>;
}

async function verify(flavour: OidcFlavour, ctx: UpstreamContext, tenant: Tenant, connection: ConnectionRow, answer: UpstreamAnswer): Promise<UpstreamIdentity> {
  const settings = flavour.settings(connection.options);
  const { claims, tokens } = await verifiedClaims(ctx, tenant, connection, settings, answer);
  if (settings.hostedDomain !== undefined && claims.hd !== settings.hostedDomain) throw new Error(`the user is not of the Workspace domain ${settings.hostedDomain} (hd)`);
  const userinfo = await userinfoOf(ctx, settings, claims, tokens);
  const mapped = settings.attributeMap.mode === 'use_map' ? mappedAttributes(settings.attributeMap, { tokenset: claims, userinfo, connection: { id: connection.id, strategy: connection.strategy } }) : undefined;
  const profile = profileOf(claims, settings, mapped);
  const id = settings.userIdFromEmail ? profile.email : claims[settings.userIdClaim];
  if (typeof id !== 'string' || id === '') throw new Error(`the id_token has no ${settings.userIdFromEmail ? 'email' : settings.userIdClaim}`);
  return { id, profile, ...(tokens && { tokens }) };
}

const FLAVOURS: readonly OidcFlavour[] = [
  { strategy: OIDC_STRATEGY, settings: oidcSettings },
  { strategy: OKTA_STRATEGY, settings: oktaSettings },
  { strategy: WAAD_STRATEGY, settings: waadSettings },
  { strategy: GOOGLE_APPS_STRATEGY, settings: googleAppsSettings },
];

/**
 * New tokens for a user's refresh token at the connection's provider
 * (Token Vault, when the kept access token has expired); undefined when the
 * connection's strategy is not on this flow.
 */
export async function refreshOidcTokens(ctx: Pick<UpstreamContext, 'config' | 'now' | 'box'> & { readonly stores: Pick<UpstreamContext['stores'], 'connectionKeys'> }, connection: ConnectionRow, refreshToken: string): Promise<UpstreamTokens | undefined> {
  const flavour = FLAVOURS.find((f) => f.strategy === connection.strategy);
  if (!flavour) return undefined;
  const settings = { ...flavour.settings(connection.options), type: 'back_channel' as const };
  // The refreshed id_token, if any, is not what is asked for: taken out unread for a multi-tenant issuer.
  const config = configuration(ctx, settings, multiTenant(settings) ? idTokenTaker(settings, () => undefined) : undefined, await clientAuth(ctx, connection, settings));
  return tokensOf(await client.refreshTokenGrant(config, refreshToken), ctx.now()) ?? {};
}

/** The upstream protocol of an OpenID Connect flavour. */
export function oidcProtocol(flavour: OidcFlavour): UpstreamProtocol {
  return {
    strategy: flavour.strategy,
    callbackParams: ['code', 'id_token', 'session_state', 'scope', 'authuser', 'prompt', 'hd'],
    settings: (connection) => flavour.settings(connection.options),
    authorize: (ctx, interaction, connection, secrets, state) => authorize(flavour, ctx, interaction, connection, secrets, state),
    verify: (ctx, tenant, connection, answer) => verify(flavour, ctx, tenant, connection, answer),
  };
}

// The generic strategy answers, besides its own, the callbacks whose state names no strategy (to refuse them with their reason).
export const [oidcLogin, oktaLogin, waadLogin, googleAppsLogin] = FLAVOURS.map((flavour) => upstreamLogin(oidcProtocol(flavour), { answersUnclaimed: flavour.strategy === OIDC_STRATEGY })) as [ConnectionLogin, ConnectionLogin, ConnectionLogin, ConnectionLogin];
