/**
 * The flow every OAuth 2.0 / OpenID Connect upstream login shares (`oidc`,
 * `okta`, `waad`, `google-apps`, and the social strategies), around what is
 * each protocol's own (an `UpstreamProtocol`: the authorization URL, the
 * verification of the answer into an identity):
 *
 * - `start`: the browser goes to the protocol's authorization URL with a
 *   `state` that is the transaction, the connection and the protocol's
 *   secrets (nonce, PKCE verifier) sealed (AES-GCM under the master key,
 *   bound to the tenant) for ten minutes, prefixed with the strategy so the
 *   one callback URL knows whose answer it is (a changed prefix only sends
 *   the answer to a protocol that then refuses the connection).
 * - The callback (GET, or the cross-site form POST of `form_post`): the state
 *   opened and used once (a replay is refused), the connection and the
 *   transaction it names (never a parameter of the callback: the state
 *   decides, against mix-up); an upstream `error` answers the application's
 *   redirect_uri with `access_denied` and its state; otherwise the
 *   protocol's `verify`. Any refusal is an error page: nothing is created, no
 *   session starts. An upstream that cannot be reached (the outbound guard,
 *   1 MiB, 10 s: src/platform/http/upstream-fetch.ts) says so.
 * - The user `{strategy}|…` (the strategy's `userId`) is made or refreshed,
 *   never found by email; the provider's tokens are kept sealed
 *   (src/domain/upstream-tokens/vault.ts); the login finishes through the sealed hop (./hop.ts), where only the browser that
 *   started it can.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { RootAttributesSync } from '../../domain/connections/oidc-options.js';
import { connectionStrategy } from '../../domain/connections/strategies/index.js';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { ConnectionKeyStore } from '../../domain/connections/keys.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';
import type { UserStore } from '../../domain/users/store.js';
import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { FederationEndpointOverrides } from '../../platform/federation-endpoints.js';
import type { OutboundPolicy } from '../../platform/http/outbound-guard.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { keepUpstreamTokens, type UpstreamTokens } from '../../domain/upstream-tokens/vault.js';
import type { UpstreamTokenSetStore } from '../../domain/upstream-tokens/store.js';
import { upsertFederatedUser, type FederatedProfile } from '../../domain/users/federated-user.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { UpstreamFetchError } from '../../platform/http/upstream-fetch.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import { AuthorizationErrorResponse, pageErrors } from '../errors.js';
import type { ConnectionLogin, Interaction, StepDeps } from '../interaction/step.js';
import { pick, readBody, readQuery } from '../params.js';
import { sendHop } from './hop.js';
import { sendToUpstream } from './upstream-redirect.js';

/** How long a login may stay at the provider. */
const STATE_LIFETIME_MS = 600_000;
const MAX_STATE = 2048;
const ACCESS_DENIED_DESCRIPTION = 'User did not authorize the request';
/** What every answer may carry besides the protocol's own parameters. */
const COMMON_PARAMS = ['state', 'error', 'error_description', 'error_uri', 'iss'];

/** What an upstream login touches. */
export interface UpstreamContext {
  readonly box: SecretBox;
  /** Connections' scripts (the `oauth2` strategy's `fetchUserProfile`), in the tenant's sandbox processes. */
  readonly scripts: ConnectionScripts;
  readonly now: () => number;
  /** Where calls to the provider may go (src/platform/http/outbound-guard.ts). */
  readonly config: { readonly outbound: OutboundPolicy; readonly federationEndpoints?: { readonly overrides: FederationEndpointOverrides } | undefined };
  readonly stores: {
    readonly oneTimeUses: OneTimeUseStore;
    readonly connections: ConnectionStore;
    readonly authorizeTransactions: AuthorizationRequestStore;
    readonly users: UserStore;
    readonly upstreamTokenSets: UpstreamTokenSetStore;
    /** The keys oidc and okta connections sign client assertions with (private_key_jwt). */
    readonly connectionKeys: ConnectionKeyStore;
  };
}

/** What a protocol keeps in the sealed state between `authorize` and `verify`. */
export interface UpstreamSecrets {
  /** The nonce, when one was sent. */
  n?: string;
  /** The PKCE code verifier, when one was sent. */
  v?: string;
}

interface LoginState extends UpstreamSecrets {
  /** The transaction id. */
  t: string;
  /** The connection id. */
  c: string;
  exp: number;
}

