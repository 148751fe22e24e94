/**
 * The email verification pages behind the emailed link (route:
 * ../dbconnections/verify-email.ts): the page with its one button, the
 * confirmation, and the page of a link that is not (or no longer) valid.
 */
import { html, page, type PageDocument } from './html.js';
import { invalidLink } from './links.js';

const S = 'email-verification' as const;

/** `error`: why the last confirmation was refused (a custom database's `verify` script failed); the link stays usable. */
export function verifyEmailPage(view: { ticket: string; email: string; csrf: string; error?: string }): PageDocument {
  return page(
    (ui) => ui.text(S, S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(S, S, 'title')}</h1>
<p>${ui.rich(S, S, 'description', { email: view.email })}</p>${view.error === undefined ? '' : html`
<p class="error" role="alert">${view.error}</p>`}
<form method="post" action="/verify-email">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<button type="submit">${ui.text(S, S, 'buttonText')}</button>
</form>`,
  );
}

export function emailVerifiedPage(email: string): PageDocument {
  return page(
    (ui) => ui.text(S, 'email-verification-result', 'pageTitle'),
    (ui) => html`<h1>${ui.text(S, 'email-verification-result', 'title')}</h1><p class="ok" role="status">${ui.rich(S, 'email-verification-result', 'description', { email })}</p>`,
  );
}

export function invalidVerificationLinkPage(): PageDocument {
  return invalidLink((ui) => ui.text(S, 'email-verification-result', 'errorDescription'));
}
