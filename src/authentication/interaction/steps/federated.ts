/**
 * Logging in through a federated connection (SAML today; the strategies of
 * `registries.connectionLogins`): an interaction step before the password
 * login.
 *
 * - Needed while nobody is logged in and the request names (`connection`) a
 *   connection enabled for the client whose strategy has a login.
 * - `GET /login/connection?state=` sends the browser to the upstream
 *   through the strategy's `start`.
 * - Home realm discovery: an email typed on the login page whose domain is
 *   one of a connection's `domains` sends the browser there the same way
 *   (`homeRealm`, called by the login step); the password is then not read.
 * - `/login/callback`, the one callback URL of every upstream: a GET or
 *   POST answer goes to the first connection login whose `callback.claims`
 *   it; `GET /login/callback?state=…&login=…` is the sealed hop of a
 *   verified login (../../connections/hop.ts), where the session starts and
 *   the step completes.
 */
import type { RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../../domain/connections/model.js';
import { connectionStrategy } from '../../../domain/connections/strategies/index.js';
import { isActive } from '../../../domain/users/active-user.js';
import { loginConnections } from '../../../domain/issuance/token-policy.js';
import { openLogin } from '../../connections/hop.js';
import { pageErrors } from '../../errors.js';
import type { FederatedButton } from '../../pages/authorize.js';
import { pageParams, readQuery } from '../../params.js';
import { completeStep, stepPage, stepRoute } from '../policy.js';
import type { ConnectionLogin, Interaction, InteractionStep, StepDeps } from '../step.js';

const NAME = 'enterprise';

const loginOf = (deps: StepDeps, connection: ConnectionRow): ConnectionLogin | undefined => deps.connectionLogins.find((l) => l.strategy === connection.strategy);

/** The federated connection the request names, when it is enabled for the client, with its login. */
async function requestedConnection(deps: StepDeps, interaction: Interaction): Promise<{ connection: ConnectionRow; login: ConnectionLogin } | undefined> {
  const name = interaction.request.connection;
  if (name === undefined) return undefined;
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  const connection = enabled.find((c) => c.name === name);
  const login = connection && loginOf(deps, connection);
  return connection && login ? { connection, login } : undefined;
}

/**
 * Home realm discovery: the federated connection enabled for the client whose
 * domains hold the domain of the email typed on the login page.
 */
export async function homeRealm(deps: StepDeps, interaction: Interaction, identifier: string): Promise<{ connection: ConnectionRow; login: ConnectionLogin } | undefined> {
  const at = identifier.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = identifier.slice(at + 1).toLowerCase();
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  for (const connection of enabled) {
    const login = loginOf(deps, connection);
    if (login?.domains(connection).some((d) => d.toLowerCase() === domain)) return { connection, login };
  }
  return undefined;
}

/** Whether any federated connection enabled for the client takes part in home realm discovery (has domains). */
export async function hasHomeRealms(deps: StepDeps, interaction: Interaction): Promise<boolean> {
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  return enabled.some((connection) => (loginOf(deps, connection)?.domains(connection).length ?? 0) > 0);
}

/** A connection the login and signup pages offer as a button, with its login. */
export interface OfferedConnection {
  connection: ConnectionRow;
  login: ConnectionLogin;
  button: FederatedButton;
}

/**
 * The federated connections the login and signup pages offer as buttons:
 * enabled for the client, with a login, and social (always, as the
 * service shows them) or enterprise with `show_as_button`. A social button
 * names the provider, an enterprise one the connection's display name.
 */
export async function offeredConnections(deps: StepDeps, interaction: Interaction): Promise<OfferedConnection[]> {
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  const offered: OfferedConnection[] = [];
  for (const connection of enabled) {
    const login = loginOf(deps, connection);
    const strategy = connectionStrategy(connection.strategy);
    if (!login || !strategy) continue;
    const social = strategy.kind === 'social';
    if (!social && !(strategy.kind === 'enterprise' && connection.show_as_button === 1)) continue;
    // A provider's own name (Google); none for a custom one (`oauth2`), which its connection names.
    const provider = 'label' in strategy && typeof strategy.label === 'string' && strategy.label !== '' ? strategy.label : undefined;
    const label = social ? (provider ?? connection.display_name ?? connection.name) : (connection.display_name ?? connection.name);
    offered.push({ connection, login, button: { name: connection.name, label, strategy: connection.strategy } });
  }
  return offered;
}

function routes(deps: StepDeps): RouteOptions[] {
  return [
    stepRoute(deps, NAME, 'GET', '/login/connection', async (interaction, _request, reply) => {
      const requested = await requestedConnection(deps, interaction);
      if (!requested) throw pageErrors.expiredTransaction();
      return requested.login.start(deps, interaction, reply, requested.connection, {});
    }),
    {
      method: 'POST',
      url: '/login/callback',
      handler: async (request, reply) => {
        const login = deps.connectionLogins.find((l) => l.callback.claims(request));
        if (!login) throw pageErrors.expiredTransaction();
        return login.callback.handle(deps, request, reply);
      },
    },
    {
      // An upstream's answer by GET, or the sealed hop: the step it completes is the
      // one the sealed login names, and stepPage checks it is the current one.
      method: 'GET',
      url: '/login/callback',
      handler: async (request, reply) => {
        if (readQuery(request).values.login === undefined) {
          const upstream = deps.connectionLogins.find((l) => l.callback.claims(request));
          if (!upstream) throw pageErrors.expiredTransaction();
          return upstream.callback.handle(deps, request, reply);
        }
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

export const federatedLoginStep: InteractionStep = {
  name: NAME,
  page: () => '/login/connection',
  promptNone: { error: 'login_required', description: 'Login required' },
  needed: async (deps, interaction) => interaction.authenticated === undefined && (await requestedConnection(deps, interaction)) !== undefined,
  routes,
};
