/**
 * The MFA step, after login: needed while the session's login has no
 * second factor (`amr` without `mfa`) and the tenant's MFA policy requires
 * one of the user, or the request forces it with
 * `acr_values=http://schemas.openid.net/pape/policies/2007/06/multi-factor`
 * (src/domain/mfa/service.ts `mfaRequired`). Under `prompt=none`:
 * `interaction_required`.
 *
 * - A user with a confirmed factor is challenged (/mfa): a code from their
 *   authenticator app, a push notification to their enrolled device
 *   (/mfa/send; the waiting page's button, or its script once
 *   /mfa/push-status says the device answered, posts the transaction to
 *   /mfa), a code sent by email or text
 *   message (/mfa/send; texts limited per IP and per number), or a recovery
 *   code (then the next recovery code is shown once).
 * - A user without one enrols an authenticator app (/mfa: the QR code and
 *   the secret; the first code confirms it), then sees their recovery code
 *   once when that factor is on.
 *
 * - With the `duo` factor on (and its settings complete), every user is sent
 *   to Duo's Universal Prompt instead (Duo enrols and challenges the user
 *   itself) and comes back to /mfa/duo/callback, where Duo's code is
 *   redeemed and its answer checked (src/domain/mfa/duo.ts); Duo's refusal
 *   goes back to the client as `access_denied`.
 *
 * A right code records `mfa` on the session (ID tokens then carry
 * `amr: ["mfa"]`, and later requests in this session are not asked again),
 * remembers the browser for the user (../../mfa/remember-browser.ts: later
 * logins of that user in that browser skip the step, unless `acr_values`
 * asks for MFA or the user's factors changed) and completes the step. Codes follow the domain's rules: single use, five
 * wrong codes block the user's second factor for a while.
 */
import type { FastifyReply, RouteOptions } from 'fastify';
import type { Authenticator } from '../../../domain/mfa/model.js';
import { lifetimeOf } from '../../../domain/lifetimes.js';
import { factorEnabled, factorOf, factorOfPageMethod, OTP_FACTOR, SECOND_FACTORS } from '../../../domain/mfa/factors/registry.js';
import type { SecondFactor } from '../../../domain/mfa/factors/factor.js';
import { authenticate as authenticateCredential, authenticationOptions, register as registerCredential, registrationOptions, type WebAuthnBinding } from '../../../domain/mfa/webauthn.js';
import { pollPushChallenge, pushChallengeStatus, startPushChallenge } from '../../../domain/mfa/push.js';
import { duoApplication, DuoError, duoLogin, duoPromptUrl, duoUsername, verifyDuo } from '../../../domain/mfa/duo.js';
import {
  firstRecoveryCode,
  mfaRequired,
  mfaSettings,
  secondFactors,
  startOobChallenge,
  startTotpEnrolment,
  usableAuthenticators,
  useRecoveryCode,
  verifyOob,
  verifyTotp,
  type Verification,
} from '../../../domain/mfa/service.js';
import { OAuthError, oauthErrors } from '../../../platform/http/errors.js';
import { takeSend } from '../../abuse-limits.js';
import { PageError, pageErrors } from '../../errors.js';
import { answerErrorsTo } from '../../error-rendering.js';
import { appendCookie } from '../../cookies.js';
import { bindingCodeSender } from '../../mfa/delivery.js';
import { RememberedBrowsers } from '../../mfa/remember-browser.js';
import { pushSender } from '../../mfa/push-delivery.js';
import type { FormError } from '../../pages/authorize.js';
import { Html, sendPage, type PageDocument } from '../../pages/html.js';
import { mfaChallengePage, mfaEnrolPage, mfaUnavailablePage, mfaWebauthnEnrolPage, recoveryCodePage, type MfaChallengeView, type WebauthnFactorName } from '../../pages/mfa.js';
import { credentialParam } from '../../pages/webauthn-form.js';
import { pageParams } from '../../params.js';
import { completeStep, stepInteraction, stepRoute } from '../policy.js';
import type { Interaction, StepDeps, InteractionStep } from '../step.js';
import { formRedirects, transactionView } from './login.js';
import { MULTI_FACTOR_ACR } from '../acr.js';

const NAME = 'mfa';


export { MULTI_FACTOR_ACR };

const MFA_AMR = 'mfa';

const TOO_MANY: FormError['message'] = (ui) => ui.text('mfa', 'mfa-login-options', 'too-many-failures');

