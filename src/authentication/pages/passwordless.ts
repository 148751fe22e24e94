/**
 * The hosted pages of the passwordless step (../interaction/steps/
 * passwordless.ts): the address to send a code to, then the code. Same rules
 * as the other pages: texts in the request's language, escaped values, labelled fields, errors
 * announced and tied to their field, the transaction and its CSRF token in
 * every form.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type PageDocument } from './html.js';

const S = ['login-passwordless', 'login-passwordless-email-code'] as const;

export interface PasswordlessEmailView extends TransactionView {
  email?: string;
  error?: FormError;
}

export function passwordlessEmailPage(view: PasswordlessEmailView): PageDocument {
  return page(
    (ui) => ui.text(...S, 'pageTitle', { clientName: view.clientName }),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.rich(...S, 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/passwordless/login/start">
${hiddenFields(view)}
<label for="email">${ui.text(...S, 'emailLabel')}</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="email" required${fieldState(view.error, 'email')}>
<button type="submit">${ui.text(...S, 'buttonText')}</button>
</form>`,
  );
}

export interface PasswordlessCodeView extends TransactionView {
  email: string;
  error?: FormError;
}

export function passwordlessCodePage(view: PasswordlessCodeView): PageDocument {
  return page(
    (ui) => ui.text(...S, 'codePageTitle'),
    (ui) => html`<h1>${ui.text(...S, 'codeTitle')}</h1>
<p>${ui.rich(...S, 'codeDescription', { email: view.email, clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/passwordless/login/verify">
${hiddenFields(view)}<input type="hidden" name="email" value="${view.email}">
<label for="code">${ui.text(...S, 'codeLabel')}</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required${fieldState(view.error, 'code')}>
<button type="submit">${ui.text(...S, 'codeButtonText')}</button>
</form>
<form method="post" action="/passwordless/login/start">
${hiddenFields(view)}<input type="hidden" name="email" value="${view.email}">
<button type="submit" class="secondary">${ui.text(...S, 'resendButtonText')}</button>
</form>`,
  );
}
