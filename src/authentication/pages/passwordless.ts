/**
 * The hosted pages of the passwordless step (../interaction/steps/
 * passwordless.ts): the address (email connections) or the phone number
 * (sms connections) to send a code to, then the code. Same rules as the
 * other pages: texts in the request's language, escaped values, labelled
 * fields, errors announced and tied to their field, the transaction and its
 * CSRF token in every form. The tenant's `login-passwordless` partials of
 * the channel's screen (src/domain/branding/partials.ts) are written at the
 * start and end of each page's form.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, partialAt, type Html, type PageDocument, type PageUi } from './html.js';

const PROMPT = 'login-passwordless';

/** How a page of one channel asks for its recipient: the screen of its texts and the form field. */
interface Channel {
  screen: 'login-passwordless-email-code' | 'login-passwordless-sms-otp';
  field: 'email' | 'phone_number';
  /** The variable of the recipient in the code page's description. */
  variable: 'email' | 'phoneNumber';
  label: (ui: PageUi) => string;
  input: Html;
}

const EMAIL: Channel = {
  screen: 'login-passwordless-email-code',
  field: 'email',
  variable: 'email',
  label: (ui) => ui.text(PROMPT, 'login-passwordless-email-code', 'emailLabel'),
  input: html`type="email" autocomplete="email"`,
};

const SMS: Channel = {
  screen: 'login-passwordless-sms-otp',
  field: 'phone_number',
  variable: 'phoneNumber',
  label: (ui) => ui.text(PROMPT, 'login-passwordless-sms-otp', 'phoneLabel'),
  input: html`type="tel" autocomplete="tel" maxlength="16" pattern="\\+[1-9][0-9]{6,14}"`,
};

function recipientPage(channel: Channel, view: TransactionView & { recipient?: string; error?: FormError; challenge?: Html }): PageDocument {
  const { screen, field } = channel;
  return page(
    (ui) => ui.text(PROMPT, screen, 'pageTitle', { clientName: view.clientName }),
    (ui) => html`<h1>${ui.text(PROMPT, screen, 'title')}</h1>
<p>${ui.rich(PROMPT, screen, 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/passwordless/login/start">
${hiddenFields(view)}
${partialAt(ui, PROMPT, screen, 'form-content-start')}<label for="${field}">${channel.label(ui)}</label>
<input ${channel.input} id="${field}" name="${field}" value="${view.recipient ?? ''}" required${fieldState(view.error, field)}>
${partialAt(ui, PROMPT, screen, 'form-content-end')}${view.challenge ?? ''}<button type="submit">${ui.text(PROMPT, screen, 'buttonText')}</button>
</form>`,
    {},
    PROMPT,
  );
}

function codePage(channel: Channel, view: TransactionView & { recipient: string; error?: FormError }): PageDocument {
  const { screen, field } = channel;
  return page(
    (ui) => ui.text(PROMPT, screen, 'codePageTitle'),
    (ui) => html`<h1>${ui.text(PROMPT, screen, 'codeTitle')}</h1>
<p>${ui.rich(PROMPT, screen, 'codeDescription', { [channel.variable]: view.recipient, clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/passwordless/login/verify">
${hiddenFields(view)}<input type="hidden" name="${field}" value="${view.recipient}">
${partialAt(ui, PROMPT, screen, 'form-content-start')}<label for="code">${ui.text(PROMPT, screen, 'codeLabel')}</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required${fieldState(view.error, 'code')}>
${partialAt(ui, PROMPT, screen, 'form-content-end')}<button type="submit">${ui.text(PROMPT, screen, 'codeButtonText')}</button>
</form>
<form method="post" action="/passwordless/login/start">
${hiddenFields(view)}<input type="hidden" name="${field}" value="${view.recipient}">
<button type="submit" class="secondary">${ui.text(PROMPT, screen, 'resendButtonText')}</button>
</form>`,
    {},
    PROMPT,
    // The code page is the channel's screen of the service (its recipient page is not: the service asks for it on login-id).
    screen,
  );
}

export interface PasswordlessEmailView extends TransactionView {
  email?: string;
  error?: FormError;
  /** Bot detection's challenge: the CAPTCHA widget (./captcha.ts), shown before the submit button. */
  challenge?: Html;
}

export function passwordlessEmailPage(view: PasswordlessEmailView): PageDocument {
  return recipientPage(EMAIL, { ...view, ...(view.email !== undefined && { recipient: view.email }) });
}

export interface PasswordlessCodeView extends TransactionView {
  email: string;
  error?: FormError;
}

export function passwordlessCodePage(view: PasswordlessCodeView): PageDocument {
  return codePage(EMAIL, { ...view, recipient: view.email });
}

export interface PasswordlessPhoneView extends TransactionView {
  phoneNumber?: string;
  error?: FormError;
  /** Bot detection's challenge: the CAPTCHA widget (./captcha.ts), shown before the submit button. */
  challenge?: Html;
}

/** The phone number to text a code to (an sms connection). */
export function passwordlessPhonePage(view: PasswordlessPhoneView): PageDocument {
  return recipientPage(SMS, { ...view, ...(view.phoneNumber !== undefined && { recipient: view.phoneNumber }) });
}

export interface PasswordlessSmsCodeView extends TransactionView {
  phoneNumber: string;
  error?: FormError;
}

/** The texted code for the number. */
export function passwordlessSmsCodePage(view: PasswordlessSmsCodeView): PageDocument {
  return codePage(SMS, { ...view, recipient: view.phoneNumber });
}