function hasSecondFactor(interaction: Interaction): boolean {
  return interaction.authenticated?.session.amr?.split(' ').includes(MFA_AMR) === true;
}

const rememberedBrowsers = new WeakMap<StepDeps['ctx'], RememberedBrowsers>();
function remembered(deps: StepDeps): RememberedBrowsers {
  let found = rememberedBrowsers.get(deps.ctx);
  if (!found) rememberedBrowsers.set(deps.ctx, (found = new RememberedBrowsers(deps.ctx)));
  return found;
}

async function needed(deps: StepDeps, interaction: Interaction): Promise<boolean> {
  const { authenticated, request } = interaction;
  if (!authenticated || hasSecondFactor(interaction)) return false;
  const forced = request.acr_values?.split(' ').includes(MULTI_FACTOR_ACR) === true;
  if (!(await mfaRequired(deps.ctx, interaction.tenant.id, authenticated.user.user_id, forced))) return false;
  // A browser that passed a second factor for this user is not asked again, unless the request asks for MFA.
  if (!forced && (await remembered(deps).remembers(interaction.tenant, authenticated.user.user_id, interaction.browser, interaction.cookies))) return false;
  return true;
}

async function factorsOf(deps: StepDeps, interaction: Interaction): Promise<Authenticator[]> {
  return secondFactors(await usableAuthenticators(deps.ctx, interaction.tenant.id, interaction.authenticated!.user.user_id));
}

type Method = MfaChallengeView['method'];

const TOO_MANY_SENT = 'Too many codes were sent. Wait a while, or use another way.';

function methodOf(value: string | undefined): Method | undefined {
  return value === 'otp' || value === 'push' || value === 'email' || value === 'sms' || value === 'recovery' || value === 'webauthn' ? value : undefined;
}

/** The page's method of a factor: every WebAuthn factor is answered by one ceremony over all the user's credentials. */
function pageMethodOf(factor: SecondFactor): Method | undefined {
  return factor.challenge === 'webauthn' ? 'webauthn' : methodOf(factor.pageMethod);
}

function binding(interaction: Interaction): WebAuthnBinding {
  return { clientId: interaction.client.row.client_id, transactionId: interaction.transactionId! };
}

async function challengeView(deps: StepDeps, interaction: Interaction, method: Method | undefined, extra: { oobCode?: string; error?: FormError } = {}) {
  const factors = await factorsOf(deps, interaction);
  // The registry's order is the page's preference: the first enrolled factor is offered first.
  const offered = [...new Set(SECOND_FACTORS.filter((f) => factors.some((a) => factorOf(a) === f)).flatMap((f) => pageMethodOf(f) ?? []))];
  const has = (m: Method) => offered.includes(m);
  const chosen: Method = method ?? offered[0] ?? 'recovery';
  const pushSeconds = chosen === 'push' && extra.oobCode !== undefined ? lifetimeOf(interaction.tenant, 'mfa_oob_code') : undefined;
  const webauthnOptions =
    chosen === 'webauthn' ? JSON.stringify(await authenticationOptions(deps.ctx, interaction.tenant, interaction.authenticated!.user.user_id, binding(interaction), factors)) : undefined;
  return mfaChallengePage({
    ...transactionView(deps, interaction),
    method: chosen,
    hasOtp: has('otp'),
    hasWebauthn: has('webauthn'),
    hasPush: has('push'),
    hasEmail: has('email'),
    hasSms: has('sms'),
    ...extra,
    ...(pushSeconds !== undefined && { pushSeconds }),
    ...(webauthnOptions !== undefined && { webauthnOptions }),
  });
}

/**
 * The enrolment page of the factor asked for (`method`): a security key or
 * this device (a new WebAuthn challenge each visit), else the authenticator
 * app (a new secret each visit; the latest one is the one confirmed), with
 * links to the other enabled ways. Without the authenticator app, the first
 * enabled WebAuthn factor.
 */
