/**
 * The passwordless login step: needed while no login answers the request
 * and the request is for a passwordless connection: the email or sms
 * connection `connection` names, or, when the client has no database
 * connection, its only email connection, else its only sms connection.
 * Under `prompt=none`: `login_required`.
 *
 * The user gives an address (email) or a phone number in E.164 (sms)
 * (/passwordless/login), gets a code by email (the connection's template)
 * or by text message (the connection's template, through the tenant's
 * Twilio provider as /passwordless/start sends it), limited per IP and per
 * address or number (../../abuse-limits.ts), and enters it
 * (/passwordless/login/verify): the code rules of src/domain/passwordless
 * (single use, expiry, locked after wrong tries, bound to the client). A
 * right code starts a session for the `email|…` or `sms|…` user (created at
 * the first login unless signups are disabled) and completes the step; a
 * wrong one shows the page again, never saying whether the address or
 * number has an account. Bot detection's passwordless policy puts the
 * tenant's CAPTCHA on the address or number page: the token is verified
 * before a code is sent (src/domain/attack-protection/challenge.ts;
 * `when_risky` has no signal here — no password fails — so it does not
 * challenge: the per-address and per-number send limits apply).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../../domain/connections/model.js';
import { E164, EMAIL_STRATEGY, PASSWORDLESS_STRATEGIES, SMS_STRATEGY } from '../../../domain/passwordless/options.js';
import { passwordlessUser, startEmail, verifyEmailCode } from '../../../domain/passwordless/service.js';
import { isActive } from '../../../domain/users/active-user.js';
import { OAuthError } from '../../../platform/http/errors.js';
import { takeSend } from '../../abuse-limits.js';
import { PageError } from '../../errors.js';
import type { FormError } from '../../pages/authorize.js';
import type { PageUi } from '../../pages/html.js';
import { sendPage, withEmbeds, type PageDocument } from '../../pages/html.js';
import { captchaEmbeds, captchaWidget } from '../../pages/captcha.js';
import { challengeFor, checkChallenge } from '../../../domain/attack-protection/challenge.js';
import type { ActiveCaptcha } from '../../../domain/attack-protection/captcha.js';
import { passwordlessCodePage, passwordlessEmailPage, passwordlessPhonePage, passwordlessSmsCodePage } from '../../pages/passwordless.js';
import { pageParams } from '../../params.js';
import { textPasswordlessCode } from '../../passwordless/sms.js';
import { completeStep, stepRoute } from '../policy.js';
import type { Interaction, StepDeps, InteractionStep } from '../step.js';
import { formRedirects, transactionView } from './login.js';
import { loginConnections } from '../../../domain/issuance/token-policy.js';

const NAME = 'passwordless';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
/** Codes are at most 10 digits (the connections' totp.length); anything longer is wrong before it is hashed. */
const MAX_CODE = 16;

/** The request's passwordless connection, if the request is for one (see the file comment). */
async function passwordlessConnectionOf(deps: StepDeps, interaction: Interaction): Promise<ConnectionRow | undefined> {
  const enabled = await loginConnections(deps.ctx.stores.connections, interaction.tenant.id, interaction.client.row.client_id);
  const named = interaction.request.connection;
  if (named !== undefined) return enabled.find((c) => c.name === named && PASSWORDLESS_STRATEGIES.has(c.strategy));
  if (enabled.some((c) => c.strategy === 'auth0')) return undefined;
  const emails = enabled.filter((c) => c.strategy === EMAIL_STRATEGY);
  const texts = enabled.filter((c) => c.strategy === SMS_STRATEGY);
  if (emails.length === 1) return emails[0];
  return emails.length === 0 && texts.length === 1 ? texts[0] : undefined;
}

const refused = (status: number, content: PageDocument, interaction: Interaction) => new PageError(status, content, formRedirects(interaction));

