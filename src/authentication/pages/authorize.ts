/**
 * The hosted pages of /authorize: the error page shown when the
 * redirect_uri cannot be trusted, login (in one step, or identifier first
 * then password), signup, forgot password and consent. Every value is
 * escaped by the `html` helper, every text comes from the catalogue in the
 * request's language (src/domain/branding/texts.ts). Each field has its
 * label; an error is announced (role="alert") and tied to the field it is
 * about (aria-describedby, aria-invalid); every form carries the
 * transaction (`state`) and its CSRF token.
 */
import type { PolicyResult } from '../dbconnections/password-policy.js';
import { ruleSentences } from '../dbconnections/password-policy.js';
import { Html, html, localize, page, partialAt, type Localized, type PageDocument, type PageUi } from './html.js';
import { PASSWORD_TOGGLE_START } from './password-toggle.js';

export function authorizeErrorPage(message: string): PageDocument {
  return page(
    (ui) => ui.text('common', 'common', 'errorPageTitle'),
    (ui) => html`<h1>${ui.text('common', 'common', 'errorTitle')}</h1><p class="error" role="alert">${message}</p>`,
  );
}

export function invalidLoginPage(): PageDocument {
  return page(
    (ui) => ui.text('common', 'common', 'expiredPageTitle'),
    (ui) => html`<h1>${ui.text('common', 'common', 'expiredTitle')}</h1><p class="error" role="alert">${ui.text('common', 'common', 'expiredDescription')}</p>`,
  );
}

export function refusedLoginPage(): PageDocument {
  return page(
    (ui) => ui.text('common', 'common', 'refusedPageTitle'),
    (ui) => html`<h1>${ui.text('common', 'common', 'refusedTitle')}</h1><p class="error" role="alert">${ui.text('common', 'common', 'refusedDescription')}</p>`,
  );
}

/** What every page of a transaction shows and carries. */
export interface TransactionView {
  clientName: string;
  state: string;
  csrf: string;
}

/** A form error and the field it is about (none: about the whole form). */
export interface FormError {
  message: Localized<string>;
  field?: string;
}

export function hiddenFields(view: TransactionView): Html {
  return html`<input type="hidden" name="state" value="${view.state}">
<input type="hidden" name="csrf_token" value="${view.csrf}">`;
}

export function errorBlock(ui: PageUi, error: FormError | undefined): Html | '' {
  return error ? html`<p id="error" class="error" role="alert">${localize(error.message, ui)}</p>` : '';
}

/** aria attributes of a field: invalid and described by the error when the error is about it (or about the whole form). */
export function fieldState(error: FormError | undefined, field: string, describedBy: readonly string[] = []): Html | '' {
  const invalid = error !== undefined && (error.field === undefined || error.field === field);
  const ids = [...(invalid ? ['error'] : []), ...describedBy];
  return html`${invalid ? html` aria-invalid="true"` : ''}${ids.length > 0 ? html` aria-describedby="${ids.join(' ')}"` : ''}`;
}

/**
 * A password field and its "Show password" control: a button rendered
 * `hidden`, which the page's one script (./password-toggle.ts) shows and
 * wires to toggle the field's type. Without script the control stays hidden
 * and the field is a plain password field. The field keeps its name and
 * `autocomplete` whatever its type, for password managers.
 */
export function passwordField(ui: PageUi, field: { id: string; label: string; autocomplete: 'current-password' | 'new-password'; state: Html | ''; optional?: boolean }): Html {
  const show = ui.text('common', 'common', 'showPasswordText');
  return html`<label for="${field.id}">${field.label}</label>
<div class="password">
<input type="password" id="${field.id}" name="${field.id}" autocomplete="${field.autocomplete}"${field.optional ? '' : ' required'}${field.state}>
${new Html(PASSWORD_TOGGLE_START)} class="reveal" aria-controls="${field.id}" aria-pressed="false" data-show="${show}" data-hide="${ui.text('common', 'common', 'hidePasswordText')}" hidden>${show}</button>
</div>`;
}

/**
 * A new password, its rules and its confirmation (the reset page, the admin
 * console's setup page): the password field described by the rules (and by
 * the error when `invalid`), the checklist with its result after a weak one.
 */
export function newPasswordFields(
  ui: PageUi,
  texts: { passwordLabel: string; policyTitle: string; confirmationLabel: string },
  policy: PolicyResult,
  error: { invalid: boolean; showRules: boolean },
): Html {
  return html`${passwordField(ui, {
    id: 'password',
    label: texts.passwordLabel,
    autocomplete: 'new-password',
    state: html`${error.invalid ? html` aria-invalid="true"` : ''} aria-describedby="${error.invalid ? 'error policy' : 'policy'}"`,
  })}
<p id="policy-title">${texts.policyTitle}</p>
${policyChecklist(ui, policy, error.showRules)}
${passwordField(ui, { id: 'password_confirmation', label: texts.confirmationLabel, autocomplete: 'new-password', state: '' })}`;
}