async function enrolView(deps: StepDeps, interaction: Interaction, method: string | undefined, error?: FormError): Promise<PageDocument | undefined> {
  const settings = await mfaSettings(deps.ctx, interaction.tenant.id);
  const webauthn = SECOND_FACTORS.filter((f) => f.challenge === 'webauthn' && factorEnabled(settings.factors, f));
  const offers = webauthn.map((f) => f.name as WebauthnFactorName);
  const otpOffered = factorEnabled(settings.factors, OTP_FACTOR);
  const asked = factorOfPageMethod(method);
  const key = asked && webauthn.includes(asked) ? asked : otpOffered ? undefined : webauthn[0];
  if (key) {
    const options = await registrationOptions(deps.ctx, interaction.tenant, interaction.authenticated!.user, key, binding(interaction));
    return mfaWebauthnEnrolPage({ ...transactionView(deps, interaction), factor: key.name as WebauthnFactorName, options: JSON.stringify(options), otpOffered, webauthnOffers: offers, ...(error && { error }) });
  }
  if (!otpOffered) return undefined;
  const { secret, barcodeUri } = await startTotpEnrolment(deps.ctx, interaction.tenant, interaction.authenticated!.user);
  const qrSvg = new Html(await (await import('qrcode')).toString(barcodeUri, { type: 'svg', margin: 1, width: 200 }));
  return mfaEnrolPage({ ...transactionView(deps, interaction), qrSvg, secret, webauthnOffers: offers, ...(error && { error }) });
}

/** The second factor was right: `mfa` on the session, the recovery code shown if there is one, else on with the login. */
async function passed(deps: StepDeps, reply: FastifyReply, interaction: Interaction, recoveryCode: string | undefined): Promise<FastifyReply> {
  const { tenant } = interaction;
  const authenticated = interaction.authenticated!;
  const amr = [...new Set([...(authenticated.session.amr?.split(' ') ?? []), MFA_AMR])].join(' ');
  await deps.ctx.stores.sessions.setAmr(tenant.id, authenticated.session.id_hash, amr);
  appendCookie(reply, await remembered(deps).cookie(tenant, authenticated.user.user_id, interaction.browser));
  const updated: Interaction = { ...interaction, authenticated: { ...authenticated, session: { ...authenticated.session, amr } } };
  if (recoveryCode !== undefined) {
    // Its "continue" form leads on to the application's callback: the page's CSP must let the form go there.
    return sendPage(reply, 200, recoveryCodePage({ clientName: interaction.client.row.name, state: interaction.transactionId!, code: recoveryCode }), formRedirects(interaction));
  }
  return completeStep(deps, reply, updated, NAME);
}

/**
 * The push transaction `oobCode` as the device left it: still waiting (the
 * waiting page again), denied (the challenge page says so), or approved
 * (the second factor passed). Not paced: the page asks at its own rate.
 */
async function pushAnswer(deps: StepDeps, reply: FastifyReply, interaction: Interaction, oobCode: string): Promise<FastifyReply> {
  const { tenant } = interaction;
  const poll = await pollPushChallenge(deps.ctx, tenant.id, interaction.authenticated!.user.user_id, interaction.client.row.client_id, oobCode, false);
  switch (poll.outcome) {
    case 'ok':
      return passed(deps, reply, interaction, undefined);
    case 'pending':
    case 'slow_down':
      return sendPage(reply, 200, await challengeView(deps, interaction, 'push', { oobCode }), formRedirects(interaction));
    default: {
      const message = poll.outcome === 'denied' ? 'The login was denied on your device.' : poll.outcome === 'blocked' ? TOO_MANY : 'That notification is no longer valid. Send a new one.';
      throw new PageError(poll.outcome === 'blocked' ? 429 : 400, await challengeView(deps, interaction, 'push', { error: { message } }), formRedirects(interaction));
    }
  }
}

/** Where Duo sends the browser back: the tenant's own host, as the request came. */
function duoRedirectUri(interaction: Interaction): string {
  return `${interaction.tenant.issuer}mfa/duo/callback`;
}

/** The browser sent to Duo's Universal Prompt for this login, when the tenant's logins go to Duo. */
async function toDuo(deps: StepDeps, reply: FastifyReply, interaction: Interaction): Promise<FastifyReply | undefined> {
  const app = await duoApplication(deps.ctx, interaction.tenant.id);
  if (!app) return undefined;
  const login = duoLogin(interaction.transactionId!, duoUsername(interaction.authenticated!.user), duoRedirectUri(interaction));
  return reply.redirect(await duoPromptUrl(deps.ctx, app, login), 302);
}

