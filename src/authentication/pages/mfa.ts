/**
 * The hosted pages of the MFA step (../interaction/steps/mfa.ts): the
 * challenge (a code from the authenticator app, a code sent by email, a
 * recovery code), the OTP enrolment (the QR code as an inline SVG image and
 * the secret as text, for apps that cannot scan) and the recovery code,
 * shown once. Same rules as the other pages: texts in the request's language, escaped values, one
 * label per field, errors announced and tied to their field, every form
 * carrying the transaction and its CSRF token.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { Html, html, page, type PageDocument, type PageUi } from './html.js';
import { invalidLink } from './links.js';
import { PUSH_WAIT_START } from './push-wait.js';
import { WEBAUTHN_FORM_START } from './webauthn-form.js';

const link = (path: string, state: string, extra = '') => `${path}?state=${encodeURIComponent(state)}${extra}`;

export interface MfaChallengeView extends TransactionView {
  method: 'otp' | 'push' | 'email' | 'sms' | 'recovery' | 'webauthn';
  /** Whether the user has each kind of factor (for the links to the others). */
  hasOtp: boolean;
  hasWebauthn?: boolean;
  /** webauthn: the options of `navigator.credentials.get()`, as JSON. */
  webauthnOptions?: string;
  hasPush: boolean;
  hasEmail: boolean;
  hasSms: boolean;
  /** email, sms: the challenge the code was sent for; push: the transaction waited for (absent until one was sent). */
  oobCode?: string;
  /** push: how long the waiting page's script asks whether the device answered (the challenge's lifetime), seconds. */
  pushSeconds?: number;
  error?: FormError;
}

function sentBy(ui: PageUi, method: 'email' | 'sms', key: 'offerText' | 'sendButtonText' | 'sentText' | 'codeLabel'): string {
  return method === 'email' ? ui.text('mfa-email', 'mfa-email-challenge', key) : ui.text('mfa-sms', 'mfa-sms-challenge', key);
}

function codeField(name: string, label: string, error: FormError | undefined, pattern: string): Html {
  return html`<label for="${name}">${label}</label>
<input type="text" id="${name}" name="${name}" inputmode="${name === 'code' ? 'numeric' : 'text'}" autocomplete="one-time-code" pattern="${pattern}" required${fieldState(error, name)}>`;
}

function otherWays(ui: PageUi, view: MfaChallengeView): Html {
  const S = ['mfa', 'mfa-login-options'] as const;
  return html`<ul class="links">
${view.method !== 'webauthn' && view.hasWebauthn ? html`<li><a href="${link('/mfa', view.state, '&method=webauthn')}">${ui.text(...S, 'useWebauthnText')}</a></li>` : ''}
${view.method !== 'otp' && view.hasOtp ? html`<li><a href="${link('/mfa', view.state)}">${ui.text(...S, 'useOtpText')}</a></li>` : ''}
${view.method !== 'push' && view.hasPush ? html`<li><a href="${link('/mfa', view.state, '&method=push')}">${ui.text(...S, 'usePushText')}</a></li>` : ''}
${view.method !== 'email' && view.hasEmail ? html`<li><a href="${link('/mfa', view.state, '&method=email')}">${ui.text(...S, 'useEmailText')}</a></li>` : ''}
${view.method !== 'sms' && view.hasSms ? html`<li><a href="${link('/mfa', view.state, '&method=sms')}">${ui.text(...S, 'useSmsText')}</a></li>` : ''}
${view.method !== 'recovery' ? html`<li><a href="${link('/mfa', view.state, '&method=recovery')}">${ui.text(...S, 'useRecoveryCodeText')}</a></li>` : ''}
</ul>`;
}

/** The push waiting form's opening tag: with the status route its script asks (./push-wait.ts), and for how long. */
function pushWaitForm(view: MfaChallengeView): Html {
  const status = link('/mfa/push-status', view.state, `&oob_code=${encodeURIComponent(view.oobCode!)}`);
  return html`${new Html(PUSH_WAIT_START)}"${status}" data-push-seconds="${view.pushSeconds ?? 0}">`;
}

const WEBAUTHN_CHALLENGE = ['mfa-webauthn', 'mfa-webauthn-challenge'] as const;

/**
 * A WebAuthn ceremony's form (./webauthn-form.ts): the options in
 * `data-webauthn`, the credential's JSON sent in `credential`, a status
 * line for a ceremony that failed.
 */
function webauthnForm(ui: PageUi, view: TransactionView & { error?: FormError }, mode: 'create' | 'get', method: string, options: string, buttonText: string): Html {
  const failed = ui.text(...WEBAUTHN_CHALLENGE, 'failedText');
  return html`${new Html(WEBAUTHN_FORM_START)}"${options}" data-webauthn-mode="${mode}" data-webauthn-failed="${failed}" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="${method}"><input type="hidden" name="credential" value="">
<p role="status" class="status"></p>
<noscript><p>${ui.text(...WEBAUTHN_CHALLENGE, 'noScriptText')}</p></noscript>
<button type="submit">${buttonText}</button>
</form>`;
}