/** The upstream's answer at the callback. */
export interface UpstreamAnswer {
  method: 'GET' | 'POST';
  /** The answer's parameters (the protocol's `callbackParams` and the common ones), the state as received. */
  params: Readonly<Record<string, string | undefined>>;
  secrets: UpstreamSecrets;
}

/** Who the upstream says logged in. */
export interface UpstreamIdentity {
  /** The upstream's immutable id of the user (`sub`, Entra's `oid`, GitHub's numeric id). */
  id: string;
  profile: FederatedProfile;
  tokens?: UpstreamTokens;
}

/** The settings the shared flow reads of every upstream connection. */
export interface UpstreamSettings {
  sync: RootAttributesSync;
  domainAliases: readonly string[];
}

/**
 * One upstream protocol: where the browser is sent and how the answer is
 * verified. A strategy module supplies its endpoints, parameters and
 * profile mapping through it.
 */
export interface UpstreamProtocol {
  /** The connection strategy it logs in through. */
  readonly strategy: string;
  /** The parameters of an answer it reads besides `state`, `error`, `error_description`, `iss`. */
  readonly callbackParams: readonly string[];
  settings(connection: ConnectionRow): UpstreamSettings;
  /** The authorization URL, given the sealed state to send; fills `secrets` (sealed in the state) before. */
  authorize(ctx: UpstreamContext, interaction: Interaction, connection: ConnectionRow, secrets: UpstreamSecrets, state: () => string): Promise<string>;
  /** Verifies the answer (throws on any failure); the identity it names. */
  verify(ctx: UpstreamContext, tenant: Tenant, connection: ConnectionRow, answer: UpstreamAnswer): Promise<UpstreamIdentity>;
}

export const callbackUrl = (tenant: Tenant) => `https://${tenant.domain}/login/callback`;
const stateContext = (tenant: Tenant) => `upstream connection state:${tenant.id}`;
const refused = (message: string) => pageErrors.authorize(message);

function sealState(ctx: UpstreamContext, tenant: Tenant, strategy: string, state: LoginState): string {
  return `${strategy}.${ctx.box.seal(JSON.stringify(state), stateContext(tenant))}`;
}

/** The strategy an answer's state names (its prefix), unverified. */
function stateStrategy(sealed: string | undefined): string | undefined {
  if (sealed === undefined) return undefined;
  const dot = sealed.indexOf('.');
  return dot > 0 ? sealed.slice(0, dot) : undefined;
}

function openState(ctx: UpstreamContext, tenant: Tenant, strategy: string, sealed: string): LoginState | undefined {
  if (sealed.length > MAX_STATE || !sealed.startsWith(`${strategy}.`)) return undefined;
  try {
    const state = JSON.parse(ctx.box.openString(sealed.slice(strategy.length + 1), stateContext(tenant))) as LoginState;
    return state.exp > ctx.now() ? state : undefined;
  } catch {
    return undefined;
  }
}

function answerParams(request: FastifyRequest, names: readonly string[]): Record<string, string | undefined> {
  const all = [...COMMON_PARAMS, ...names];
  return request.method === 'POST' ? pick(readBody(request), all, pageErrors.invalidParameter) : pick(readQuery(request), all, pageErrors.invalidParameter);
}

