/**
 * Logging in through an OpenID Connect connection (`strategy: "oidc"`),
 * with openid-client as the relying-party library; every call to the
 * provider (its JWKS, its token endpoint) goes through the outbound guard
 * (src/platform/http/upstream-fetch.ts: public addresses unless
 * GATEHOUSE_OUTBOUND_ALLOW, 1 MiB, 10 s).
 *
 * - `start`: the browser goes to the provider's `authorization_endpoint`
 *   with `redirect_uri=https://{domain}/login/callback`, the connection's
 *   scope, a `nonce` (always on `front_channel`; on `back_channel` with
 *   `send_back_channel_nonce`), PKCE S256 on `back_channel` when the
 *   provider advertises it (or `connection_settings.pkce` asks), its
 *   `upstream_params`, and a `state` that is the transaction, the
 *   connection, the nonce and the code verifier sealed (AES-GCM under the
 *   master key, bound to the tenant) for ten minutes: nothing the provider
 *   or the browser can read or forge.
 * - The callback (GET for `back_channel`, the cross-site form POST of
 *   `front_channel`): the state opened and used once (a replay is refused),
 *   the connection and the transaction it names (never a `connection`
 *   parameter of the callback: the state decides, against mix-up), then
 *   openid-client's checks: `state`, `iss` (RFC 9207, required when the
 *   provider advertises it) and the id_token's signature against the
 *   provider's JWKS with only its advertised asymmetric algorithms (or
 *   the connection's `id_token_signed_response_algs`; never `none` or a
 *   MAC), `iss`, `aud`, `azp`, `exp`, `nonce`; the code exchanged with PKCE.
 *   An `error=access_denied` from the provider answers the application's
 *   redirect_uri with `access_denied` and its state. Any other refusal is
 *   an error page: nothing is created, no session starts.
 * - The user `oidc|{connection}|{sub}` is made or refreshed (never found by
 *   email), and the login finishes through the sealed hop
 *   (../connections/hop.ts), where only the browser that started it can.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { OIDC_STRATEGY, oidcSettings, type OidcSettings } from '../../domain/connections/oidc-options.js';
import { oidcStrategy } from '../../domain/connections/strategies/oidc.js';
import type { AppContext } from '../../domain/context.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { upsertFederatedUser, type FederatedProfile } from '../../domain/users/federated-user.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { upstreamFetch, type UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import { sendHop } from '../connections/hop.js';
import { sendToUpstream } from '../connections/upstream-redirect.js';
import { AuthorizationErrorResponse, pageErrors } from '../errors.js';
import type { ConnectionLogin, Interaction, InteractionDeps } from '../interaction/step.js';
import { pick, readBody, readQuery } from '../params.js';

/** How long a login may stay at the provider. */
const STATE_LIFETIME_MS = 600_000;
const MAX_STATE = 2048;
/** The algorithms an id_token may be signed with: asymmetric only (never `none`, never a MAC keyed by what the client knows). */
const ASYMMETRIC = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);
const ACCESS_DENIED_DESCRIPTION = 'User did not authorize the request';

interface LoginState {
  /** The transaction id. */
  t: string;
  /** The connection id. */
  c: string;
  /** The nonce, when one was sent. */
  n?: string;
  /** The PKCE code verifier, when one was sent. */
  v?: string;
  exp: number;
}

const refused = (message: string) => pageErrors.authorize(message);
const stateContext = (tenant: Tenant) => `oidc connection state:${tenant.id}`;
export const callbackUrl = (tenant: Tenant) => `https://${tenant.domain}/login/callback`;

let sharedFetch: { policy: unknown; fetch: UpstreamFetch } | undefined;
function fetchFor(ctx: AppContext): UpstreamFetch {
  if (sharedFetch?.policy !== ctx.config.outbound) sharedFetch = { policy: ctx.config.outbound, fetch: upstreamFetch({ outbound: ctx.config.outbound }) };
  return sharedFetch.fetch;
}