/**
 * The password policy as a checklist: each rule met or not after a submit
 * (a mark, and the words: colour and shape alone say nothing to everyone),
 * plain before.
 */
export function policyChecklist(ui: PageUi, policy: PolicyResult, showResult: boolean, id = 'policy'): Html {
  return html`<ul id="${id}" class="checklist">${ruleSentences(policy).map((rule) => {
    const state = showResult ? (rule.verified ? 'met' : 'unmet') : '';
    const word = showResult ? ui.text('common', 'common', rule.verified ? 'ruleMet' : 'ruleNotMet') : '';
    return html`<li${state ? html` class="${state}"` : ''}>${rule.text}${word ? ` (${word})` : ''}${
      rule.items.length > 0 ? html`<ul>${rule.items.map((item) => html`<li>${item.message}</li>`)}</ul>` : ''
    }</li>`;
  })}</ul>`;
}

const link = (path: string, state: string) => `${path}?state=${encodeURIComponent(state)}`;

/** A federated connection the login and signup pages offer as a button (enabled social connections; enterprise ones with `show_as_button`). */
export interface FederatedButton {
  /** The connection's name, posted as `connection`. */
  name: string;
  /** The provider's or connection's name as the button says it. */
  label: string;
  strategy: string;
}

/**
 * The buttons of the federated connections, after the page's form: one form
 * posting `connection` to /login/federated with the transaction's fields,
 * each a labelled button ("Continue with GitHub"), grouped under "Or".
 */
function federatedButtons(ui: PageUi, view: TransactionView & { connections?: readonly FederatedButton[] }, at: Screen): Html | '' {
  const buttons = view.connections ?? [];
  const start = partialAt(ui, at.prompt, at.screen, 'secondary-actions-start');
  const end = partialAt(ui, at.prompt, at.screen, 'secondary-actions-end');
  if (buttons.length === 0) return html`${start}${end}`;
  return html`${start}<div class="federated" role="group" aria-labelledby="federated-title">
<p id="federated-title" class="separator">${ui.text('login', 'login', 'separatorText')}</p>
<form method="post" action="/login/federated">
${hiddenFields(view)}
${buttons.map((b) => html`<button type="submit" class="secondary" name="connection" value="${b.name}" data-strategy="${b.strategy}">${ui.text('login', 'login', 'federatedConnectionButtonText', { connectionName: b.label })}</button>
`)}</form>
</div>${end}`;
}

/** The service's prompt and screen of a page, where its partials are looked up. */
interface Screen {
  prompt: string;
  screen: string;
}

/** A screen's partial at one insertion point (src/domain/branding/partials.ts). */
const slot = (ui: PageUi, at: Screen, point: Parameters<typeof partialAt>[3]) => partialAt(ui, at.prompt, at.screen, point);

/** The links under a form, between the screen's form-footer partials. */
const footer = (ui: PageUi, at: Screen, links: Html) => html`${slot(ui, at, 'form-footer-start')}${links}${slot(ui, at, 'form-footer-end')}`;

export interface LoginView extends TransactionView {
  /** The federated connections offered as buttons. */
  connections?: readonly FederatedButton[];
  /** Whether the connection has usernames (then the field takes either). */
  usernames: boolean;
  identifier?: string;
  error?: FormError;
  signup: boolean;
  /**
   * Identifier first (the tenant's prompts setting): the step shown, the
   * identifier alone or then the password; absent: both on one page.
   */
  identifierFirst?: 'identifier' | 'password';
  /** Passkeys, when the connection has them on: the passkey form (./passkeys.ts `passkeyLoginForm`), and whether the identifier field offers them (autofill). */
  passkey?: { form: (ui: PageUi) => Html; autofill: boolean };
  /**
   * An enabled enterprise connection has `domain_aliases`: an email of its
   * domains goes to its provider without a password, so the password field
   * is not `required` (an empty one for a database user is refused by the
   * server as any wrong password).
   */
  homeRealmDiscovery?: boolean;
  /** Bot detection's challenge: the CAPTCHA widget (./captcha.ts), shown before the submit button. */
  challenge?: Html;
}

function identifierLabel(ui: PageUi, usernames: boolean): string {
  return ui.text('login', 'login', usernames ? 'usernameOrEmailLabel' : 'emailLabel');
}

