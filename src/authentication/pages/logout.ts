/**
 * The logout pages: the confirmation that the session ended, and the error
 * shown when the return URL cannot be trusted (never a redirect then). Same
 * rules as the other pages: every value escaped, texts in the request's
 * language.
 */
import { html, page, type PageDocument } from './html.js';

export function loggedOutPage(): PageDocument {
  return page(
    (ui) => ui.text('logout', 'logout-complete', 'pageTitle'),
    (ui) => html`<h1>${ui.text('logout', 'logout-complete', 'title')}</h1><p class="ok" role="status">${ui.text('logout', 'logout-complete', 'description')}</p>`,
  );
}

/**
 * RP-Initiated Logout 1.0 §2: without an id_token_hint the OP asks the user
 * before ending the session. The form posts the request's parameters back
 * with `confirm` and the session-bound CSRF token.
 */
export function confirmLogoutPage(appName: string | undefined, fields: Record<string, string>): PageDocument {
  return page(
    (ui) => ui.text('logout', 'logout', 'pageTitle'),
    (ui) => html`<h1>${ui.text('logout', 'logout', 'title')}</h1>
<p>${appName ? ui.rich('logout', 'logout', 'description', { clientName: appName }) : ui.text('logout', 'logout', 'descriptionNoClient')}</p>
<form method="post" action="/oidc/logout">
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<button type="submit">${ui.text('logout', 'logout', 'buttonText')}</button>
</form>`,
  );
}

export function logoutErrorPage(message: string): PageDocument {
  return page(
    (ui) => ui.text('logout', 'logout-aborted', 'pageTitle'),
    (ui) => html`<h1>${ui.text('logout', 'logout-aborted', 'title')}</h1><p class="error" role="alert">${message}</p>`,
  );
}