/** openid-client's view of the connection: the stored metadata, the allowed algorithms, the guarded fetch. */
function configuration(ctx: AppContext, settings: OidcSettings): client.Configuration {
  const advertised = settings.metadata.id_token_signing_alg_values_supported ?? ['RS256'];
  const algs = (settings.idTokenAlgs ?? advertised).filter((alg) => ASYMMETRIC.has(alg) && advertised.includes(alg));
  const server = { ...settings.metadata, id_token_signing_alg_values_supported: algs.length > 0 ? algs : ['RS256'] } as client.ServerMetadata;
  const config = new client.Configuration(server, settings.clientId, { client_secret: settings.clientSecret }, client.ClientSecretPost(settings.clientSecret));
  const fetch = fetchFor(ctx);
  config[client.customFetch] = (url, options) => fetch(url, { method: options.method, headers: options.headers as Record<string, string>, body: options.body as string | null, signal: options.signal ?? null });
  if (settings.type === 'front_channel') client.useIdTokenResponseType(config);
  return config;
}

function usesPkce(settings: OidcSettings): boolean {
  if (settings.type !== 'back_channel' || settings.pkce === 'disabled') return false;
  return settings.pkce === 'S256' || (settings.metadata.code_challenge_methods_supported ?? []).includes('S256');
}

async function start(deps: InteractionDeps, interaction: Interaction, reply: FastifyReply, connection: ConnectionRow, options: { fromForm?: boolean }): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = interaction;
  const settings = oidcSettings(connection.options);
  const config = configuration(ctx, settings);
  const state: LoginState = { t: interaction.transactionId!, c: connection.id, exp: ctx.now() + STATE_LIFETIME_MS };
  const params: Record<string, string> = {};
  for (const [name, param] of Object.entries(settings.upstreamParams)) {
    const value = 'value' in param ? param.value : (interaction.request as unknown as Record<string, unknown>)[param.alias];
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  Object.assign(params, { redirect_uri: callbackUrl(tenant), scope: settings.scope, client_id: settings.clientId });
  if (settings.type === 'front_channel') {
    Object.assign(params, { response_type: 'id_token', response_mode: 'form_post' });
  } else {
    params.response_type = 'code';
  }
  if (settings.type === 'front_channel' || settings.backChannelNonce) params.nonce = state.n = client.randomNonce();
  if (usesPkce(settings)) {
    state.v = client.randomPKCECodeVerifier();
    Object.assign(params, { code_challenge: await client.calculatePKCECodeChallenge(state.v), code_challenge_method: 'S256' });
  }
  params.state = ctx.box.seal(JSON.stringify(state), stateContext(tenant));
  return sendToUpstream(reply, client.buildAuthorizationUrl(config, params).href, options.fromForm);
}

function openState(ctx: AppContext, tenant: Tenant, sealed: string | undefined): LoginState | undefined {
  if (!sealed || sealed.length > MAX_STATE) return undefined;
  try {
    const state = JSON.parse(ctx.box.openString(sealed, stateContext(tenant))) as LoginState;
    return state.exp > ctx.now() ? state : undefined;
  } catch {
    return undefined;
  }
}

/** The normalised profile of the id_token's claims (federation wire notes §3.3). */
function profileOf(claims: Record<string, unknown>, nonPersistent: ReadonlySet<string>): FederatedProfile {
  const profile: FederatedProfile = {};
  for (const member of ['email', 'name', 'given_name', 'family_name', 'nickname', 'picture'] as const) {
    const value = claims[member];
    if (typeof value === 'string' && value !== '' && value.length <= 512 && !nonPersistent.has(member)) profile[member] = value;
  }
  if (profile.email !== undefined) profile.email_verified = claims.email_verified === true || claims.email_verified === 'true' ? 'true' : 'false';
  return profile;
}