function loginLinks(ui: PageUi, view: LoginView): Html {
  return html`<div class="links">
<p><a href="${link('/forgot-password', view.state)}">${ui.text('login', 'login', 'forgotPasswordText')}</a></p>
${view.signup ? html`<p>${ui.text('login', 'login', 'signupActionText')} <a href="${link('/signup', view.state)}">${ui.text('login', 'login', 'signupActionLinkText')}</a></p>` : ''}
</div>`;
}

export function loginPage(view: LoginView): PageDocument {
  const title = (ui: PageUi) => ui.text('login', 'login', 'pageTitle', { clientName: view.clientName });
  if (view.identifierFirst === 'password') return loginPasswordPage(view, title);
  const identifierOnly = view.identifierFirst === 'identifier';
  const at: Screen = identifierOnly ? { prompt: 'login-id', screen: 'login-id' } : { prompt: 'login', screen: 'login' };
  return page(title, (ui) => {
    const label = identifierLabel(ui, view.usernames);
    return html`<h1>${ui.text('login', 'login', 'title')}</h1>
<p>${ui.rich('login', 'login', 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/login">
${hiddenFields(view)}
${slot(ui, at, 'form-content-start')}<label for="username">${label}</label>
<input type="${view.usernames ? 'text' : 'email'}" id="username" name="username" value="${view.identifier ?? ''}" autocomplete="${view.passkey?.autofill ? 'username webauthn' : 'username'}" required${fieldState(view.error, 'username')}>
${identifierOnly ? '' : passwordField(ui, { id: 'password', label: ui.text('login', 'login', 'passwordLabel'), autocomplete: 'current-password', state: fieldState(view.error, 'password'), optional: view.homeRealmDiscovery === true })}
${slot(ui, at, 'form-content-end')}${view.challenge ?? ''}<button type="submit">${identifierOnly ? ui.text('common', 'common', 'continueButtonText') : ui.text('login', 'login', 'buttonText')}</button>
</form>
${view.passkey ? view.passkey.form(ui) : ''}
${federatedButtons(ui, view, at)}
${footer(ui, at, loginLinks(ui, view))}`;
  }, { clientName: view.clientName }, at.prompt, at.screen);
}

/** Identifier first, second step: the identifier shown (with a way back to change it), the password asked. */
function loginPasswordPage(view: LoginView, title: (ui: PageUi) => string): PageDocument {
  const at: Screen = { prompt: 'login-password', screen: 'login-password' };
  return page(title, (ui) => html`<h1>${ui.text('login-password', 'login-password', 'title')}</h1>
<p>${ui.rich('login-password', 'login-password', 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/login">
${hiddenFields(view)}
<div class="identifier"><span id="identifier-label" class="visually-hidden">${identifierLabel(ui, view.usernames)}</span><strong aria-describedby="identifier-label">${view.identifier!}</strong> <a href="${link('/login', view.state)}">${ui.text('login-password', 'login-password', 'editIdentifierText')}</a></div>
<input type="${view.usernames ? 'text' : 'email'}" name="username" value="${view.identifier!}" autocomplete="username" readonly hidden>
${slot(ui, at, 'form-content-start')}${passwordField(ui, { id: 'password', label: ui.text('login', 'login', 'passwordLabel'), autocomplete: 'current-password', state: fieldState(view.error, 'password') })}
${slot(ui, at, 'form-content-end')}${view.challenge ?? ''}<button type="submit">${ui.text('login-password', 'login-password', 'buttonText')}</button>
</form>
${footer(ui, at, loginLinks(ui, view))}`, { clientName: view.clientName }, at.prompt, at.screen);
}

export interface SignupView extends TransactionView {
  /** The federated connections offered as buttons. */
  connections?: readonly FederatedButton[];
  usernames: boolean;
  email?: string;
  username?: string;
  error?: FormError;
  /** The connection's password policy, checked against the submitted password after a refused signup. */
  policy?: PolicyResult;
  /** Whether `policy` holds the result of a submitted password. */
  policyChecked?: boolean;
  /** Passkeys first (the connection has them on): the email alone, then the passkey page; `passwordInstead` links to the form with a password. */
  passkeyFirst?: { passwordInstead: boolean };
}

