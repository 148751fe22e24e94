/**
 * `POST /login/callback?connection={name}`: the ACS of Gatehouse as SAML
 * service provider, the one form-encoded endpoint of the Authentication API
 * (wire notes §1, §14). A pipeline:
 *
 * 1. the connection (a samlp connection of the tenant);
 * 2. the Response verified (./response.ts): signature over what is read,
 *    Destination, Recipient, Audience `urn:auth0:{tenant}:{connection}`,
 *    validity times;
 * 3. `InResponseTo`: SP-initiated, it must be the ID of the AuthnRequest of
 *    the transaction named by RelayState (./login.ts); without one, the
 *    response is IdP-initiated and only accepted when the connection's
 *    `idpinitiated.enabled` is set;
 * 4. the assertion ID used once (replay refused until it expires, in every
 *    process sharing the database);
 * 5. the user created or refreshed (`samlp|{connection}|{id}`);
 * 6. SP-initiated: a 303 to `GET /login/callback` with the sealed login,
 *    where the browser that started the transaction finishes it
 *    (../connections/hop.ts); IdP-initiated: the session starts here and the browser
 *    goes to `/authorize` for the configured client, with
 *    `client_authorizequery`, which answers from that session.
 *
 * Every refusal is an error page (400) naming the reason; nothing is created
 * and no session starts.
 *
 * `GET /samlp/metadata?connection={name}`: the SP metadata (samlify): entity
 * ID, the ACS URL (HTTP-POST), the tenant's signing certificate,
 * `AuthnRequestsSigned` per `signSAMLRequest`, `WantAssertionsSigned`.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { samlpConnectionSettings, SAMLP_STRATEGY, spEntityId, type SamlpConnectionSettings } from '../../domain/connections/samlp-connection.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { federatedProfile, upsertFederatedUser } from '../../domain/users/federated-user.js';
import { samlpStrategy } from '../../domain/connections/strategies/samlp.js';
import { HTTP_POST_BINDING } from '../../domain/clients/samlp-addon.js';
import { isoAt } from '../../platform/clock.js';
import { secretHash } from '../../domain/secrets.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { samlify } from '../../platform/xml/samlify.js';
import { certificateBase64 } from '../../platform/xml/signatures.js';
import { pageErrors } from '../errors.js';
import type { StepDeps } from '../interaction/step.js';
import { pick, readBody, readQuery } from '../params.js';
import { SamlRefusal } from '../samlp/messages.js';
import { sendHop } from '../connections/hop.js';
import { acsUrl, authnRequestId } from './login.js';
import { verifyLoginResponse, type VerifiedLogin } from './response.js';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';
import type { UserStore } from '../../domain/users/store.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';

const refused = (message: string) => pageErrors.authorize(message);

/** What the SAML identity provider's answer touches. */
export interface SamlConnectionCallbackContext {
  readonly keyring: Keyring;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly stores: {
    readonly authorizeTransactions: AuthorizationRequestStore;
    readonly connections: ConnectionStore;
    readonly oneTimeUses: OneTimeUseStore;
    readonly users: UserStore;
  };
}

async function samlpConnection(ctx: SamlConnectionCallbackContext, tenant: Tenant, name: string | undefined): Promise<ConnectionRow> {
  const connection = name ? await ctx.stores.connections.getByName(tenant.id, name) : undefined;
  if (!connection || connection.strategy !== SAMLP_STRATEGY) throw refused('Unknown SAML connection.');
  return connection;
}

/** The assertion's first use; a replay is refused until the assertion could no longer be accepted. */
async function useOnce(ctx: SamlConnectionCallbackContext, tenant: Tenant, login: VerifiedLogin): Promise<void> {
  const key = createHash('sha256').update(`${login.issuer}\0${login.assertionId}`).digest('base64url');
  if (!(await ctx.stores.oneTimeUses.use(tenant.id, 'samlp_assertion', key, isoAt(login.validUntil), isoAt(ctx.now())))) {
    throw refused('This SAML assertion was already used.');
  }
}

async function provision(ctx: SamlConnectionCallbackContext, connection: ConnectionRow, settings: SamlpConnectionSettings, login: VerifiedLogin) {
  const id = settings.user_id_attribute === undefined ? login.nameId : login.attributes.get(settings.user_id_attribute)?.[0];
  if (!id || id.length > 512) throw refused(`The assertion has no ${settings.user_id_attribute ?? 'NameID'} to identify the user.`);
  try {
    const user = await upsertFederatedUser(ctx.stores.users, samlpStrategy, connection, id, federatedProfile(login.attributes, settings.fieldsMap), isoAt(ctx.now()));
    if (!isActive(user)) throw refused('This user is blocked.');
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) throw refused('Another user of this connection has the same email address.');
    throw error;
  }
}

