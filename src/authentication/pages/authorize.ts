/**
 * The hosted pages of /authorize: the error page shown when the
 * redirect_uri cannot be trusted, login, signup, forgot password and
 * consent. No scripts, no external assets (PAGE_CSP); every value is escaped
 * by the `html` helper. Each field has its label; an error is announced
 * (role="alert") and tied to the field it is about (aria-describedby,
 * aria-invalid); every form carries the transaction (`state`) and its CSRF
 * token.
 */
import { html, page, type Html } from './html.js';

export function authorizeErrorPage(message: string): Html {
  return page('Authorization error', html`<h1>Something went wrong</h1><p class="error" role="alert">${message}</p>`);
}

export function invalidLoginPage(): Html {
  return page('Login not valid', html`<h1>This login has expired</h1><p class="error" role="alert">This login page is no longer valid. Go back to the application and sign in again.</p>`);
}

export function refusedLoginPage(): Html {
  return page('Request refused', html`<h1>Request refused</h1><p class="error" role="alert">This form could not be verified. Go back to the application and sign in again.</p>`);
}

/** What every page of a transaction shows and carries. */
export interface TransactionView {
  clientName: string;
  state: string;
  csrf: string;
}

/** A form error and the field it is about (none: about the whole form). */
export interface FormError {
  message: string;
  field?: string;
}

export function hiddenFields(view: TransactionView): Html {
  return html`<input type="hidden" name="state" value="${view.state}">
<input type="hidden" name="csrf_token" value="${view.csrf}">`;
}

export function errorBlock(error: FormError | undefined): Html | '' {
  return error ? html`<p id="error" class="error" role="alert">${error.message}</p>` : '';
}

/** aria attributes of a field: invalid and described by the error when the error is about it (or about the whole form). */
function fieldState(error: FormError | undefined, field: string): Html | '' {
  return error && (error.field === undefined || error.field === field) ? html` aria-invalid="true" aria-describedby="error"` : '';
}

const link = (path: string, state: string) => `${path}?state=${encodeURIComponent(state)}`;

export interface LoginView extends TransactionView {
  /** Whether the connection has usernames (then the field takes either). */
  usernames: boolean;
  identifier?: string;
  error?: FormError;
  signup: boolean;
}

export function loginPage(view: LoginView): Html {
  const label = view.usernames ? 'Username or email address' : 'Email address';
  return page(
    `Log in to ${view.clientName}`,
    html`<h1>Log in</h1>
<p>Log in to continue to <strong>${view.clientName}</strong>.</p>
${errorBlock(view.error)}
<form method="post" action="/login">
${hiddenFields(view)}
<label for="username">${label}</label>
<input type="${view.usernames ? 'text' : 'email'}" id="username" name="username" value="${view.identifier ?? ''}" autocomplete="username" required${fieldState(view.error, 'username')}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${fieldState(view.error, 'password')}>
<button type="submit">Log in</button>
</form>
<p><a href="${link('/forgot-password', view.state)}">Forgot your password?</a></p>
${view.signup ? html`<p>No account yet? <a href="${link('/signup', view.state)}">Sign up</a></p>` : ''}`,
  );
}

export interface SignupView extends TransactionView {
  usernames: boolean;
  email?: string;
  username?: string;
  error?: FormError;
}

export function signupPage(view: SignupView): Html {
  return page(
    `Sign up to ${view.clientName}`,
    html`<h1>Sign up</h1>
<p>Create your account to continue to <strong>${view.clientName}</strong>.</p>
${errorBlock(view.error)}
<form method="post" action="/signup">
${hiddenFields(view)}
<label for="email">Email address</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="email" required${fieldState(view.error, 'email')}>
${
  view.usernames
    ? html`<label for="username">Username</label>
<input type="text" id="username" name="username" value="${view.username ?? ''}" autocomplete="username" required${fieldState(view.error, 'username')}>
`
    : ''
}<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="new-password" required${fieldState(view.error, 'password')}>
<button type="submit">Sign up</button>
</form>
<p>Already have an account? <a href="${link('/login', view.state)}">Log in</a></p>`,
  );
}

export interface ForgotPasswordView extends TransactionView {
  email?: string;
  error?: FormError;
}

export function forgotPasswordPage(view: ForgotPasswordView): Html {
  return page(
    'Forgot your password?',
    html`<h1>Forgot your password?</h1>
<p>Enter your email address and we will send you a link to choose a new password.</p>
${errorBlock(view.error)}
<form method="post" action="/forgot-password">
${hiddenFields(view)}
<label for="email">Email address</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="email" required${fieldState(view.error, 'email')}>
<button type="submit">Send the link</button>
</form>
<p><a href="${link('/login', view.state)}">Back to log in</a></p>`,
  );
}

export function forgotPasswordSentPage(state: string): Html {
  return page(
    'Check your email',
    html`<h1>Check your email</h1>
<p class="ok" role="status">If an account exists for that address, we have sent it a link to choose a new password.</p>
<p><a href="${link('/login', state)}">Back to log in</a></p>`,
  );
}

export interface ConsentView extends TransactionView {
  userName: string;
  /** The API's name, or undefined for OpenID Connect scopes alone. */
  apiName?: string;
  scopes: { value: string; description: string }[];
}

export function consentPage(view: ConsentView): Html {
  return page(
    `Authorize ${view.clientName}`,
    html`<h1>Authorize ${view.clientName}</h1>
<p>Hi <strong>${view.userName}</strong>, <strong>${view.clientName}</strong> is asking for access to your account${view.apiName ? html` and to <strong>${view.apiName}</strong>` : ''}:</p>
<ul>
${view.scopes.map((s) => html`<li><strong>${s.value}</strong>${s.description ? html`: ${s.description}` : ''}</li>\n`)}</ul>
<form method="post" action="/consent">
${hiddenFields(view)}
<button type="submit" name="decision" value="accept">Accept</button>
<button type="submit" name="decision" value="deny">Decline</button>
</form>`,
  );
}
