/**
 * The logout pages: the confirmation that the session ended, and the error
 * shown when the return URL cannot be trusted (never a redirect then). Same
 * rules as the other pages: no scripts, every value escaped, PAGE_CSP.
 */
import { html, page, type Html } from '../pages/html.js';

export function loggedOutPage(): Html {
  return page('Logged out', html`<h1>Logged out</h1><p class="ok" role="status">You have been logged out.</p>`);
}

export function logoutErrorPage(message: string): Html {
  return page('Logout error', html`<h1>Oops!, something went wrong</h1><p class="error" role="alert">${message}</p>`);
}
