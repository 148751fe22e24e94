/**
 * The logout pages: the confirmation that the session ended, and the error
 * shown when the return URL cannot be trusted (never a redirect then). Same
 * rules as the other pages: no scripts, every value escaped, PAGE_CSP.
 */
import { html, page, type Html } from './html.js';

export function loggedOutPage(): Html {
  return page('Logged out', html`<h1>Logged out</h1><p class="ok" role="status">You have been logged out.</p>`);
}

/**
 * RP-Initiated Logout 1.0 §2: without an id_token_hint the OP asks the user
 * before ending the session. The form posts the request's parameters back
 * with `confirm` and the session-bound CSRF token.
 */
export function confirmLogoutPage(appName: string | undefined, fields: Record<string, string>): Html {
  return page(
    'Log out?',
    html`<h1>Log out?</h1>
<p>${appName ? html`<strong>${appName}</strong> asks to end your session.` : 'An application asks to end your session.'} Do you want to log out?</p>
<form method="post" action="/oidc/logout">
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<button type="submit">Log out</button>
</form>`,
  );
}

export function logoutErrorPage(message: string): Html {
  return page('Logout error', html`<h1>Oops!, something went wrong</h1><p class="error" role="alert">${message}</p>`);
}
