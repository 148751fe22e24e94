/**
 * The login step: needed while no login answers the request (no usable
 * session, see ../sessions.ts). Its pages are the login, signup and
 * forgot-password forms of the request's database connection (the
 * `connection` parameter's, else the tenant's `default_directory`, else the
 * client's oldest: src/domain/connections/login-connection.ts); a client
 * without any is refused with a message that says so. `screen_hint=signup`
 * opens on signup. Under `prompt=none`: `login_required`.
 *
 * - Login: brute-force protection (src/domain/brute-force.ts), bot
 *   detection's CAPTCHA when its password policy asks for one
 *   (src/domain/attack-protection/challenge.ts: the widget on the page, the
 *   token verified with the provider before the password is checked), the
 *   password, a blocked user; a failure shows the form again with the error
 *   tied to its fields, never saying whether the account exists.
 * - Signup: the user is created as /dbconnections/signup creates one
 *   (password policy, uniqueness), then logged in. Never for the admin
 *   console's client: its login offers no signup, its signup address goes
 *   to the login page, and the service refuses a post.
 * - Forgot password: bot detection's CAPTCHA when its password reset policy
 *   asks for one, then the reset mail, as /dbconnections/change_password
 *   sends it; the page says the same whether or not the account exists.
 *
 * A login or signup starts a session (its cookie) and completes the step.
 */
