/**
 * The password reset pages behind the emailed link (routes:
 * ../dbconnections/reset-password.ts): the form with the connection's policy,
 * shown again with its error after a refused password, the confirmation, and
 * the page of a link that is not (or no longer) valid. Errors are announced
 * to screen readers (role="alert") and tied to the field (aria-describedby).
 */
import type { PolicyResult } from '../dbconnections/password-policy.js';
import { errorBlock, newPasswordFields, type FormError } from './authorize.js';
import { html, page, type PageDocument } from './html.js';
import { invalidLink } from './links.js';

const S = 'reset-password' as const;

export interface ResetPasswordView {
  ticket: string;
  email: string;
  csrf: string;
  policy: PolicyResult;
  /** A refused password; `showRules`: the checklist shows which rules it met. */
  error?: FormError & { showRules: boolean };
}

export function resetPasswordPage(view: ResetPasswordView): PageDocument {
  return page(
    (ui) => ui.text(S, S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(S, S, 'title')}</h1>
<p>${ui.rich(S, S, 'description', { email: view.email })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/reset-password">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
${newPasswordFields(
  ui,
  { passwordLabel: ui.text(S, S, 'passwordLabel'), policyTitle: ui.text(S, S, 'policyTitle'), confirmationLabel: ui.text(S, S, 'reEnterPasswordLabel') },
  view.policy,
  { invalid: view.error !== undefined, showRules: view.error?.showRules === true },
)}
<button type="submit">${ui.text(S, S, 'buttonText')}</button>
</form>`,
  );
}

export function passwordChangedPage(email: string): PageDocument {
  return page(
    (ui) => ui.text(S, 'reset-password-success', 'pageTitle'),
    (ui) => html`<h1>${ui.text(S, 'reset-password-success', 'title')}</h1><p class="ok" role="status">${ui.rich(S, 'reset-password-success', 'description', { email })}</p>`,
  );
}

export function invalidResetLinkPage(): PageDocument {
  return invalidLink((ui) => ui.text(S, 'reset-password-error', 'description'));
}
