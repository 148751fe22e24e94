/**
 * The organization step's pages: the organization's name (or an email
 * address, by the client's discovery methods) asked before login
 * (`pre_login_prompt`), or the user's organizations to choose from after it
 * (`post_login_prompt`). Escaped templates, texts in the request's language, as every hosted page.
 */
import { errorBlock, fieldState, hiddenFields, type FormError, type TransactionView } from './authorize.js';
import { html, page, type PageDocument } from './html.js';

/** Why the organization prompt did not find one (texts of the `organization-selection` screen). */
export type OrganizationPromptError = 'no-organization' | 'email-not-accepted' | 'invalid-email' | 'no-organization-email' | 'name-not-accepted';

/** What the prompt asks for, by the client's discovery methods: the texts' prefix, the field's type and autocomplete. */
function promptKind(methods: readonly string[]): { texts: 'organization' | 'email' | 'either'; type: string; autocomplete: string } {
  const email = methods.includes('email');
  const name = methods.includes('organization_name');
  if (email && name) return { texts: 'either', type: 'text', autocomplete: 'email' };
  if (email) return { texts: 'email', type: 'email', autocomplete: 'email' };
  return { texts: 'organization', type: 'text', autocomplete: 'organization' };
}

export function organizationNamePage(view: TransactionView & { methods: readonly string[]; name?: string; error?: FormError }): PageDocument {
  const S = ['organizations', 'organization-selection'] as const;
  const kind = promptKind(view.methods);
  const title = kind.texts === 'organization' ? 'title' : kind.texts === 'email' ? 'emailTitle' : 'eitherTitle';
  const description = kind.texts === 'organization' ? 'description' : kind.texts === 'email' ? 'emailDescription' : 'eitherDescription';
  const label = kind.texts === 'organization' ? 'organizationLabel' : kind.texts === 'email' ? 'emailLabel' : 'eitherLabel';
  return page(
    (ui) => ui.text(...S, 'pageTitle', { clientName: view.clientName }),
    (ui) => html`<h1>${ui.text(...S, title)}</h1>
<p>${ui.rich(...S, description, { clientName: view.clientName })}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/organization">
${hiddenFields(view)}
<label for="organization">${ui.text(...S, label)}</label>
<input type="${kind.type}" id="organization" name="organization" value="${view.name ?? ''}" autocomplete="${kind.autocomplete}" required${fieldState(view.error, 'organization')}>
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
