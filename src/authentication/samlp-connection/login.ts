/**
 * Logging in through a SAML enterprise connection (`strategy: "samlp"`),
 * SP-initiated: an interaction step before the password login.
 *
 * - Needed while nobody is logged in and the request names (`connection`) a
 *   samlp connection enabled for the client.
 * - `GET /login/samlp?state=` sends the browser to the IdP's
 *   `signInEndpoint` with an AuthnRequest (HTTP-Redirect, or HTTP-POST per
 *   `protocolBinding`; signed with the tenant's key when `signSAMLRequest`).
 *   Its ID is an HMAC of the transaction and the connection under a key
 *   derived from the master key, and its RelayState the transaction id, so a
 *   Response is matched to the request that asked for it without storing
 *   anything: an `InResponseTo` that is not the ID of this transaction's
 *   request is unknown and refused (./callback.ts).
 * - Home realm discovery: an email typed on the login page whose domain is
 *   in the `domain_aliases` of a samlp connection enabled for the client
 *   sends the browser to that IdP the same way (`homeRealm`, called by the
 *   login step); the password field is then not read.
 * - The IdP posts its Response cross-site to `/login/callback`, where the
 *   browser-binding cookie (SameSite=Lax) does not come along; the verified
 *   login is sealed (AES-GCM under the master key, bound to the tenant and
 *   the transaction, two minutes) and the browser sent on with a 303 to
 *   `GET /login/callback?state=…&login=…`, a top-level GET that carries the
 *   cookie: only the browser that started the transaction finishes it, which
 *   defeats login CSRF. There the session starts and the step completes.
 */
import type { FastifyReply, RouteOptions } from 'fastify';
import { samlpConnectionSettings, SAMLP_STRATEGY, spEntityId } from '../../domain/connections/samlp-connection.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { HTTP_POST_BINDING } from '../../domain/clients/samlp-addon.js';
import { formPost } from '../authorize/response-modes/form-post.js';
import { pageErrors } from '../errors.js';
import { completeStep, stepPage, stepRoute } from '../interaction/policy.js';
import type { Interaction, InteractionDeps, InteractionStep } from '../interaction/step.js';
import { html, page, sendPage } from '../pages/html.js';
import { pageParams } from '../params.js';
import { authnRequest, redirectUrl } from '../samlp/xml-messages.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { UserStore } from '../../domain/users/store.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';

const NAME = 'enterprise';
/** How long the sealed login of the 303 hop may be used. */
const HOP_LIFETIME_MS = 120_000;

/** This tenant's ACS URL for a connection (wire notes §14). */
export const acsUrl = (tenant: Tenant, connection: string) => `https://${tenant.domain}/login/callback?connection=${encodeURIComponent(connection)}`;

/** What starting a login at a SAML identity provider touches. */
export interface SamlConnectionLoginContext {
  readonly box: SecretBox;
  formTokens(purpose: string): FormTokens;
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly stores: { readonly connections: ConnectionStore; readonly users: UserStore };
}

/** The ID of the AuthnRequest of a transaction to a connection. */
export function authnRequestId(ctx: SamlConnectionLoginContext, tenant: Tenant, transactionId: string, connectionId: string): string {
  return `_${ctx.formTokens('gatehouse samlp authn request').token(tenant.id, secretHash(transactionId), connectionId)}`;
}

const hopContext = (tenant: Tenant, transactionId: string) => `samlp login:${tenant.id}:${secretHash(transactionId)}`;

/** The step a login at an IdP completes: `enterprise` when the request named the connection, `login` after home realm discovery. */
export type EnterpriseStepName = typeof NAME | 'login';

interface SealedLogin {
  user_id: string;
  step: EnterpriseStepName;
  exp: number;
}

/** The sealed verified login of a transaction: the user to log in and the step it completes, for two minutes. */
export function sealLogin(ctx: SamlConnectionLoginContext, tenant: Tenant, transactionId: string, userId: string, step: EnterpriseStepName): string {
  const login: SealedLogin = { user_id: userId, step, exp: ctx.now() + HOP_LIFETIME_MS };
  return ctx.box.seal(JSON.stringify(login), hopContext(tenant, transactionId));
}

function openLogin(ctx: SamlConnectionLoginContext, tenant: Tenant, transactionId: string, sealed: string | undefined): SealedLogin | undefined {
  if (!sealed || sealed.length > 2048) return undefined;
  try {
    const login = JSON.parse(ctx.box.openString(sealed, hopContext(tenant, transactionId))) as SealedLogin;
    return login.exp > ctx.now() ? login : undefined;
  } catch {
    return undefined;
  }
}