function challengeBody(ui: PageUi, view: MfaChallengeView): Html {
  const continueText = ui.text('mfa', 'mfa-login-options', 'buttonText');
  const S = ['mfa', 'mfa-login-options'] as const;
  if (view.method === 'webauthn') {
    return html`<p>${ui.text(...WEBAUTHN_CHALLENGE, 'description')}</p>
${webauthnForm(ui, view, 'get', 'webauthn', view.webauthnOptions ?? '{}', ui.text(...WEBAUTHN_CHALLENGE, 'buttonText'))}`;
  }
  if (view.method === 'push' && view.oobCode === undefined) {
    return html`<p>${ui.text(...S, 'pushOfferText')}</p>
<form method="post" action="/mfa/send">
${hiddenFields(view)}<input type="hidden" name="method" value="push">
<button type="submit">${ui.text(...S, 'pushSendButtonText')}</button>
</form>`;
  }
  if (view.method === 'push') {
    // Waiting for the device: the button posts the transaction; with script, the page posts it by itself once the device answered.
    return html`<p id="push-waiting" role="status">${ui.text(...S, 'pushWaitingText')}</p>
${view.error ? html`<form method="post" action="/mfa">` : pushWaitForm(view)}
${hiddenFields(view)}<input type="hidden" name="method" value="push"><input type="hidden" name="oob_code" value="${view.oobCode!}">
<button type="submit">${ui.text(...S, 'pushApprovedButtonText')}</button>
</form>`;
  }
  if (view.method === 'recovery') {
    return html`<p>${ui.text('mfa-recovery-code', 'mfa-recovery-code-challenge', 'description')}</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="recovery">
${codeField('recovery_code', ui.text('mfa-recovery-code', 'mfa-recovery-code-challenge', 'codeLabel'), view.error, '[A-Za-z0-9 \\-]{20,40}')}
<button type="submit">${continueText}</button>
</form>`;
  }
  if ((view.method === 'email' || view.method === 'sms') && view.oobCode === undefined) {
    return html`<p>${sentBy(ui, view.method, 'offerText')}</p>
<form method="post" action="/mfa/send">
${hiddenFields(view)}<input type="hidden" name="method" value="${view.method}">
<button type="submit">${sentBy(ui, view.method, 'sendButtonText')}</button>
</form>`;
  }
  if (view.method === 'email' || view.method === 'sms') {
    return html`<p>${sentBy(ui, view.method, 'sentText')}</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="${view.method}"><input type="hidden" name="oob_code" value="${view.oobCode!}">
${codeField('code', sentBy(ui, view.method, 'codeLabel'), view.error, '[0-9]{6}')}
<button type="submit">${continueText}</button>
</form>`;
  }
  return html`<p>${ui.text('mfa-otp', 'mfa-otp-challenge', 'description')}</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="otp">
${codeField('code', ui.text('mfa-otp', 'mfa-otp-challenge', 'codeLabel'), view.error, '[0-9]{6}')}
<button type="submit">${continueText}</button>
</form>`;
}