export function signupPage(view: SignupView): PageDocument {
  const at: Screen = { prompt: 'signup', screen: 'signup' };
  return page(
    (ui) => ui.text('signup', 'signup', 'pageTitle', { clientName: view.clientName }),
    (ui) => html`<h1>${ui.text('signup', 'signup', 'title')}</h1>
<p>${view.passkeyFirst ? ui.text('signup', 'signup', 'passkeyDescription') : ui.rich('signup', 'signup', 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/signup">
${hiddenFields(view)}
${slot(ui, at, 'form-content-start')}<label for="email">${ui.text('signup', 'signup', 'emailLabel')}</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="email" required${fieldState(view.error, 'email')}>
${
  view.usernames
    ? html`<label for="username">${ui.text('signup', 'signup', 'usernameLabel')}</label>
<input type="text" id="username" name="username" value="${view.username ?? ''}" autocomplete="username" required${fieldState(view.error, 'username')}>
`
    : ''
}${view.passkeyFirst ? '' : passwordField(ui, {
      id: 'password',
      label: ui.text('signup', 'signup', 'passwordLabel'),
      autocomplete: 'new-password',
      state: fieldState(view.error, 'password', view.policy && view.policy.rules.length > 0 ? ['policy'] : []),
    })}
${!view.passkeyFirst && view.policy && view.policy.rules.length > 0 ? html`<p id="policy-title">${ui.text('signup', 'signup', 'policyTitle')}</p>${policyChecklist(ui, view.policy, view.policyChecked === true)}` : ''}
${slot(ui, at, 'form-content-end')}<button type="submit">${view.passkeyFirst ? ui.text('common', 'common', 'continueButtonText') : ui.text('signup', 'signup', 'buttonText')}</button>
</form>
${view.passkeyFirst?.passwordInstead ? html`<div class="links"><p><a href="${link('/signup', view.state)}&amp;method=password">${ui.text('signup', 'signup', 'passwordInsteadText')}</a></p></div>` : ''}
${federatedButtons(ui, view, at)}
${footer(ui, at, html`<div class="links"><p>${ui.text('signup', 'signup', 'loginActionText')} <a href="${link('/login', view.state)}">${ui.text('signup', 'signup', 'loginActionLinkText')}</a></p></div>`)}`,
    { clientName: view.clientName },
    at.prompt,
    at.screen,
  );
}

export interface ForgotPasswordView extends TransactionView {
  email?: string;
  error?: FormError;
  /** Bot detection's challenge: the CAPTCHA widget (./captcha.ts), shown before the submit button. */
  challenge?: Html;
}

export function forgotPasswordPage(view: ForgotPasswordView): PageDocument {
  return page(
    (ui) => ui.text('reset-password', 'reset-password-request', 'pageTitle'),
    (ui) => html`<h1>${ui.text('reset-password', 'reset-password-request', 'title')}</h1>
<p>${ui.text('reset-password', 'reset-password-request', 'description')}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/forgot-password">
${hiddenFields(view)}
<label for="email">${ui.text('reset-password', 'reset-password-request', 'emailLabel')}</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="email" required${fieldState(view.error, 'email')}>
${view.challenge ?? ''}<button type="submit">${ui.text('reset-password', 'reset-password-request', 'buttonText')}</button>
</form>
<div class="links"><p><a href="${link('/login', view.state)}">${ui.text('reset-password', 'reset-password-request', 'backToLoginLinkText')}</a></p></div>`,
    {},
    'reset-password',
    'reset-password-request',
  );
}

export function forgotPasswordSentPage(state: string): PageDocument {
  return page(
    (ui) => ui.text('reset-password', 'reset-password-email', 'pageTitle'),
    (ui) => html`<h1>${ui.text('reset-password', 'reset-password-email', 'title')}</h1>
<p class="ok" role="status">${ui.text('reset-password', 'reset-password-email', 'description')}</p>
<div class="links"><p><a href="${link('/login', state)}">${ui.text('reset-password', 'reset-password-email', 'backToLoginLinkText')}</a></p></div>`,
  );
}

export interface ConsentView extends TransactionView {
  userName: string;
  /** The API's name, or undefined for OpenID Connect scopes alone. */
  apiName?: string;
  scopes: { value: string; description: string }[];
}

export function consentPage(view: ConsentView): PageDocument {
  const vars = { clientName: view.clientName, userName: view.userName, ...(view.apiName !== undefined && { apiName: view.apiName }) };
  return page(
    (ui) => ui.text('consent', 'consent', 'pageTitle', vars),
    (ui) => html`<h1>${ui.text('consent', 'consent', 'title', vars)}</h1>
<p>${ui.rich('consent', 'consent', view.apiName ? 'descriptionWithApi' : 'description', vars)}</p>
<ul>
${view.scopes.map((s) => html`<li><strong>${s.value}</strong>${s.description ? html`: ${s.description}` : ''}</li>\n`)}</ul>
<form method="post" action="/consent">
${hiddenFields(view)}
<button type="submit" name="decision" value="accept">${ui.text('consent', 'consent', 'acceptButtonText')}</button>
<button type="submit" name="decision" value="deny" class="secondary">${ui.text('consent', 'consent', 'declineButtonText')}</button>
</form>`,
    vars,
    'consent',
    'consent',
  );
}
