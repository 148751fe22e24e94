/**
 * The hosted pages of the MFA step (../interaction/steps/mfa.ts): the
 * challenge (a code from the authenticator app, a code sent by email, a
 * recovery code), the OTP enrolment (the QR code as an inline SVG image and
 * the secret as text, for apps that cannot scan) and the recovery code,
 * shown once. Same rules as the other pages: no scripts, escaped values, one
 * label per field, errors announced and tied to their field, every form
 * carrying the transaction and its CSRF token.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type Html } from './html.js';

const link = (path: string, state: string, extra = '') => `${path}?state=${encodeURIComponent(state)}${extra}`;

export interface MfaChallengeView extends TransactionView {
  method: 'otp' | 'push' | 'email' | 'sms' | 'recovery';
  /** Whether the user has each kind of factor (for the links to the others). */
  hasOtp: boolean;
  hasPush: boolean;
  hasEmail: boolean;
  hasSms: boolean;
  /** email, sms: the challenge the code was sent for; push: the transaction waited for (absent until one was sent). */
  oobCode?: string;
  error?: FormError;
}

const SENT_BY: Readonly<Record<'email' | 'sms', { offer: string; button: string; sent: string }>> = {
  email: { offer: 'We will send a code to your email address.', button: 'Email me a code', sent: 'We sent a code to your email address. Enter it to continue.' },
  sms: { offer: 'We will send a code to your phone by text message.', button: 'Text me a code', sent: 'We sent a code to your phone. Enter it to continue.' },
};

function codeField(name: string, label: string, error: FormError | undefined, pattern: string): Html {
  return html`<label for="${name}">${label}</label>
<input type="text" id="${name}" name="${name}" inputmode="${name === 'code' ? 'numeric' : 'text'}" autocomplete="one-time-code" pattern="${pattern}" required${fieldState(error, name)}>`;
}

function otherWays(view: MfaChallengeView): Html {
  return html`<ul>
${view.method !== 'otp' && view.hasOtp ? html`<li><a href="${link('/mfa', view.state)}">Use your authenticator app</a></li>` : ''}
${view.method !== 'push' && view.hasPush ? html`<li><a href="${link('/mfa', view.state, '&method=push')}">Get a notification on your device</a></li>` : ''}
${view.method !== 'email' && view.hasEmail ? html`<li><a href="${link('/mfa', view.state, '&method=email')}">Get a code by email</a></li>` : ''}
${view.method !== 'sms' && view.hasSms ? html`<li><a href="${link('/mfa', view.state, '&method=sms')}">Get a code by text message</a></li>` : ''}
${view.method !== 'recovery' ? html`<li><a href="${link('/mfa', view.state, '&method=recovery')}">Use a recovery code</a></li>` : ''}
</ul>`;
}

/** How often the push waiting page reloads itself, seconds. */
const PUSH_REFRESH_SECONDS = 3;

export function mfaChallengePage(view: MfaChallengeView): Html {
  let body: Html;
  let refresh: { seconds: number; url: string } | undefined;
  if (view.method === 'push' && view.oobCode === undefined) {
    body = html`<p>We will send a notification to the device you set up. Approve it there to continue.</p>
<form method="post" action="/mfa/send">
${hiddenFields(view)}<input type="hidden" name="method" value="push">
<button type="submit">Send a notification</button>
</form>`;
  } else if (view.method === 'push') {
    // Waiting for the device: the page reloads itself (a meta refresh, the pages have no scripts) and the button does the same by hand.
    refresh = view.error ? undefined : { seconds: PUSH_REFRESH_SECONDS, url: link('/mfa', view.state, `&method=push&oob_code=${encodeURIComponent(view.oobCode!)}`) };
    body = html`<p id="push-waiting" role="status">We sent a notification to your device. Approve it there; this page goes on by itself.</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="push"><input type="hidden" name="oob_code" value="${view.oobCode!}">
<button type="submit">I have approved it</button>
</form>`;
  } else if (view.method === 'recovery') {
    body = html`<p>Enter the recovery code you saved when you set up two-step verification.</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="recovery">
${codeField('recovery_code', 'Recovery code', view.error, '[A-Za-z0-9 \\-]{20,40}')}
<button type="submit">Continue</button>
</form>`;
  } else if ((view.method === 'email' || view.method === 'sms') && view.oobCode === undefined) {
    body = html`<p>${SENT_BY[view.method].offer}</p>
<form method="post" action="/mfa/send">
${hiddenFields(view)}<input type="hidden" name="method" value="${view.method}">
<button type="submit">${SENT_BY[view.method].button}</button>
</form>`;
  } else if (view.method === 'email' || view.method === 'sms') {
    body = html`<p>${SENT_BY[view.method].sent}</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="${view.method}"><input type="hidden" name="oob_code" value="${view.oobCode!}">
${codeField('code', 'Code', view.error, '[0-9]{6}')}
<button type="submit">Continue</button>
</form>`;
  } else {
    body = html`<p>Enter the 6-digit code from your authenticator app.</p>
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="otp">
${codeField('code', 'Code', view.error, '[0-9]{6}')}
<button type="submit">Continue</button>
</form>`;
  }
  return page(
    'Verify your identity',
    html`<h1>Verify your identity</h1>
<p>Two-step verification is on for <strong>${view.clientName}</strong>.</p>
${errorBlock(view.error)}
${body}
${otherWays(view)}`,
    refresh,
  );
}

