/**
 * The organization step's pages: the organization's name asked before login
 * (`pre_login_prompt`), or the user's organizations to choose from after it
 * (`post_login_prompt`). Escaped templates, no scripts, as every hosted page.
 */
import { errorBlock, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type Html } from './html.js';

export function organizationNamePage(view: TransactionView & { name?: string; error?: FormError }): Html {
  return page(
    `Log in to ${view.clientName}`,
    html`<h1>Enter your organization</h1>
<p>Enter the name of your organization to continue to <strong>${view.clientName}</strong>.</p>
${errorBlock(view.error)}
<form method="post" action="/organization">
${hiddenFields(view)}
<label for="organization">Organization name</label>
<input type="text" id="organization" name="organization" value="${view.name ?? ''}" autocomplete="organization" required${view.error ? html` aria-invalid="true" aria-describedby="error"` : ''}>
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