function routes(deps: StepDeps): RouteOptions[] {
  const { ctx } = deps;
  return [
    stepRoute(deps, NAME, 'GET', '/mfa', async (interaction, request, reply) => {
      const duo = await toDuo(deps, reply, interaction);
      if (duo) return duo;
      if ((await factorsOf(deps, interaction)).length === 0) {
        const enrol = await enrolView(deps, interaction, pageParams(request, ['method']).method);
        return sendPage(reply, enrol ? 200 : 400, enrol ?? mfaUnavailablePage(), formRedirects(interaction));
      }
      const params = pageParams(request, ['method', 'oob_code']);
      const chosen = methodOf(params.method);
      // The push waiting page's transaction, asked for again (by hand, or an older page that reloaded itself).
      if (chosen === 'push' && params.oob_code !== undefined) return pushAnswer(deps, reply, interaction, params.oob_code);
      return sendPage(reply, 200, await challengeView(deps, interaction, chosen), formRedirects(interaction));
    }),

    // Duo's Universal Prompt sends the browser back here with `state` (the transaction) and `duo_code`, or `error`.
    stepRoute(deps, NAME, 'GET', '/mfa/duo/callback', async (interaction, request, reply) => {
      const { tenant } = interaction;
      const params = pageParams(request, ['duo_code', 'error']);
      const app = await duoApplication(ctx, tenant.id);
      if (!app) throw new PageError(400, mfaUnavailablePage(), formRedirects(interaction));
      const denied = async () => {
        if (!(await deps.transactions.consume(tenant, interaction.transactionId!))) throw pageErrors.expiredTransaction();
        // Duo's refusal goes back to the client, as the authorization error response (RFC 6749 §4.1.2.1).
        answerErrorsTo(request, interaction.request);
        return oauthErrors.accessDenied('The second factor (Duo) did not allow the login');
      };
      if (params.error !== undefined || params.duo_code === undefined) throw await denied();
      const login = duoLogin(interaction.transactionId!, duoUsername(interaction.authenticated!.user), duoRedirectUri(interaction));
      try {
        await verifyDuo(ctx, app, login, params.duo_code);
      } catch (error) {
        if (!(error instanceof DuoError)) throw error;
        request.log.warn({ tenant: tenant.name, reason: error.reason }, `Duo login refused: ${error.message}`);
        if (error.reason === 'denied') throw await denied();
        throw new PageError(error.reason === 'unreachable' ? 502 : 400, mfaUnavailablePage(), formRedirects(interaction));
      }
      return passed(deps, reply, interaction, undefined);
    }),

    {
      // The push waiting page's script asks here whether the device answered (../../pages/push-wait.ts); only this browser's transaction, at this step, for its own push.
      method: 'GET',
      url: '/mfa/push-status',
      handler: async (request, reply) => {
        // Not this browser's transaction (or none): a 4xx that says no more, in the JSON of an API.
        const notWaiting = () => oauthErrors.invalidRequest('No such login is waiting in this browser.');
        const { interaction, current } = await stepInteraction(deps, request, reply, { expired: notWaiting, invalidParameter: notWaiting });
        let status: 'pending' | 'done' | 'unknown' = 'done';
        if (current?.name === NAME) {
          const oobCode = pageParams(request, ['oob_code'], oauthErrors.invalidRequest).oob_code ?? '';
          status = await pushChallengeStatus(ctx, interaction.tenant.id, interaction.authenticated!.user.user_id, interaction.client.row.client_id, oobCode);
        }
        // Another step or none left: "done", and the form's post lets the policy go on.
        if (status === 'unknown') throw oauthErrors.invalidRequest('No such push notification is waiting for this login.', 404);
        return reply.code(200).header('Cache-Control', 'no-store').send({ status });
      },
    },

    stepRoute(deps, NAME, 'POST', '/mfa/send', async (interaction, request, reply) => {
      const method = methodOf(pageParams(request, ['method']).method);
      const sent = factorOfPageMethod(method);
      const kind = sent?.challenge;
      const factor = (kind === 'binding-code' || kind === 'push') && (await factorsOf(deps, interaction)).find((a) => factorOf(a) === sent);
      if (!factor) throw new PageError(400, await challengeView(deps, interaction, undefined, { error: { message: 'No such way to get a code is set up for this account.' } }), formRedirects(interaction));
      if (sent!.sendLimit !== undefined) {
        try {
          // Each text message costs money, each notification the user's patience: limited per client IP and per number or device (../../abuse-limits.ts).
          await takeSend(ctx, interaction.tenant, sent!.sendLimit, request.ip, factor.phone_number ?? factor.id);
        } catch {
          throw new PageError(429, await challengeView(deps, interaction, method, { error: { message: TOO_MANY_SENT } }), formRedirects(interaction));
        }
      }
      let oobCode: string;
      try {
        const clientId = interaction.client.row.client_id;
        oobCode =
          kind === 'push'
            ? await startPushChallenge(ctx, interaction.tenant, factor, clientId, pushSender(ctx, interaction.tenant, factor, { clientName: interaction.client.row.name }))
            : await startOobChallenge(ctx, interaction.tenant, factor, clientId, bindingCodeSender(ctx, interaction.tenant, factor, 'verification', (await request.pageUi?.())?.language));
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        throw new PageError(502, await challengeView(deps, interaction, method, { error: { message: 'The code could not be sent. Try another way, or try again later.' } }), formRedirects(interaction));
      }
      return sendPage(reply, 200, await challengeView(deps, interaction, method, { oobCode }), formRedirects(interaction));
    }),

    stepRoute(deps, NAME, 'POST', '/mfa', async (interaction, request, reply) => {
      const { tenant } = interaction;
      const userId = interaction.authenticated!.user.user_id;
      const params = pageParams(request, ['method', 'code', 'recovery_code', 'oob_code', 'credential']);
      const factors = await factorsOf(deps, interaction);
      const enrolling = factors.length === 0;
      const method: Method = methodOf(params.method) ?? 'otp';

      const refuse = async (outcome: 'wrong' | 'blocked', field: string) => {
        const wrongText: FormError['message'] =
          field === 'credential' ? (ui) => ui.text('mfa-webauthn', 'mfa-webauthn-challenge', 'refusedText') : (ui) => ui.text('mfa', 'mfa-login-options', 'wrong-code');
        const error: FormError = { message: outcome === 'blocked' ? TOO_MANY : wrongText, field };
        const status = outcome === 'blocked' ? 429 : 400;
        const content = enrolling ? await enrolView(deps, interaction, params.method, error) : await challengeView(deps, interaction, method, { ...(params.oob_code !== undefined && { oobCode: params.oob_code }), error });
        return new PageError(status, content ?? mfaUnavailablePage(), formRedirects(interaction));
      };

      if (method === 'push') return pushAnswer(deps, reply, interaction, params.oob_code ?? '');
      const key = factorOfPageMethod(params.method);
      if (enrolling && key?.challenge === 'webauthn') {
        // A new security key or this device: the credential the browser created for this login's challenge.
        const settings = await mfaSettings(ctx, tenant.id);
        const created = factorEnabled(settings.factors, key)
          ? await registerCredential(ctx, tenant, interaction.authenticated!.user, key, binding(interaction), credentialParam(params.credential))
          : ({ outcome: 'wrong' } as const);
        if (created.outcome !== 'ok') throw await refuse(created.outcome, 'credential');
        return passed(deps, reply, interaction, await firstRecoveryCode(ctx, tenant.id, userId));
      }
      if (method === 'webauthn') {
        const verified = await authenticateCredential(ctx, tenant, userId, binding(interaction), factors, credentialParam(params.credential));
        if (verified.outcome !== 'ok') throw await refuse(verified.outcome, 'credential');
        return passed(deps, reply, interaction, undefined);
      }
      if (method === 'recovery') {
        const result = await useRecoveryCode(ctx, tenant.id, userId, params.recovery_code ?? '');
        if (result.outcome !== 'ok') throw await refuse(result.outcome, 'recovery_code');
        return passed(deps, reply, interaction, result.next);
      }
      let verified: Verification;
      if (method === 'email' || method === 'sms') verified = await verifyOob(ctx, tenant.id, userId, interaction.client.row.client_id, params.oob_code ?? '', params.code ?? '');
      else verified = await verifyTotp(ctx, tenant.id, userId, params.code ?? '');
      if (verified.outcome !== 'ok') throw await refuse(verified.outcome, 'code');
      return passed(deps, reply, interaction, enrolling ? await firstRecoveryCode(ctx, tenant.id, userId) : undefined);
    }),
  ];
}

export const mfaStep: InteractionStep = {
  name: NAME,
  page: () => '/mfa',
  promptNone: { error: 'interaction_required', description: 'Multifactor authentication required' },
  needed,
  routes,
};
