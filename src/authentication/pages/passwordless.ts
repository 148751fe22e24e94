/**
 * The hosted pages of the passwordless step (../interaction/steps/
 * passwordless.ts): the address to send a code to, then the code. Same rules
 * as the other pages: no scripts, escaped values, labelled fields, errors
 * announced and tied to their field, the transaction and its CSRF token in
 * every form.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type Html } from './html.js';

export interface PasswordlessEmailView extends TransactionView {
  email?: string;
  error?: FormError;
}

export function passwordlessEmailPage(view: PasswordlessEmailView): Html {
  return page(
    `Log in to ${view.clientName}`,
    html`<h1>Log in</h1>
<p>Log in to continue to <strong>${view.clientName}</strong>. We will email you a code.</p>
${errorBlock(view.error)}
<form method="post" action="/passwordless/login/start">
${hiddenFields(view)}
<label for="email">Email address</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="email" required${fieldState(view.error, 'email')}>
<button type="submit">Email me a code</button>
</form>`,
  );
}

export interface PasswordlessCodeView extends TransactionView {
  email: string;
  error?: FormError;
}

export function passwordlessCodePage(view: PasswordlessCodeView): Html {
  return page(
    'Enter your code',
    html`<h1>Check your email</h1>
<p>We sent a code to <strong>${view.email}</strong>. Enter it to continue to <strong>${view.clientName}</strong>.</p>
${errorBlock(view.error)}
<form method="post" action="/passwordless/login/verify">
${hiddenFields(view)}<input type="hidden" name="email" value="${view.email}">
<label for="code">Code</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required${fieldState(view.error, 'code')}>
<button type="submit">Log in</button>
</form>
<form method="post" action="/passwordless/login/start">
${hiddenFields(view)}<input type="hidden" name="email" value="${view.email}">
<button type="submit">Send a new code</button>
</form>`,
  );
}
