/**
 * The passwordless login step: needed while no login answers the request
 * and the request is for an email connection: the one `connection` names,
 * or the client's only one when it has no database connection. Under
 * `prompt=none`: `login_required`.
 *
 * The user gives an address (/passwordless/login), gets a code by email
 * (the connection's template; limited per IP and per address,
 * ../../abuse-limits.ts), and enters it (/passwordless/login/verify): the
 * code rules of src/domain/passwordless (single use, expiry, locked after
 * wrong tries, bound to the client). A right code starts a session for the
 * `email|…` user (created at the first login unless signups are disabled)
 * and completes the step; a wrong one shows the page again, never saying
 * whether the address has an account.
 */
import type { FastifyReply, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../../domain/connections/model.js';
import { EMAIL_STRATEGY } from '../../../domain/passwordless/options.js';
import { passwordlessUser, startEmail, verifyEmailCode } from '../../../domain/passwordless/service.js';
import { isActive } from '../../../domain/users/active-user.js';
import { takeSend } from '../../abuse-limits.js';
import { PageError } from '../../errors.js';
import type { FormError } from '../../pages/authorize.js';
import { sendPage, type PageDocument } from '../../pages/html.js';
import { passwordlessCodePage, passwordlessEmailPage } from '../../pages/passwordless.js';
import { pageParams } from '../../params.js';
import { completeStep, stepRoute } from '../policy.js';
import type { Interaction, InteractionDeps, InteractionStep } from '../step.js';
import { formRedirects, transactionView } from './login.js';

const NAME = 'passwordless';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** The request's email connection, if the request is for one (see the file comment). */
async function emailConnectionOf(deps: InteractionDeps, interaction: Interaction): Promise<ConnectionRow | undefined> {
  const enabled = await deps.ctx.stores.connections.enabledForClient(interaction.tenant.id, interaction.client.row.client_id);
  const named = interaction.request.connection;
  if (named !== undefined) return enabled.find((c) => c.name === named && c.strategy === EMAIL_STRATEGY);
  if (enabled.some((c) => c.strategy === 'auth0')) return undefined;
  const emails = enabled.filter((c) => c.strategy === EMAIL_STRATEGY);
  return emails.length === 1 ? emails[0] : undefined;
}

const refused = (status: number, content: PageDocument, interaction: Interaction) => new PageError(status, content, formRedirects(interaction));

function routes(deps: InteractionDeps): RouteOptions[] {
  const { ctx } = deps;
  const emailView = (interaction: Interaction, email?: string, error?: FormError) =>
    passwordlessEmailPage({ ...transactionView(deps, interaction), ...(email !== undefined && { email }), ...(error && { error }) });
  const codeView = (interaction: Interaction, email: string, error?: FormError) => passwordlessCodePage({ ...transactionView(deps, interaction), email, ...(error && { error }) });

  return [
    stepRoute(deps, NAME, 'GET', '/passwordless/login', async (interaction, _request, reply) => {
      return sendPage(reply, 200, emailView(interaction, interaction.request.login_hint), formRedirects(interaction));
    }),

    stepRoute(deps, NAME, 'POST', '/passwordless/login/start', async (interaction, request, reply) => {
      const email = pageParams(request, ['email']).email ?? '';
      if (!EMAIL.test(email)) throw refused(400, emailView(interaction, email, { field: 'email', message: 'Enter a valid email address.' }), interaction);
      const connection = await emailConnectionOf(deps, interaction);
      if (!connection) throw refused(400, emailView(interaction, email, { message: 'Passwordless login is not available for this application.' }), interaction);
      try {
        await takeSend(ctx, interaction.tenant, 'passwordless_start', request.ip, email);
      } catch {
        throw refused(429, emailView(interaction, email, { field: 'email', message: 'Too many codes were sent. Wait a while before asking for another.' }), interaction);
      }
      await startEmail(ctx, { tenant: interaction.tenant, connection, client: { id: interaction.client.row.client_id, name: interaction.client.row.name }, email, send: 'code' });
      return sendPage(reply, 200, codeView(interaction, email), formRedirects(interaction));
    }),

    stepRoute(deps, NAME, 'POST', '/passwordless/login/verify', async (interaction, request, reply: FastifyReply) => {
      const { email = '', code = '' } = pageParams(request, ['email', 'code']);
      const connection = await emailConnectionOf(deps, interaction);
      const wrong = () => refused(400, codeView(interaction, email, { field: 'code', message: 'Wrong email or verification code.' }), interaction);
      if (!connection || !(await verifyEmailCode(ctx, interaction.tenant, connection, interaction.client.row.client_id, email, code))) throw wrong();
      const user = await passwordlessUser(ctx, interaction.tenant, connection, email);
      if (!user) throw wrong();
      if (!isActive(user)) throw refused(400, codeView(interaction, email, { message: 'This user is blocked.' }), interaction);
      const authenticated = await deps.sessions.start(interaction.tenant, user, reply);
      return completeStep(deps, reply, { ...interaction, authenticated }, NAME);
    }),
  ];
}

export const passwordlessStep: InteractionStep = {
  name: NAME,
  page: () => '/passwordless/login',
  promptNone: { error: 'login_required', description: 'Login required' },
  needed: async (deps, interaction) => interaction.authenticated === undefined && (await emailConnectionOf(deps, interaction)) !== undefined,
  routes,
};