import { loginAttempt, recordLoginFailure } from '../../../domain/attack-protection/login-failures.js';
import { challengeFor, checkChallenge } from '../../../domain/attack-protection/challenge.js';
import { captchaEmbeds, captchaWidget } from '../../pages/captcha.js';
import type { FastifyReply, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../../domain/connections/model.js';
import { hostedLoginConnection } from '../../../domain/connections/login-connection.js';
import { CustomDatabaseError, passwordLogin } from '../../../domain/users/custom-database.js';
import { whileClientWaits } from '../../client-waiting.js';
import { logPasskeyLogin, logPasswordLogin, type PasswordLoginOutcome } from '../../tenant-log.js';
import { assessLogin, loggedAssessment } from '../../risk/assessment.js';
import type { RiskAssessment } from '../../../domain/risk-assessments/rows.js';
import type { UserRow } from '../../../domain/rows.js';
import { DbConnectionsError, PasswordStrengthError } from '../../dbconnections/errors.js';
import { checkPassword, ruleSentences, type PolicyResult } from '../../dbconnections/password-policy.js';
import { PageError } from '../../errors.js';
import { forgotPasswordPage, forgotPasswordSentPage, loginPage, signupPage, type FormError } from '../../pages/authorize.js';
import { cspSourceOf, sendPage, withEmbeds, type PageDocument, type PageUi } from '../../pages/html.js';
import { pageParams } from '../../params.js';
import { completeStep, csrfToken, stepRoute } from '../policy.js';
import type { Interaction, StepDeps, InteractionStep } from '../step.js';
import { isActive } from '../../../domain/users/active-user.js';
import { readPromptSettings } from '../../../domain/branding/service.js';
import { hasHomeRealms, homeRealm, offeredConnections } from './federated.js';
import { tokenPolicy } from '../../../domain/issuance/token-policy.js';
import { passkeySettings, type PasskeySettings } from '../../../domain/connections/passkey-options.js';
import { passkeyLoginOptions, passkeyRegistrationOptions, storePasskey, verifyPasskeyLogin, verifyPasskeyRegistration } from '../../../domain/mfa/passkeys.js';
import { fullUserId, newUserIdPart } from '../../../domain/users/model.js';
import { looksLikeEmail } from '../../dbconnections/body.js';
import { passkeyEnrolmentPage, passkeyLoginForm } from '../../pages/passkeys.js';
import { credentialParam } from '../../pages/webauthn-form.js';

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

async function loggedIn(deps: StepDeps, reply: FastifyReply, interaction: Interaction, user: UserRow, assessment?: RiskAssessment): Promise<FastifyReply> {
  const authenticated = await deps.sessions.start(interaction.tenant, user, reply);
  // Post-login Actions of the logins this session answers see it (../../actions/login-actions.ts).
  if (assessment) await deps.ctx.stores.riskAssessments.saveLoginAssessment(interaction.tenant.id, authenticated.session.id_hash, assessment);
  return completeStep(deps, reply, { ...interaction, authenticated }, NAME);
}

/**
 * Bot detection's challenge of a password login from `ip`: `when_risky`
 * means the identifier's brute-force counter from there already holds a
 * failure (an identifier not typed yet is not risky).
 */
async function passwordChallenge(deps: StepDeps, interaction: Interaction, connection: ConnectionRow | undefined, ip: string, identifier: string | undefined, flow: 'password' | 'password_reset' = 'password') {
  return challengeFor(deps.ctx, interaction.tenant, flow, ip, async () => {
    if (!connection || !identifier) return false;
    return (await deps.ctx.bruteForce.failures(loginAttempt(interaction.tenant, connection.name, identifier, ip))) > 0;
  });
}

function loginRoutes(deps: StepDeps): RouteOptions[] {
  /**
   * The login page; under identifier first, `step` says which of its two (the identifier, then the password).
   * `ip`: the browser's address, for bot detection's challenge on the page that asks the password.
   */
  const loginView = async (interaction: Interaction, identifier: string | undefined, error?: FormError, step: 'identifier' | 'password' = 'identifier', ip?: string) => {
    const connection = await loginConnection(deps, interaction);
    const settings = connectionSettings(connection);
    const identifierFirst = (await readPromptSettings(deps.ctx, interaction.tenant.id)).identifier_first;
    const asksPassword = !identifierFirst || (identifier !== undefined && identifier !== '' && step === 'password');
    const captcha = ip !== undefined && asksPassword ? await passwordChallenge(deps, interaction, connection, ip, identifier) : undefined;
    const view = transactionView(deps, interaction);
    const passkeys = passkeySettings(connection);
    // A fresh ceremony on each page: its challenge is sealed into the form (src/domain/mfa/passkeys.ts).
    const ceremony = passkeys && !(identifierFirst && identifier && step === 'password') ? await passkeyLoginOptions(deps.ctx, interaction.tenant, interaction.transactionId!) : undefined;
    return withEmbeds(loginPage({
      ...view,
      ...settings,
      ...(captcha && { challenge: captchaWidget(captcha) }),
      ...(passkeys && ceremony && {
        passkey: {
          autofill: passkeys.autofill,
          form: (ui: PageUi) => passkeyLoginForm(ui, view, { options: JSON.stringify(ceremony.options), state: ceremony.state, button: passkeys.button, autofill: passkeys.autofill }),
        },
      }),
      connections: (await offeredConnections(deps, interaction)).map((o) => o.button),
      homeRealmDiscovery: await hasHomeRealms(deps, interaction),
      signup: settings.signup && !noSignup(interaction),
      ...(identifier !== undefined && { identifier }),
      ...(error && { error }),
      ...(identifierFirst && { identifierFirst: identifier ? step : 'identifier' }),
    }), captchaEmbeds(captcha));
  };
  return [
    stepRoute(deps, NAME, 'GET', '/login', async (interaction, request, reply) => {
      return sendPage(reply, 200, await loginView(interaction, interaction.request.login_hint, undefined, 'identifier', request.ip), formRedirects(interaction));
    }),
    // A federated connection's button (the login and signup pages): its login starts, if the pages offer it.
    stepRoute(deps, NAME, 'POST', '/login/federated', async (interaction, request, reply) => {
      const { connection: name } = pageParams(request, ['connection']);
      const offered = (await offeredConnections(deps, interaction)).find((o) => o.connection.name === name);
      if (!offered) throw refusedForm(await loginView(interaction, undefined, { message: (ui) => ui.text('login', 'login', 'no-federated-connection') }), interaction);
      return offered.login.start(deps, interaction, reply, offered.connection, { fromForm: true });
    }),
    // A passkey (the button or the identifier field's autofill): its user logs in, as with a password.
    stepRoute(deps, NAME, 'POST', '/login/passkey', async (interaction, request, reply) => {
      const { ctx } = deps;
      const { tenant } = interaction;
      const params = pageParams(request, ['passkey_state', 'credential']);
      const refuse = async (key: 'passkeyRefusedText' | 'too-many-attempts' | 'user-blocked') =>
        refusedForm(await loginView(interaction, undefined, { message: (ui) => ui.text('login', 'login', key) }), interaction);
      const connection = await loginConnection(deps, interaction);
      if (!connection || !passkeySettings(connection)) throw await refuse('passkeyRefusedText');
      const result = await verifyPasskeyLogin(ctx, tenant, interaction.transactionId!, params.passkey_state, credentialParam(params.credential));
      const user = result.userId === undefined ? undefined : await ctx.stores.users.get(tenant.id, result.userId);
      // Brute-force protection counts a refused passkey of a user as a wrong password of theirs, and a blocked user's passkey is refused as their password is.
      const attempt = user && loginAttempt(tenant, connection.name, user.email ?? user.username ?? user.user_id, request.ip);
      const log = (outcome: 'ok' | 'blocked_account' | 'refused') => logPasskeyLogin(ctx, request, { client: interaction.client.row, connection, user, outcome });
      if (attempt && (await ctx.bruteForce.isBlocked(attempt))) {
        log('blocked_account');
        throw await refuse('too-many-attempts');
      }
      if (result.outcome !== 'ok' || !user || user.connection_id !== connection.id) {
        if (attempt) await recordLoginFailure(ctx, tenant, connection.id, attempt);
        log('refused');
        throw await refuse('passkeyRefusedText');
      }
      await ctx.bruteForce.recordSuccess(attempt!);
      const assessment = isActive(user) ? await assessLogin(ctx, request, reply, tenant, user) : undefined;
      logPasskeyLogin(ctx, request, { client: interaction.client.row, connection, user, outcome: 'ok', details: loggedAssessment(tenant, assessment) });
      if (!isActive(user)) throw await refuse('user-blocked');
      return loggedIn(deps, reply, interaction, user, assessment);
    }),
    stepRoute(deps, NAME, 'POST', '/login', async (interaction, request, reply) => {
      const { ctx } = deps;
      const params = pageParams(request, ['username', 'email', 'password']);
      // `username` is the page's field; `email` is accepted from scripted clients of the earlier form.
      const identifier = params.username ?? params.email ?? '';
      const password = params.password ?? '';
      const refuse = async (key: 'no-db-connection' | 'too-many-attempts' | 'wrong-credentials' | 'user-blocked' | 'invalid-captcha') =>
        refusedForm(await loginView(interaction, identifier, { message: (ui) => ui.text('login', 'login', key) }, 'password', request.ip), interaction);

      // Home realm discovery: an email of an enterprise domain goes to its identity provider (./federated.ts).
      const realm = await homeRealm(deps, interaction, identifier);
      if (realm) return realm.login.start(deps, interaction, reply, realm.connection, { fromForm: true });
      // Identifier first: the identifier's step posts no password; the password's step comes next.
      if (params.password === undefined && identifier !== '' && (await readPromptSettings(ctx, interaction.tenant.id)).identifier_first) {
        return sendPage(reply, 200, await loginView(interaction, identifier, undefined, 'password', request.ip), formRedirects(interaction));
      }
      const connection = await loginConnection(deps, interaction);
      if (!connection) throw await refuse('no-db-connection');
      const attempt = loginAttempt(interaction.tenant, connection.name, identifier, request.ip);
      const log = (outcome: PasswordLoginOutcome) => logPasswordLogin(ctx, request, { client: interaction.client.row, connection, identifier, outcome });
      if (await ctx.bruteForce.isBlocked(attempt)) {
        log('blocked_account');
        throw await refuse('too-many-attempts');
      }
      // Bot detection: the challenge's token is verified with its provider before the password is looked at.
      const captcha = await passwordChallenge(deps, interaction, connection, request.ip, identifier);
      if (captcha) {
        const token = pageParams(request, [captcha.provider.field])[captcha.provider.field];
        const outcome = await checkChallenge(ctx, interaction.tenant, captcha, token, request.ip);
        if (outcome === 'refused') throw await refuse('invalid-captcha');
        if (outcome === 'monitored') ctx.logger.info({ tenant: interaction.tenant.name, provider: captcha.provider.id }, 'bot detection (monitoring mode): a login without a valid CAPTCHA token went on');
      }
      let user: UserRow | undefined;
      try {
        user = await whileClientWaits(request, (signal) => passwordLogin(ctx, interaction.tenant.id, connection, identifier, password, signal));
      } catch (error) {
        if (!(error instanceof CustomDatabaseError)) throw error;
        // A custom database's script: its UnauthorizedError's message is shown, as the service's login page shows it; any other failure a fixed sentence.
        log({ scriptError: error.detail });
        throw refusedForm(await loginView(interaction, identifier, { message: () => error.message }, 'password'), interaction);
      }
      if (!user) {
        await recordLoginFailure(ctx, interaction.tenant, connection.id, attempt);
        log('wrong_credentials');
        throw await refuse('wrong-credentials');
      }
      await ctx.bruteForce.recordSuccess(attempt);
      const active = isActive(user);
      const assessment = active ? await assessLogin(ctx, request, reply, interaction.tenant, user) : undefined;
      log({ user, active, details: loggedAssessment(interaction.tenant, assessment) });
      if (!active) throw await refuse('user-blocked');
      return loggedIn(deps, reply, interaction, user, assessment);
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

/** Whether the signup page asks for the email alone, then a passkey: passkeys on, no usernames, and the password not asked for (or closed). */
function passkeyFirst(passkeys: PasskeySettings | undefined, usernames: boolean, method: string | undefined): passkeys is PasskeySettings {
  return passkeys !== undefined && !usernames && (method !== 'password' || !passkeys.passwords);
}

function signupRoutes(deps: StepDeps): RouteOptions[] {
  /**
   * The signup page, with the connection's password policy: checked against
   * the password that was refused, if one was. With passkeys on, the email
   * alone first (unless `method=password` asks for the password's form).
   */
  const signupView = async (interaction: Interaction, fields: { email?: string; username?: string }, error?: FormError, checked?: PolicyResult, method?: string) => {
    const connection = await loginConnection(deps, interaction);
    const { usernames } = connectionSettings(connection);
    const passkeys = passkeySettings(connection);
    const policy = checked ?? (connection ? checkPassword(connection.options ?? {}, '') : undefined);
    return signupPage({
      ...transactionView(deps, interaction),
      connections: (await offeredConnections(deps, interaction)).map((o) => o.button),
      usernames,
      ...fields,
      ...(error && { error }),
      ...(policy && { policy, policyChecked: checked !== undefined }),
      ...(passkeyFirst(passkeys, usernames, method) && { passkeyFirst: { passwordInstead: passkeys.passwords } }),
    });
  };
  /** Create a passkey for a new user of `email` (made once the passkey is): a fresh ceremony for a user id drawn now. */
  const passkeySignupView = async (interaction: Interaction, email: string, passwords: boolean, error?: FormError) => {
    const ceremony = await passkeyRegistrationOptions(deps.ctx, interaction.tenant, interaction.transactionId!, 'signup', { userId: fullUserId(newUserIdPart()), name: email });
    return passkeyEnrolmentPage({
      ...transactionView(deps, interaction),
      ceremony: { options: JSON.stringify(ceremony.options), state: ceremony.state },
      action: '/signup/passkey',
      ...(passwords && { passwordInstead: email }),
      ...(error && { error }),
    });
  };
  return [
    stepRoute(deps, NAME, 'GET', '/signup', async (interaction, request, reply) => {
      if (noSignup(interaction)) return reply.redirect(`/login?state=${encodeURIComponent(interaction.transactionId!)}`, 303);
      const { method, email } = pageParams(request, ['method', 'email']);
      const hint = email ?? interaction.request.login_hint;
      return sendPage(reply, 200, await signupView(interaction, hint !== undefined ? { email: hint } : {}, undefined, undefined, method), formRedirects(interaction));
    }),
    stepRoute(deps, NAME, 'POST', '/signup', async (interaction, request, reply) => {
      const params = pageParams(request, ['email', 'username', 'password']);
      const email = params.email ?? '';
      const username = params.username || undefined;
      const fields = { email, ...(username !== undefined && { username }) };
      const refuse = async (error: FormError, checked?: PolicyResult) => refusedForm(await signupView(interaction, fields, error, checked, params.password === undefined ? undefined : 'password'), interaction);

      const connection = await loginConnection(deps, interaction);
      if (!connection) throw await refuse({ message: (ui) => ui.text('signup', 'signup', 'no-db-connection') });
      const passkeys = passkeySettings(connection);
      // Passkeys first: the email alone, then the page that creates the passkey (the user is made once it is).
      if (passkeyFirst(passkeys, connectionSettings(connection).usernames, params.password === undefined ? undefined : 'password')) {
        if (noSignup(interaction) || connection.options.disable_signup === true) throw await refuse({ message: (ui) => ui.text('signup', 'signup', 'could-not-create') });
        if (!looksLikeEmail(email)) throw await refuse({ field: 'email', message: (ui) => ui.text('signup', 'signup', 'invalid-email') });
        if (await deps.ctx.stores.users.findByEmail(interaction.tenant.id, connection.id, email.toLowerCase())) throw await refuse({ field: 'email', message: (ui) => ui.text('signup', 'signup', 'user-exists') });
        return sendPage(reply, 200, await passkeySignupView(interaction, email, passkeys.passwords), formRedirects(interaction));
      }
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
    // The passkey of a passkey signup: verified, then its user made (no password) and logged in.
    stepRoute(deps, NAME, 'POST', '/signup/passkey', async (interaction, request, reply) => {
      const { ctx } = deps;
      const { tenant } = interaction;
      const params = pageParams(request, ['passkey_state', 'credential']);
      const connection = await loginConnection(deps, interaction);
      const passkeys = passkeySettings(connection);
      const refuse = async (error: FormError) => refusedForm(await signupView(interaction, {}, error), interaction);
      if (!connection || !passkeys) throw await refuse({ message: (ui) => ui.text('passkeys', 'passkey-enrollment', 'refusedText') });
      const passkey = await verifyPasskeyRegistration(ctx, tenant, interaction.transactionId!, 'signup', params.passkey_state, credentialParam(params.credential));
      if (!passkey) throw await refuse({ message: (ui) => ui.text('passkeys', 'passkey-enrollment', 'refusedText') });
      try {
        await deps.dbconnections.signup(tenant, { client_id: interaction.client.row.client_id, connection: connection.name, email: passkey.name, password: '' }, request, { userId: passkey.userId });
      } catch (error) {
        const refusal = signupError(error);
        if (refusal) throw refusedForm(await signupView(interaction, { email: passkey.name }, refusal), interaction);
        throw error;
      }
      const user = await ctx.stores.users.get(tenant.id, passkey.userId);
      if (!user || !(await storePasskey(ctx, tenant.id, passkey))) throw await refuse({ message: (ui) => ui.text('signup', 'signup', 'could-not-create') });
      return loggedIn(deps, reply, interaction, user);
    }),
  ];
}

function forgotPasswordRoutes(deps: StepDeps): RouteOptions[] {
  /** The forgot-password page, with bot detection's challenge when its password reset policy asks for one from `ip` (`when_risky`: the email's failed logins from there). */
  const forgotView = async (interaction: Interaction, ip: string, email?: string, error?: FormError) => {
    const captcha = await passwordChallenge(deps, interaction, await loginConnection(deps, interaction), ip, email, 'password_reset');
    const content = forgotPasswordPage({ ...transactionView(deps, interaction), ...(email !== undefined && { email }), ...(error && { error }), ...(captcha && { challenge: captchaWidget(captcha) }) });
    return { content: withEmbeds(content, captchaEmbeds(captcha)), captcha };
  };
  return [
    stepRoute(deps, NAME, 'GET', '/forgot-password', async (interaction, request, reply) => {
      return sendPage(reply, 200, (await forgotView(interaction, request.ip)).content);
    }),
    stepRoute(deps, NAME, 'POST', '/forgot-password', async (interaction, request, reply) => {
      const email = pageParams(request, ['email']).email ?? '';
      const connection = await loginConnection(deps, interaction);
      if (!connection) {
        throw new PageError(400, forgotPasswordPage({ ...transactionView(deps, interaction), email, error: { message: (ui) => ui.text('reset-password', 'reset-password-request', 'no-db-connection') } }));
      }
      // Bot detection: the challenge's token is verified with its provider before any mail is sent.
      const captcha = await passwordChallenge(deps, interaction, connection, request.ip, email, 'password_reset');
      if (captcha) {
        const token = pageParams(request, [captcha.provider.field])[captcha.provider.field];
        const outcome = await checkChallenge(deps.ctx, interaction.tenant, captcha, token, request.ip);
        if (outcome === 'refused') throw new PageError(400, (await forgotView(interaction, request.ip, email, { message: (ui) => ui.text('login', 'login', 'invalid-captcha') })).content);
        if (outcome === 'monitored') deps.ctx.logger.info({ tenant: interaction.tenant.name, provider: captcha.provider.id }, 'bot detection (monitoring mode): a password reset request without a valid CAPTCHA token went on');
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