export function mfaChallengePage(view: MfaChallengeView): PageDocument {
  const S = ['mfa', 'mfa-login-options'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.rich(...S, 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
${challengeBody(ui, view)}
${otherWays(ui, view)}`,
  );
}

export type WebauthnFactorName = 'webauthn-roaming' | 'webauthn-platform';

/** The WebAuthn factors offered beside the authenticator app on the enrolment page. */
function webauthnOffers(ui: PageUi, view: TransactionView & { webauthnOffers?: readonly WebauthnFactorName[] }): Html | '' {
  const offers = view.webauthnOffers ?? [];
  if (offers.length === 0) return '';
  const E = ['mfa-webauthn', 'mfa-webauthn-enrollment'] as const;
  return html`<p>${ui.text(...E, 'offerText')}</p>
<ul class="links">
${offers.map((f) => html`<li><a href="${link('/mfa', view.state, `&method=${f}`)}">${ui.text(...E, f === 'webauthn-roaming' ? 'roamingButtonText' : 'platformButtonText')}</a></li>`)}
</ul>`;
}

export interface MfaWebauthnEnrolView extends TransactionView {
  factor: WebauthnFactorName;
  /** The options of `navigator.credentials.create()`, as JSON. */
  options: string;
  /** The other ways to enrol (the authenticator app's page, the other WebAuthn factor). */
  otpOffered: boolean;
  webauthnOffers?: readonly WebauthnFactorName[];
  error?: FormError;
}

/** Enrolling a security key or this device: the browser creates the credential when the button is pressed. */
export function mfaWebauthnEnrolPage(view: MfaWebauthnEnrolView): PageDocument {
  const E = ['mfa-webauthn', 'mfa-webauthn-enrollment'] as const;
  const roaming = view.factor === 'webauthn-roaming';
  return page(
    (ui) => ui.text(...E, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...E, 'title')}</h1>
<p>${ui.rich(...E, roaming ? 'roamingDescription' : 'platformDescription', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
${webauthnForm(ui, view, 'create', view.factor, view.options, ui.text(...E, roaming ? 'roamingButtonText' : 'platformButtonText'))}
${view.otpOffered ? html`<ul class="links"><li><a href="${link('/mfa', view.state)}">${ui.text('mfa', 'mfa-login-options', 'useOtpText')}</a></li></ul>` : ''}
${webauthnOffers(ui, { ...view, webauthnOffers: (view.webauthnOffers ?? []).filter((f) => f !== view.factor) })}`,
  );
}

export interface MfaEnrolView extends TransactionView {
  /** WebAuthn factors the user may enrol instead (links to their pages). */
  webauthnOffers?: readonly WebauthnFactorName[];
  /** The QR code of the otpauth:// URI, as SVG markup made by the QR library. */
  qrSvg: Html;
  secret: string;
  error?: FormError;
}

const ENROL = ['mfa-otp', 'mfa-otp-enrollment-qr'] as const;

/** The QR code (an image for screen readers too) and the secret as text, for apps that cannot scan. */
function enrolment(ui: PageUi, view: { qrSvg: Html; secret: string }): Html {
  return html`<div class="qr" role="img" aria-label="${ui.text(...ENROL, 'qrAltText')}">${view.qrSvg}</div>
<p>${ui.text(...ENROL, 'secretText')} <code id="secret">${view.secret}</code></p>`;
}

export function mfaEnrolPage(view: MfaEnrolView): PageDocument {
  return page(
    (ui) => ui.text(...ENROL, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...ENROL, 'title')}</h1>
<p>${ui.rich(...ENROL, 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
${enrolment(ui, view)}
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="otp">
${codeField('code', ui.text(...ENROL, 'codeLabel'), view.error, '[0-9]{6}')}
<button type="submit">${ui.text(...ENROL, 'buttonText')}</button>
</form>
${webauthnOffers(ui, view)}`,
  );
}

export interface RecoveryCodeView {
  clientName: string;
  state: string;
  code: string;
}

const RECOVERY = ['mfa-recovery-code', 'mfa-recovery-code-enrollment'] as const;

/** The recovery code, shown this once; "Continue" goes on with the login. */
export function recoveryCodePage(view: RecoveryCodeView): PageDocument {
  return page(
    (ui) => ui.text(...RECOVERY, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...RECOVERY, 'title')}</h1>
<p>${ui.rich(...RECOVERY, 'description', { clientName: view.clientName })}</p>
<p><code id="recovery-code">${view.code}</code></p>
<form method="get" action="/mfa">
<input type="hidden" name="state" value="${view.state}">
<button type="submit">${ui.text(...RECOVERY, 'buttonText')}</button>
</form>`,
  );
}

export function mfaUnavailablePage(): PageDocument {
  const S = ['mfa', 'mfa-unavailable'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1><p class="error" role="alert">${ui.text(...S, 'description')}</p>`,
  );
}

// ---------------------------------------------------------------------------
// The enrollment ticket's page (/guardian/enroll)

export function invalidEnrollmentTicketPage(): PageDocument {
  return invalidLink((ui) => ui.text(...ENROL, 'ticketInvalidDescription'));
}

export interface TicketEnrolView {
  tenantName: string;
  ticket: string;
  csrf: string;
  qrSvg: Html;
  secret: string;
  error?: FormError;
}

export function ticketEnrolPage(view: TicketEnrolView): PageDocument {
  return page(
    (ui) => ui.text(...ENROL, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...ENROL, 'title')}</h1>
<p>${ui.rich(...ENROL, 'ticketDescription', { tenantName: view.tenantName })}</p>
${errorBlock(ui, view.error)}
${enrolment(ui, view)}
<form method="post" action="/guardian/enroll">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
${codeField('code', ui.text(...ENROL, 'codeLabel'), view.error, '[0-9]{6}')}
<button type="submit">${ui.text(...ENROL, 'buttonText')}</button>
</form>`,
  );
}

export function ticketEnrolledPage(recoveryCode: string | undefined): PageDocument {
  return page(
    (ui) => ui.text(...ENROL, 'enrolledPageTitle'),
    (ui) => html`<h1>${ui.text(...ENROL, 'enrolledTitle')}</h1>
<p class="ok" role="status">${ui.text(...ENROL, 'enrolledDescription')}</p>
${recoveryCode === undefined ? '' : html`<p>${ui.text(...RECOVERY, 'ticketDescription')}</p><p><code id="recovery-code">${recoveryCode}</code></p>`}`,
  );
}
