/**
 * The login step: needed while no login answers the request (no usable
 * session, see ../sessions.ts). Its pages are the login, signup and
 * forgot-password forms of the request's database connection (the
 * `connection` parameter's, else the tenant's `default_directory`, else the
 * client's oldest: src/domain/connections/login-connection.ts); a client
 * without any is refused with a message that says so. `screen_hint=signup`
 * opens on signup. Under `prompt=none`: `login_required`.
 *
 * - Login: brute-force protection (src/domain/brute-force.ts), the password,
 *   a blocked user; a failure shows the form again with the error tied to
 *   its fields, never saying whether the account exists.
 * - Signup: the user is created as /dbconnections/signup creates one
 *   (password policy, uniqueness), then logged in. Never for the admin
 *   console's client: its login offers no signup, its signup address goes
 *   to the login page, and the service refuses a post.
 * - Forgot password: the reset mail, as /dbconnections/change_password sends
 *   it; the page says the same whether or not the account exists.
 *
 * A login or signup starts a session (its cookie) and completes the step.
 */
import { loginAttempt, recordLoginFailure } from '../../../domain/attack-protection/login-failures.js';
import type { FastifyReply, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../../domain/connections/model.js';
import { hostedLoginConnection } from '../../../domain/connections/login-connection.js';
import { verifyUserPassword } from '../../../domain/users/login.js';
import { whileClientWaits } from '../../client-waiting.js';
import { logPasswordLogin, type PasswordLoginOutcome } from '../../tenant-log.js';
import type { UserRow } from '../../../domain/rows.js';
import { DbConnectionsError, PasswordStrengthError } from '../../dbconnections/errors.js';
import { checkPassword, ruleSentences, type PolicyResult } from '../../dbconnections/password-policy.js';
import { PageError } from '../../errors.js';
import { forgotPasswordPage, forgotPasswordSentPage, loginPage, signupPage, type FormError } from '../../pages/authorize.js';
import { cspSourceOf, sendPage, type PageDocument } from '../../pages/html.js';
import { pageParams } from '../../params.js';
import { completeStep, csrfToken, stepRoute } from '../policy.js';
import type { Interaction, StepDeps, InteractionStep } from '../step.js';
import { isActive } from '../../../domain/users/active-user.js';
import { readPromptSettings } from '../../../domain/branding/service.js';
import { hasHomeRealms, homeRealm, offeredConnections } from './federated.js';
import { tokenPolicy } from '../../../domain/issuance/token-policy.js';

const NAME = 'login';

/** Where a successful post of the transaction's forms is redirected: the application's callback. */
export function formRedirects(interaction: Interaction): string[] {
  const source = cspSourceOf(interaction.request.redirect_target);
  return source === undefined ? [] : [source];
}

/** The page state every form of a transaction carries. */
export function transactionView(deps: StepDeps, interaction: Interaction) {
  return { clientName: interaction.client.row.name, state: interaction.transactionId!, csrf: csrfToken(deps, interaction) };
}

/** The request's database connection, in the service's order (src/domain/connections/login-connection.ts). */
async function loginConnection(deps: StepDeps, interaction: Interaction): Promise<ConnectionRow | undefined> {
  const enabled = await deps.sessions.enabledConnections(interaction.tenant, interaction.client);
  return hostedLoginConnection(enabled, interaction.request.connection, interaction.tenant.settings.default_directory);
}

/** What the pages need of the connection: usernames, and whether signup is open. */
function connectionSettings(connection: ConnectionRow | undefined): { usernames: boolean; signup: boolean } {
  const options = connection?.options ?? {};
  return { usernames: options.requires_username === true, signup: connection !== undefined && options.disable_signup !== true };
}

/** Whether nobody signs up through the client (the token policy: the admin console, whose operators come from the setup link and the Management API). */
const noSignup = (interaction: Interaction) => !tokenPolicy(interaction.tenant.id, interaction.client.row.client_id).signup;

/** A refused form: the page again, 400, with its error. */
const refusedForm = (content: PageDocument, interaction: Interaction) => new PageError(400, content, formRedirects(interaction));

async function loggedIn(deps: StepDeps, reply: FastifyReply, interaction: Interaction, user: UserRow): Promise<FastifyReply> {
  const authenticated = await deps.sessions.start(interaction.tenant, user, reply);
  return completeStep(deps, reply, { ...interaction, authenticated }, NAME);
}

function loginRoutes(deps: StepDeps): RouteOptions[] {
  /** The login page; under identifier first, `step` says which of its two (the identifier, then the password). */
  const loginView = async (interaction: Interaction, identifier: string | undefined, error?: FormError, step: 'identifier' | 'password' = 'identifier') => {
    const settings = connectionSettings(await loginConnection(deps, interaction));
    const identifierFirst = (await readPromptSettings(deps.ctx, interaction.tenant.id)).identifier_first;
    return loginPage({
      ...transactionView(deps, interaction),
      ...settings,
      connections: (await offeredConnections(deps, interaction)).map((o) => o.button),
      homeRealmDiscovery: await hasHomeRealms(deps, interaction),
      signup: settings.signup && !noSignup(interaction),
      ...(identifier !== undefined && { identifier }),
      ...(error && { error }),
      ...(identifierFirst && { identifierFirst: identifier ? step : 'identifier' }),
    });
  };
  return [
    stepRoute(deps, NAME, 'GET', '/login', async (interaction, _request, reply) => {
      return sendPage(reply, 200, await loginView(interaction, interaction.request.login_hint), formRedirects(interaction));
    }),
    // A federated connection's button (the login and signup pages): its login starts, if the pages offer it.
    stepRoute(deps, NAME, 'POST', '/login/federated', async (interaction, request, reply) => {
      const { connection: name } = pageParams(request, ['connection']);
      const offered = (await offeredConnections(deps, interaction)).find((o) => o.connection.name === name);
      if (!offered) throw refusedForm(await loginView(interaction, undefined, { message: (ui) => ui.text('login', 'login', 'no-federated-connection') }), interaction);
      return offered.login.start(deps, interaction, reply, offered.connection, { fromForm: true });
    }),
    stepRoute(deps, NAME, 'POST', '/login', async (interaction, request, reply) => {
      const { ctx } = deps;
      const params = pageParams(request, ['username', 'email', 'password']);
      // `username` is the page's field; `email` is accepted from scripted clients of the earlier form.
      const identifier = params.username ?? params.email ?? '';
      const password = params.password ?? '';
      const refuse = async (key: 'no-db-connection' | 'too-many-attempts' | 'wrong-credentials' | 'user-blocked') =>
        refusedForm(await loginView(interaction, identifier, { message: (ui) => ui.text('login', 'login', key) }, 'password'), interaction);

      // Home realm discovery: an email of an enterprise domain goes to its identity provider (./federated.ts).
      const realm = await homeRealm(deps, interaction, identifier);
      if (realm) return realm.login.start(deps, interaction, reply, realm.connection, { fromForm: true });
      // Identifier first: the identifier's step posts no password; the password's step comes next.
      if (params.password === undefined && identifier !== '' && (await readPromptSettings(ctx, interaction.tenant.id)).identifier_first) {
        return sendPage(reply, 200, await loginView(interaction, identifier, undefined, 'password'), formRedirects(interaction));
      }
      const connection = await loginConnection(deps, interaction);
      if (!connection) throw await refuse('no-db-connection');
      const attempt = loginAttempt(interaction.tenant, connection.name, identifier, request.ip);
      const log = (outcome: PasswordLoginOutcome) => logPasswordLogin(ctx, request, { client: interaction.client.row, connection, identifier, outcome });
      if (await ctx.bruteForce.isBlocked(attempt)) {
        log('blocked_account');
        throw await refuse('too-many-attempts');
      }
      const user = await whileClientWaits(request, (signal) => verifyUserPassword(ctx.stores.users, interaction.tenant.id, connection.id, identifier, password, signal));
      if (!user) {
        await recordLoginFailure(ctx, interaction.tenant, connection.id, attempt);
        log('wrong_credentials');
        throw await refuse('wrong-credentials');
      }
      await ctx.bruteForce.recordSuccess(attempt);
      log({ user, active: isActive(user) });
      if (!isActive(user)) throw await refuse('user-blocked');
      return loggedIn(deps, reply, interaction, user);
    }),
  ];
}

/** The error a refused signup shows, tied to its field. */
function signupError(error: unknown): FormError | undefined {
  if (error instanceof PasswordStrengthError) {
    const unmet = ruleSentences(error.result)
      .filter((rule) => !rule.verified)
      .map((rule) => (rule.items.length > 0 ? `${rule.text} ${rule.items.map((i) => i.message).join(', ')}.` : `${rule.text}.`));
    return { field: 'password', message: (ui) => `${ui.text('signup', 'signup', 'password-too-weak')} ${unmet.join(' ')}`.trim() };
  }
  if (error instanceof DbConnectionsError) {
    const message: FormError['message'] = error.code === 'user_exists' ? (ui) => ui.text('signup', 'signup', 'user-exists') : error.description;
    return { field: error.code === 'invalid_parameter' ? 'username' : 'email', message };
  }
  return undefined;
}

function signupRoutes(deps: StepDeps): RouteOptions[] {
  /** The signup page, with the connection's password policy: checked against the password that was refused, if one was. */
  const signupView = async (interaction: Interaction, fields: { email?: string; username?: string }, error?: FormError, checked?: PolicyResult) => {
    const connection = await loginConnection(deps, interaction);
    const { usernames } = connectionSettings(connection);
    const policy = checked ?? (connection ? checkPassword(connection.options ?? {}, '') : undefined);
    return signupPage({ ...transactionView(deps, interaction), connections: (await offeredConnections(deps, interaction)).map((o) => o.button), usernames, ...fields, ...(error && { error }), ...(policy && { policy, policyChecked: checked !== undefined }) });
  };
  return [
    stepRoute(deps, NAME, 'GET', '/signup', async (interaction, _request, reply) => {
      if (noSignup(interaction)) return reply.redirect(`/login?state=${encodeURIComponent(interaction.transactionId!)}`, 303);
      const hint = interaction.request.login_hint;
      return sendPage(reply, 200, await signupView(interaction, hint !== undefined ? { email: hint } : {}), formRedirects(interaction));
    }),
    stepRoute(deps, NAME, 'POST', '/signup', async (interaction, request, reply) => {
      const params = pageParams(request, ['email', 'username', 'password']);
      const email = params.email ?? '';
      const username = params.username || undefined;
      const fields = { email, ...(username !== undefined && { username }) };
      const refuse = async (error: FormError, checked?: PolicyResult) => refusedForm(await signupView(interaction, fields, error, checked), interaction);

      const connection = await loginConnection(deps, interaction);
      if (!connection) throw await refuse({ message: (ui) => ui.text('signup', 'signup', 'no-db-connection') });
      let userId: string;
      try {
        const created = await deps.dbconnections.signup(interaction.tenant, {
          client_id: interaction.client.row.client_id,
          connection: connection.name,
          email,
          password: params.password ?? '',
          ...(username !== undefined && { username }),
        }, request);
        userId = `auth0|${created._id}`;
      } catch (error) {
        const refusal = signupError(error);
        if (refusal) throw await refuse(refusal, error instanceof PasswordStrengthError ? error.result : undefined);
        throw error;
      }
      const user = await deps.ctx.stores.users.get(interaction.tenant.id, userId);
      if (!user) throw refusedForm(await signupView(interaction, fields, { message: (ui) => ui.text('signup', 'signup', 'could-not-create') }), interaction);
      return loggedIn(deps, reply, interaction, user);
    }),
  ];
}

function forgotPasswordRoutes(deps: StepDeps): RouteOptions[] {
  return [
    stepRoute(deps, NAME, 'GET', '/forgot-password', async (interaction, _request, reply) => {
      return sendPage(reply, 200, forgotPasswordPage(transactionView(deps, interaction)));
    }),
    stepRoute(deps, NAME, 'POST', '/forgot-password', async (interaction, request, reply) => {
      const email = pageParams(request, ['email']).email ?? '';
      const connection = await loginConnection(deps, interaction);
      if (!connection) {
        throw new PageError(400, forgotPasswordPage({ ...transactionView(deps, interaction), email, error: { message: (ui) => ui.text('reset-password', 'reset-password-request', 'no-db-connection') } }));
      }
      await deps.dbconnections.changePassword(interaction.tenant, { client_id: interaction.client.row.client_id, email, connection: connection.name }, request);
      return sendPage(reply, 200, forgotPasswordSentPage(interaction.transactionId!));
    }),
  ];
}

export const loginStep: InteractionStep = {
  name: NAME,
  page: (interaction) => (interaction.request.screen_hint === 'signup' && !noSignup(interaction) ? '/signup' : '/login'),
  promptNone: { error: 'login_required', description: 'Login required' },
  needed: async (_deps, interaction) => interaction.authenticated === undefined,
  routes: (deps) => [...loginRoutes(deps), ...signupRoutes(deps), ...forgotPasswordRoutes(deps)],
};
