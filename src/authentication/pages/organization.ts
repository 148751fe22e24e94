/**
 * The organization step's pages: the organization's name asked before login
 * (`pre_login_prompt`), or the user's organizations to choose from after it
 * (`post_login_prompt`). Escaped templates, texts in the request's language, as every hosted page.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type PageDocument } from './html.js';

export function organizationNamePage(view: TransactionView & { name?: string; error?: FormError }): PageDocument {
  const S = ['organizations', 'organization-selection'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle', { clientName: view.clientName }),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.rich(...S, 'description', { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/organization">
${hiddenFields(view)}
<label for="organization">${ui.text(...S, 'organizationLabel')}</label>
<input type="text" id="organization" name="organization" value="${view.name ?? ''}" autocomplete="organization" required${fieldState(view.error, 'organization')}>
<button type="submit">${ui.text(...S, 'buttonText')}</button>
</form>`,
  );
}

export function organizationChoicePage(view: TransactionView & { organizations: { id: string; label: string }[] }): PageDocument {
  const S = ['organizations', 'organization-picker'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.rich(...S, 'description', { clientName: view.clientName })}</p>
<form method="post" action="/organization" class="choices">
${hiddenFields(view)}
${view.organizations.map((o) => html`<button type="submit" name="organization" value="${o.id}">${o.label}</button>\n`)}</form>`,
  );
}
