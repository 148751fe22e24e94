/**
 * The pages of the authorization code flow: the error page shown when the
 * redirect_uri cannot be trusted, and the login form. No scripts, no
 * external assets (PAGE_CSP); every value is escaped by the `html` helper.
 */
import { html, page, type Html } from '../pages/html.js';

export function authorizeErrorPage(message: string): Html {
  return page('Authorization error', html`<h1>Something went wrong</h1><p class="error" role="alert">${message}</p>`);
}

export function invalidLoginPage(): Html {
  return page('Login not valid', html`<h1>This login has expired</h1><p class="error" role="alert">This login page is no longer valid. Go back to the application and sign in again.</p>`);
}

export function refusedLoginPage(): Html {
  return page('Request refused', html`<h1>Request refused</h1><p class="error" role="alert">This form could not be verified. Go back to the application and sign in again.</p>`);
}

/**
 * One form: email and password, each with its label; an error is announced
 * (role="alert") and tied to the fields it is about (aria-describedby).
 */
export function loginPage(clientName: string, state: string, csrf: string, email = '', error?: string): Html {
  const invalid = error ? html` aria-invalid="true" aria-describedby="error"` : '';
  return page(
    `Log in to ${clientName}`,
    html`<h1>Log in</h1>
<p>Log in to continue to <strong>${clientName}</strong>.</p>
${error ? html`<p id="error" class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="state" value="${state}">
<input type="hidden" name="csrf_token" value="${csrf}">
<label for="email">Email address</label>
<input type="email" id="email" name="email" value="${email}" autocomplete="username" required${invalid}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${invalid}>
<button type="submit">Log in</button>
</form>`,
  );
}
