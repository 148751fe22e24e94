/**
 * The passkey pages and forms (src/domain/mfa/passkeys.ts): the login page's
 * passkey form (the "Continue with a passkey" button, and the browser's
 * autofill in the identifier field), and the page that creates a passkey
 * (at signup, and offered after a password login). Each is a WebAuthn form
 * of ./webauthn-form.ts: the ceremony's options in `data-webauthn`, its
 * sealed state in `passkey_state`, the credential's JSON sent in
 * `credential`, a status line for a ceremony that did not complete.
 */
import { errorBlock, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { Html, html, page, type PageDocument, type PageUi } from './html.js';
import { WEBAUTHN_FORM_START } from './webauthn-form.js';

/** A ceremony the page runs: its options (JSON) and sealed state. */
export interface PasskeyCeremonyView {
  options: string;
  state: string;
}

/** How the login page offers passkeys (the connection's `passkey_options.challenge_ui`). */
export interface PasskeyLoginOffer extends PasskeyCeremonyView {
  button: boolean;
  autofill: boolean;
}

const link = (path: string, state: string, extra = '') => `${path}?state=${encodeURIComponent(state)}${extra}`;

function ceremonyForm(ui: PageUi, view: TransactionView, ceremony: PasskeyCeremonyView, form: { mode: 'create' | 'get'; action: string; conditional?: boolean; failed: string; button?: string }): Html {
  return html`${new Html(WEBAUTHN_FORM_START)}"${ceremony.options}" data-webauthn-mode="${form.mode}"${form.conditional ? html` data-webauthn-conditional="true"` : ''} data-webauthn-failed="${form.failed}" action="${form.action}">
${hiddenFields(view)}<input type="hidden" name="passkey_state" value="${ceremony.state}"><input type="hidden" name="credential" value="">
<p role="status" class="status"></p>
${form.button !== undefined ? html`<noscript><p>${ui.text('mfa-webauthn', 'mfa-webauthn-challenge', 'noScriptText')}</p></noscript>
<button type="submit"${form.mode === 'get' ? html` class="secondary"` : ''}>${form.button}</button>
` : ''}</form>`;
}

/** The login page's passkey form: its button unless the connection offers autofill alone; autofill asked of the browser unless it offers the button alone. */
export function passkeyLoginForm(ui: PageUi, view: TransactionView, offer: PasskeyLoginOffer): Html {
  return html`<div class="passkey">
${ceremonyForm(ui, view, offer, {
  mode: 'get',
  action: '/login/passkey',
  conditional: offer.autofill,
  failed: ui.text('login', 'login', 'passkeyFailedText'),
  ...(offer.button && { button: ui.text('login', 'login', 'passkeyButtonText') }),
})}
</div>`;
}

export interface PasskeyEnrolmentView extends TransactionView {
  ceremony: PasskeyCeremonyView;
  /** Where the credential is posted. */
  action: '/signup/passkey' | '/passkey/enrol';
  /** Signup: the link to sign up with a password instead (absent when the connection has none). */
  passwordInstead?: string;
  /** After a login: the form that declines (posts `skip`). */
  skip?: boolean;
  error?: FormError;
}

const E = ['passkeys', 'passkey-enrollment'] as const;

/** Create a passkey: at signup (the user is made once it is), or offered after a password login. */
export function passkeyEnrolmentPage(view: PasskeyEnrolmentView): PageDocument {
  return page(
    (ui) => ui.text(...E, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...E, 'title')}</h1>
<p>${ui.rich(...E, 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
${ceremonyForm(ui, view, view.ceremony, { mode: 'create', action: view.action, failed: ui.text(...E, 'failedText'), button: ui.text(...E, 'createButtonText') })}
${view.skip ? html`<form method="post" action="${view.action}">
${hiddenFields(view)}<input type="hidden" name="skip" value="true">
<button type="submit" class="secondary">${ui.text(...E, 'skipButtonText')}</button>
</form>` : ''}
${view.passwordInstead !== undefined ? html`<div class="links"><p><a href="${link('/signup', view.state, `&method=password&email=${encodeURIComponent(view.passwordInstead)}`)}">${ui.text(...E, 'passwordInsteadText')}</a></p></div>` : ''}`,
    { clientName: view.clientName },
  );
}