/** IdP-initiated: the configured client's /authorize, answered by the session just started. */
async function idpInitiated(deps: StepDeps, request: FastifyRequest, reply: FastifyReply, connection: ConnectionRow, settings: SamlpConnectionSettings, login: VerifiedLogin) {
  const { ctx } = deps;
  const { tenant } = request;
  const { idpinitiated } = settings;
  if (!idpinitiated.enabled || idpinitiated.client_id === undefined) throw refused('IdP-initiated login is not enabled for this connection (unsolicited response).');
  const client = await ctx.lookups.client(tenant.id, idpinitiated.client_id);
  const enabled = client && (await loginConnections(ctx.stores.connections, tenant.id, idpinitiated.client_id)).some((c) => c.id === connection.id);
  if (!enabled) throw refused('The application of IdP-initiated login does not exist or does not use this connection.');
  await useOnce(ctx, tenant, login);
  const user = await provision(ctx, connection, settings, login);
  await deps.sessions.start(tenant, user, reply);
  const query = new URLSearchParams(idpinitiated.client_authorizequery ?? '');
  if (!query.has('response_type')) query.set('response_type', 'code');
  query.set('client_id', idpinitiated.client_id);
  query.set('connection', connection.name);
  return reply.code(302).header('Location', `/authorize?${query}`).header('Cache-Control', 'no-store').send();
}

/** The ACS: `POST /login/callback?connection=` (claimed from the shared callback URL, ../interaction/steps/federated.ts). */
export async function samlpCallback(deps: StepDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = request;
  const connectionName = pick(readQuery(request), ['connection'], pageErrors.invalidParameter).connection;
  const body = pick(readBody(request), ['SAMLResponse', 'RelayState'], pageErrors.invalidParameter);
  const connection = await samlpConnection(ctx, tenant, connectionName);
  const settings = samlpConnectionSettings(connection.options);
  if (!body.SAMLResponse) throw refused('Missing SAMLResponse.');
  let login: VerifiedLogin;
  try {
    login = verifyLoginResponse(body.SAMLResponse, {
      certificate: settings.signingCert,
      acs: acsUrl(tenant, connection.name),
      audience: spEntityId(tenant.name, connection.name),
      now: ctx.now(),
    });
  } catch (error) {
    if (error instanceof SamlRefusal) {
      request.log.warn({ connection: connection.name, reason: error.message }, 'SAML response refused');
      throw refused(error.message);
    }
    throw error;
  }
  if (login.inResponseTo === undefined) return idpInitiated(deps, request, reply, connection, settings, login);

  const transactionId = body.RelayState;
  if (!transactionId || transactionId.length > 100 || login.inResponseTo !== authnRequestId(ctx, tenant, transactionId, connection.id)) {
    throw refused('The InResponseTo of the SAML response names no request of this login.');
  }
  await useOnce(ctx, tenant, login);
  // Which step the login completes: the request named the connection, or home realm discovery chose it.
  const waiting = await ctx.stores.authorizeTransactions.findUsable(tenant.id, secretHash(transactionId), isoAt(ctx.now()));
  if (!waiting) throw pageErrors.expiredTransaction();
  const step = (waiting.params as { connection?: string }).connection === connection.name ? 'enterprise' : 'login';
  const user = await provision(ctx, connection, settings, login);
  return sendHop(ctx, reply, tenant, transactionId, user.user_id, step);
}

export function spMetadataEndpoint(deps: StepDeps): RouteOptions {
  return {
    method: 'GET',
    url: '/samlp/metadata',
    handler: async (request, reply) => {
      const { tenant } = request;
      const connection = await samlpConnection(deps.ctx, tenant, pick(readQuery(request), ['connection'], pageErrors.invalidParameter).connection);
      const settings = samlpConnectionSettings(connection.options);
      const { signing } = await deps.ctx.keyring.keys(tenant.id);
      const sp = samlify().ServiceProvider({
        entityID: spEntityId(tenant.name, connection.name),
        signingCert: certificateBase64(signing.certificatePem),
        authnRequestsSigned: settings.signSAMLRequest,
        wantAssertionsSigned: true,
        nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
        assertionConsumerService: [{ Binding: HTTP_POST_BINDING, Location: acsUrl(tenant, connection.name) }],
      });
      return reply.header('Cache-Control', 'public, max-age=300').type('text/xml; charset=utf-8').send(sp.getMetadata());
    },
  };
}