async function handleCallback(protocol: UpstreamProtocol, deps: StepDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = request;
  const params = answerParams(request, protocol.callbackParams);
  const sealed = params.state;
  if (sealed === undefined) throw refused('The identity provider\'s answer has no state.');
  const state = openState(ctx, tenant, protocol.strategy, sealed);
  if (!state) throw refused('The state of the identity provider\'s answer is unknown or expired.');
  const used = await ctx.stores.oneTimeUses.use(tenant.id, 'upstream_state', createHash('sha256').update(sealed).digest('base64url'), isoAt(state.exp), isoAt(ctx.now()));
  if (!used) throw refused('This answer of the identity provider was already used.');
  const connection = await ctx.stores.connections.get(tenant.id, state.c);
  if (!connection || connection.strategy !== protocol.strategy) throw refused('The connection of this login no longer exists.');
  const waiting = await ctx.stores.authorizeTransactions.findUsable(tenant.id, secretHash(state.t), isoAt(ctx.now()));
  if (!waiting) throw pageErrors.expiredTransaction();
  const authorize = waiting.params as unknown as AuthorizeRequest;

  if (params.error !== undefined) {
    request.log.info({ connection: connection.name, error: params.error.slice(0, 64) }, 'the identity provider refused the login');
    await deps.transactions.consume(tenant, state.t);
    if (params.error === 'access_denied') throw new AuthorizationErrorResponse('access_denied', ACCESS_DENIED_DESCRIPTION, authorize);
    throw new AuthorizationErrorResponse('access_denied', 'The identity provider did not log the user in.', authorize);
  }

  // A code is redeemed once, whatever the provider does with a second exchange.
  if (params.code !== undefined && !(await ctx.stores.oneTimeUses.use(tenant.id, 'upstream_code', createHash('sha256').update(`${connection.id}:${params.code}`).digest('base64url'), isoAt(ctx.now() + STATE_LIFETIME_MS), isoAt(ctx.now())))) {
    throw refused('This authorization code of the identity provider was already used.');
  }
  let identity: UpstreamIdentity;
  try {
    identity = await protocol.verify(ctx, tenant, connection, { method: request.method === 'POST' ? 'POST' : 'GET', params, secrets: { ...(state.n !== undefined && { n: state.n }), ...(state.v !== undefined && { v: state.v }) } });
  } catch (error) {
    const cause = upstreamCause(error);
    request.log.warn({ connection: connection.name, reason: (error as Error).message, code: (error as { code?: string }).code, cause: (cause ?? (error as Error).cause as Error | undefined)?.message }, 'identity provider answer refused');
    if (error instanceof ProfileRefusal) throw refused(error.message);
    if (cause) throw refused(`The identity provider could not be reached (${cause.message.replace(/^[^:]*:\/\/[^:]*:\d*[^:]*: /, '')}).`);
    throw refused('The identity provider\'s answer could not be verified.');
  }
  if (identity.id === '' || identity.id.length > 255) throw refused('The identity provider named no user.');
  const settings = protocol.settings(connection);
  const strategy = connectionStrategy(connection.strategy)!;
  let user;
  try {
    user = await upsertFederatedUser(ctx.stores.users, strategy, connection, identity.id, identity.profile, isoAt(ctx.now()), settings.sync);
  } catch (error) {
    if (isUniqueViolation(error)) throw refused('Another user of this connection has the same email address.');
    throw error;
  }
  if (!user) throw refused('This user is not known to this connection.');
  if (!isActive(user)) throw refused('This user is blocked.');
  // The provider's tokens, sealed (identities[] under read:user_idp_tokens, Token Vault).
  if (identity.tokens) await keepUpstreamTokens(ctx, tenant.id, strategy.userId(connection, identity.id), connection, identity.tokens);
  const step = authorize.connection === connection.name ? 'enterprise' : 'login';
  return sendHop(ctx, reply, tenant, state.t, user.user_id, step);
}

/** A profile that cannot be had (a connection's profile script failed): its message is the error page's, so it names no detail of the script's. */
export class ProfileRefusal extends Error {}

/** The outbound failure (guard, size, deadline) behind a refusal, if that is what it was. */
function upstreamCause(error: unknown): UpstreamFetchError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof UpstreamFetchError) return e;
  return undefined;
}

/** The `ConnectionLogin` of an upstream protocol, for `registries.connectionLogins`. */
export function upstreamLogin(protocol: UpstreamProtocol, options: { answersUnclaimed?: boolean } = {}): ConnectionLogin {
  return {
    strategy: protocol.strategy,
    async start(deps, interaction, reply, connection, { fromForm }) {
      const { ctx } = deps;
      const secrets: UpstreamSecrets = {};
      const state = () => sealState(ctx, interaction.tenant, protocol.strategy, { t: interaction.transactionId!, c: connection.id, ...secrets, exp: ctx.now() + STATE_LIFETIME_MS });
      return sendToUpstream(reply, await protocol.authorize(ctx, interaction, connection, secrets, state), fromForm);
    },
    domains: (connection) => protocol.settings(connection).domainAliases,
    routes: () => [],
    callback: {
      // Not a SAML answer (those name their connection) and a state of this strategy; the
      // login registered with `answersUnclaimed` also takes the answers no state names, to refuse them.
      claims: (request) => {
        const query = readQuery(request).values;
        if (query.connection !== undefined) return false;
        const raw = request.method === 'POST' ? (request.body as Record<string, unknown> | undefined)?.state : query.state;
        const named = stateStrategy(typeof raw === 'string' ? raw : undefined);
        return named === protocol.strategy || (options.answersUnclaimed === true && (named === undefined || connectionStrategy(named) === undefined));
      },
      handle: (deps, request, reply) => handleCallback(protocol, deps, request, reply),
    },
  };
}