export interface MfaEnrolView extends TransactionView {
  /** The QR code of the otpauth:// URI, as SVG markup made by the QR library. */
  qrSvg: Html;
  secret: string;
  error?: FormError;
}

/** The QR code (an image for screen readers too) and the secret as text, for apps that cannot scan. */
function enrolment(view: { qrSvg: Html; secret: string }): Html {
  return html`<div role="img" aria-label="QR code to scan with an authenticator app" style="width:200px">${view.qrSvg}</div>
<p>Or enter this key in the app: <code id="secret">${view.secret}</code></p>`;
}

export function mfaEnrolPage(view: MfaEnrolView): Html {
  return page(
    'Set up two-step verification',
    html`<h1>Set up two-step verification</h1>
<p><strong>${view.clientName}</strong> asks for a second step when you log in. Scan this code with an authenticator app (such as Google Authenticator or 1Password).</p>
${errorBlock(view.error)}
${enrolment(view)}
<form method="post" action="/mfa">
${hiddenFields(view)}<input type="hidden" name="method" value="otp">
${codeField('code', 'Code from the app', view.error, '[0-9]{6}')}
<button type="submit">Verify</button>
</form>`,
  );
}

export interface RecoveryCodeView {
  clientName: string;
  state: string;
  code: string;
}

/** The recovery code, shown this once; "Continue" goes on with the login. */
export function recoveryCodePage(view: RecoveryCodeView): Html {
  return page(
    'Your recovery code',
    html`<h1>Save your recovery code</h1>
<p>If you lose your device, this code lets you log in to <strong>${view.clientName}</strong>. It is shown only now, and works once.</p>
<p><code id="recovery-code">${view.code}</code></p>
<form method="get" action="/mfa">
<input type="hidden" name="state" value="${view.state}">
<button type="submit">I have saved it, continue</button>
</form>`,
  );
}

export function mfaUnavailablePage(): Html {
  return page('Two-step verification', html`<h1>Two-step verification is required</h1><p class="error" role="alert">No second factor can be set up here. Contact the administrator of this application.</p>`);
}

// ---------------------------------------------------------------------------
// The enrollment ticket's page (/guardian/enroll)

export function invalidEnrollmentTicketPage(): Html {
  return page(
    'Link not valid',
    html`<h1>This link is not valid</h1><p class="error" role="alert">The enrollment link is invalid, has expired, or was already used. Ask for a new one.</p>`,
  );
}

export interface TicketEnrolView {
  tenantName: string;
  ticket: string;
  csrf: string;
  qrSvg: Html;
  secret: string;
  error?: FormError;
}

export function ticketEnrolPage(view: TicketEnrolView): Html {
  return page(
    'Set up two-step verification',
    html`<h1>Set up two-step verification</h1>
<p>Scan this code with an authenticator app to protect your <strong>${view.tenantName}</strong> account.</p>
${errorBlock(view.error)}
${enrolment(view)}
<form method="post" action="/guardian/enroll">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
${codeField('code', 'Code from the app', view.error, '[0-9]{6}')}
<button type="submit">Verify</button>
</form>`,
  );
}

export function ticketEnrolledPage(recoveryCode: string | undefined): Html {
  return page(
    'Two-step verification is on',
    html`<h1>Two-step verification is on</h1>
<p class="ok" role="status">Your authenticator app is set up. You will be asked for a code when you log in.</p>
${recoveryCode === undefined ? '' : html`<p>If you lose your device, this recovery code lets you log in. It is shown only now, and works once:</p><p><code id="recovery-code">${recoveryCode}</code></p>`}`,
  );
}