async function callback(deps: InteractionDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = request;
  const names = ['state', 'code', 'id_token', 'iss', 'error', 'error_description', 'session_state', 'scope', 'authuser', 'prompt', 'hd'];
  const params = request.method === 'POST' ? pick(readBody(request), names, pageErrors.invalidParameter) : pick(readQuery(request), names, pageErrors.invalidParameter);
  const sealed = params.state;
  if (sealed === undefined) throw refused('The identity provider\'s answer has no state.');
  const state = openState(ctx, tenant, sealed);
  if (!state) throw refused('The state of the identity provider\'s answer is unknown or expired.');
  const used = await ctx.stores.oneTimeUses.use(tenant.id, 'oidc_state', createHash('sha256').update(sealed).digest('base64url'), isoAt(state.exp), isoAt(ctx.now()));
  if (!used) throw refused('This answer of the identity provider was already used.');
  const connection = await ctx.stores.connections.get(tenant.id, state.c);
  if (!connection || connection.strategy !== OIDC_STRATEGY) throw refused('The connection of this login no longer exists.');
  const waiting = await ctx.stores.authorizeTransactions.findUsable(tenant.id, secretHash(state.t), isoAt(ctx.now()));
  if (!waiting) throw pageErrors.expiredTransaction();
  const authorize = waiting.params as unknown as AuthorizeRequest;

  if (params.error !== undefined) {
    request.log.info({ connection: connection.name, error: params.error }, 'the identity provider refused the login');
    await deps.transactions.consume(tenant, state.t);
    if (params.error === 'access_denied') throw new AuthorizationErrorResponse('access_denied', ACCESS_DENIED_DESCRIPTION, authorize);
    throw new AuthorizationErrorResponse('access_denied', 'The identity provider did not log the user in.', authorize);
  }

  const settings = oidcSettings(connection.options);
  const config = configuration(ctx, settings);
  let claims: Record<string, unknown>;
  try {
    if (settings.type === 'front_channel') {
      if (request.method !== 'POST') throw new Error('a front_channel answer comes by form post');
      const form = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
      const answer = new Request(callbackUrl(tenant), { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      claims = (await client.implicitAuthentication(config, answer, state.n!, { expectedState: sealed })) as Record<string, unknown>;
    } else {
      const url = new URL(callbackUrl(tenant));
      for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
      const tokens = await client.authorizationCodeGrant(config, url, {
        expectedState: sealed,
        idTokenExpected: true,
        ...(state.v !== undefined && { pkceCodeVerifier: state.v }),
        ...(state.n !== undefined && { expectedNonce: state.n }),
      });
      claims = tokens.claims() as Record<string, unknown>;
    }
  } catch (error) {
    request.log.warn({ connection: connection.name, reason: (error as Error).message, code: (error as { code?: string }).code }, 'identity provider answer refused');
    throw refused('The identity provider\'s answer could not be verified.');
  }
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '' || sub.length > 255) throw refused('The identity provider named no user.');
  let user;
  try {
    user = await upsertFederatedUser(ctx.stores.users, oidcStrategy, connection, sub, profileOf(claims, settings.nonPersistent), isoAt(ctx.now()), settings.sync);
  } catch (error) {
    if (isUniqueViolation(error)) throw refused('Another user of this connection has the same email address.');
    throw error;
  }
  if (!user) throw refused('This user is not known to this connection.');
  if (!isActive(user)) throw refused('This user is blocked.');
  const step = authorize.connection === connection.name ? 'enterprise' : 'login';
  return sendHop(ctx, reply, tenant, state.t, user.user_id, step);
}

export const oidcLogin: ConnectionLogin = {
  strategy: OIDC_STRATEGY,
  start,
  domains: (connection) => oidcSettings(connection.options).domainAliases,
  routes: () => [],
  // Any answer that is not a SAML one (those name their connection): the sealed state says which connection it is for.
  callback: { claims: (request) => readQuery(request).values.connection === undefined, handle: callback },
};