/** The samlp connection the request names, when it is enabled for the client. */
async function requestedConnection(deps: InteractionDeps, interaction: Interaction): Promise<ConnectionRow | undefined> {
  const name = interaction.request.connection;
  if (name === undefined) return undefined;
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  return enabled.find((c) => c.strategy === SAMLP_STRATEGY && c.name === name);
}

/**
 * Home realm discovery: the samlp connection enabled for the client whose
 * `domain_aliases` hold the domain of the email typed on the login page.
 */
export async function homeRealm(deps: InteractionDeps, interaction: Interaction, identifier: string): Promise<ConnectionRow | undefined> {
  const at = identifier.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = identifier.slice(at + 1).toLowerCase();
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  return enabled.find((c) => c.strategy === SAMLP_STRATEGY && samlpConnectionSettings(c.options).domain_aliases.some((d) => d.toLowerCase() === domain));
}

/** Sends the browser to the connection's IdP with an AuthnRequest for this transaction. */
export async function sendAuthnRequest(
  deps: InteractionDeps,
  interaction: Interaction,
  reply: FastifyReply,
  connection: ConnectionRow,
  options: { fromForm?: boolean } = {},
): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = interaction;
  const settings = samlpConnectionSettings(connection.options);
  const transactionId = interaction.transactionId!;
  const input = {
    id: authnRequestId(ctx, tenant, transactionId, connection.id),
    issuer: spEntityId(tenant.name, connection.name),
    destination: settings.signInEndpoint,
    acs: acsUrl(tenant, connection.name),
    now: ctx.now(),
    settings,
  };
  const key = settings.signSAMLRequest ? (await ctx.keyring.keys(tenant.id)).signing : undefined;
  if (settings.protocolBinding === HTTP_POST_BINDING) {
    const xml = authnRequest(input, key);
    return formPost.send(reply, settings.signInEndpoint, { SAMLRequest: Buffer.from(xml, 'utf8').toString('base64'), RelayState: transactionId });
  }
  const url = redirectUrl(settings.signInEndpoint, 'SAMLRequest', authnRequest(input, undefined), transactionId, key, settings);
  if (options.fromForm) {
    // The login form's CSP lets its post redirect only to this origin and the application's:
    // a page moves on to the IdP instead (a refresh is a navigation, not a form redirect).
    return sendPage(reply, 200, page('Continue to sign in', html`<meta http-equiv="refresh" content="0;url=${url}"><h1>Your organization signs you in</h1><p><a href="${url}">Continue to your organization's sign-in page</a></p>`));
  }
  return reply.code(302).header('Location', url).header('Cache-Control', 'no-store').send();
}

function routes(deps: InteractionDeps): RouteOptions[] {
  return [
    stepRoute(deps, NAME, 'GET', '/login/samlp', async (interaction, _request, reply) => {
      const connection = await requestedConnection(deps, interaction);
      if (!connection) throw pageErrors.expiredTransaction();
      return sendAuthnRequest(deps, interaction, reply, connection);
    }),
    {
      // The step it completes is the one the sealed login names (see EnterpriseStepName); stepPage checks it is the current one.
      method: 'GET',
      url: '/login/callback',
      handler: async (request, reply) => {
        const { state, login: sealed } = pageParams(request, ['state', 'login']);
        const login = state === undefined ? undefined : openLogin(deps.ctx, request.tenant, state, sealed);
        if (!login) throw pageErrors.expiredTransaction();
        const page = await stepPage(deps, request, reply, login.step);
        if ('reply' in page) return page.reply;
        const { interaction } = page;
        const user = await deps.ctx.stores.users.get(interaction.tenant.id, login.user_id);
        if (!isActive(user)) throw pageErrors.authorize('This user is blocked.');
        const authenticated = await deps.sessions.start(interaction.tenant, user, reply);
        return completeStep(deps, reply, { ...interaction, authenticated }, login.step);
      },
    },
  ];
}

export const enterpriseLoginStep: InteractionStep = {
  name: NAME,
  page: () => '/login/samlp',
  promptNone: { error: 'login_required', description: 'Login required' },
  needed: async (deps, interaction) => interaction.authenticated === undefined && (await requestedConnection(deps, interaction)) !== undefined,
  routes,
};
