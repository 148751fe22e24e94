/**
 * The organization step's pages: the organization's name (or an email
 * address, by the client's discovery methods) asked before login
 * (`pre_login_prompt`), or the user's organizations to choose from after it
 * (`post_login_prompt`). Escaped templates, no scripts, as every hosted page.
 */
import { errorBlock, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type Html } from './html.js';

/** What the prompt asks for, by the client's discovery methods. */
function promptWording(methods: readonly string[]): { heading: string; label: string; type: string; autocomplete: string } {
  const email = methods.includes('email');
  const name = methods.includes('organization_name');
  if (email && name) return { heading: 'Enter your organization or email', label: 'Organization name or email address', type: 'text', autocomplete: 'email' };
  if (email) return { heading: 'Enter your email', label: 'Email address', type: 'email', autocomplete: 'email' };
  return { heading: 'Enter your organization', label: 'Organization name', type: 'text', autocomplete: 'organization' };
}

export function organizationNamePage(view: TransactionView & { methods: readonly string[]; name?: string; error?: FormError }): Html {
  const wording = promptWording(view.methods);
  return page(
    `Log in to ${view.clientName}`,
    html`<h1>${wording.heading}</h1>
<p>${wording.heading} to continue to <strong>${view.clientName}</strong>.</p>
${errorBlock(view.error)}
<form method="post" action="/organization">
${hiddenFields(view)}
<label for="organization">${wording.label}</label>
<input type="${wording.type}" id="organization" name="organization" value="${view.name ?? ''}" autocomplete="${wording.autocomplete}" required${view.error ? html` aria-invalid="true" aria-describedby="error"` : ''}>
<button type="submit">Continue</button>
</form>`,
  );
}

export function organizationChoicePage(view: TransactionView & { organizations: { id: string; label: string }[] }): Html {
  return page(
    `Choose an organization`,
    html`<h1>Choose an organization</h1>
<p>Choose the organization to continue to <strong>${view.clientName}</strong> with.</p>
<form method="post" action="/organization">
${hiddenFields(view)}
${view.organizations.map((o) => html`<button type="submit" name="organization" value="${o.id}">${o.label}</button>\n`)}</form>`,
  );
}