/** A text of the sms screens, in the page's language. */
const smsText =
  (key: 'invalid-phone-number' | 'too-many-codes' | 'text-not-sent' | 'wrong-code' | 'user-blocked') =>
  (ui: PageUi): string =>
    ui.text('login-passwordless', 'login-passwordless-sms-otp', key);

function routes(deps: StepDeps): RouteOptions[] {
  const { ctx } = deps;
  /** Bot detection's challenge of a code sent from `ip` (`when_risky`: no signal, not challenged). */
  const challengeOf = (interaction: Interaction, ip: string) => challengeFor(ctx, interaction.tenant, 'passwordless', ip, async () => false);
  const emailView = (interaction: Interaction, email?: string, error?: FormError, captcha?: ActiveCaptcha) =>
    withEmbeds(passwordlessEmailPage({ ...transactionView(deps, interaction), ...(email !== undefined && { email }), ...(error && { error }), ...(captcha && { challenge: captchaWidget(captcha) }) }), captchaEmbeds(captcha));
  const codeView = (interaction: Interaction, email: string, error?: FormError) => passwordlessCodePage({ ...transactionView(deps, interaction), email, ...(error && { error }) });
  const phoneView = (interaction: Interaction, phoneNumber?: string, error?: FormError, captcha?: ActiveCaptcha) =>
    withEmbeds(
      passwordlessPhonePage({ ...transactionView(deps, interaction), ...(phoneNumber !== undefined && { phoneNumber: phoneNumber.slice(0, 16) }), ...(error && { error }), ...(captcha && { challenge: captchaWidget(captcha) }) }),
      captchaEmbeds(captcha),
    );
  const smsCodeView = (interaction: Interaction, phoneNumber: string, error?: FormError) =>
    passwordlessSmsCodePage({ ...transactionView(deps, interaction), phoneNumber, ...(error && { error }) });

  /** Whether the request passes bot detection's challenge (none, a token the provider accepts, or monitoring mode). */
  const challengePassed = async (interaction: Interaction, request: FastifyRequest, captcha: ActiveCaptcha | undefined): Promise<boolean> => {
    if (!captcha) return true;
    const token = pageParams(request, [captcha.provider.field])[captcha.provider.field];
    const outcome = await checkChallenge(ctx, interaction.tenant, captcha, token, request.ip);
    if (outcome === 'monitored') ctx.logger.info({ tenant: interaction.tenant.name, provider: captcha.provider.id }, 'bot detection (monitoring mode): a passwordless code asked without a valid CAPTCHA token went on');
    return outcome !== 'refused';
  };
  const invalidCaptcha = (ui: PageUi) => ui.text('login', 'login', 'invalid-captcha');

  /** An sms connection: the number (E.164), its code texted, then the code page. */
  const startBySms = async (interaction: Interaction, request: FastifyRequest, reply: FastifyReply, connection: ConnectionRow, captcha: ActiveCaptcha | undefined) => {
    const phoneNumber = pageParams(request, ['phone_number']).phone_number ?? '';
    if (!E164.test(phoneNumber)) throw refused(400, phoneView(interaction, phoneNumber, { field: 'phone_number', message: smsText('invalid-phone-number') }, captcha), interaction);
    if (!(await challengePassed(interaction, request, captcha))) throw refused(400, phoneView(interaction, phoneNumber, { message: invalidCaptcha }, captcha), interaction);
    try {
      await takeSend(ctx, interaction.tenant, 'passwordless_start', request.ip, phoneNumber);
    } catch {
      throw refused(429, phoneView(interaction, phoneNumber, { field: 'phone_number', message: smsText('too-many-codes') }, captcha), interaction);
    }
    try {
      await textPasswordlessCode(ctx, interaction.tenant, connection, { id: interaction.client.row.client_id, name: interaction.client.row.name }, phoneNumber);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      throw refused(error.statusCode === 502 ? 502 : 400, phoneView(interaction, phoneNumber, { message: smsText('text-not-sent') }, captcha), interaction);
    }
    return sendPage(reply, 200, smsCodeView(interaction, phoneNumber), formRedirects(interaction));
  };

  return [
    stepRoute(deps, NAME, 'GET', '/passwordless/login', async (interaction, request, reply) => {
      const connection = await passwordlessConnectionOf(deps, interaction);
      const hint = interaction.request.login_hint;
      const captcha = await challengeOf(interaction, request.ip);
      if (connection?.strategy === SMS_STRATEGY) return sendPage(reply, 200, phoneView(interaction, hint !== undefined && E164.test(hint) ? hint : undefined, undefined, captcha), formRedirects(interaction));
      return sendPage(reply, 200, emailView(interaction, hint, undefined, captcha), formRedirects(interaction));
    }),

    // A code asked for (the address or number page, or the code page's resend): bot detection's challenge first, then the send limits.
    stepRoute(deps, NAME, 'POST', '/passwordless/login/start', async (interaction, request, reply) => {
      const connection = await passwordlessConnectionOf(deps, interaction);
      const captcha = await challengeOf(interaction, request.ip);
      if (connection?.strategy === SMS_STRATEGY) return startBySms(interaction, request, reply, connection, captcha);
      const email = pageParams(request, ['email']).email ?? '';
      if (!EMAIL.test(email)) throw refused(400, emailView(interaction, email, { field: 'email', message: 'Enter a valid email address.' }, captcha), interaction);
      if (!connection) throw refused(400, emailView(interaction, email, { message: 'Passwordless login is not available for this application.' }, captcha), interaction);
      if (!(await challengePassed(interaction, request, captcha))) throw refused(400, emailView(interaction, email, { message: invalidCaptcha }, captcha), interaction);
      try {
        await takeSend(ctx, interaction.tenant, 'passwordless_start', request.ip, email);
      } catch {
        throw refused(429, emailView(interaction, email, { field: 'email', message: 'Too many codes were sent. Wait a while before asking for another.' }, captcha), interaction);
      }
      await startEmail(ctx, { tenant: interaction.tenant, connection, client: { id: interaction.client.row.client_id, name: interaction.client.row.name }, email, send: 'code' });
      return sendPage(reply, 200, codeView(interaction, email), formRedirects(interaction));
    }),

    stepRoute(deps, NAME, 'POST', '/passwordless/login/verify', async (interaction, request, reply: FastifyReply) => {
      const { email = '', phone_number: phoneNumber = '', code = '' } = pageParams(request, ['email', 'phone_number', 'code']);
      const connection = await passwordlessConnectionOf(deps, interaction);
      const sms = connection?.strategy === SMS_STRATEGY;
      const recipient = sms ? phoneNumber : email;
      const again = (error: FormError) => refused(400, sms ? smsCodeView(interaction, phoneNumber.slice(0, 16), error) : codeView(interaction, email, error), interaction);
      const wrong = () => again({ field: 'code', message: sms ? smsText('wrong-code') : 'Wrong email or verification code.' });
      if (sms && (!E164.test(phoneNumber) || code.length > MAX_CODE)) throw wrong();
      if (!connection || !(await verifyEmailCode(ctx, interaction.tenant, connection, interaction.client.row.client_id, recipient, code))) throw wrong();
      const user = await passwordlessUser(ctx, interaction.tenant, connection, recipient);
      if (!user) throw wrong();
      if (!isActive(user)) throw again({ message: sms ? smsText('user-blocked') : 'This user is blocked.' });
      const authenticated = await deps.sessions.start(interaction.tenant, user, reply);
      return completeStep(deps, reply, { ...interaction, authenticated }, NAME);
    }),
  ];
}

export const passwordlessStep: InteractionStep = {
  name: NAME,
  page: () => '/passwordless/login',
  promptNone: { error: 'login_required', description: 'Login required' },
  needed: async (deps, interaction) => interaction.authenticated === undefined && (await passwordlessConnectionOf(deps, interaction)) !== undefined,
  routes,
};
