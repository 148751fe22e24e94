/**
 * The CIBA approval pages: what the application asks (its name, the binding
 * message the user compares with the one on the other device, the scopes),
 * approve or deny; then the outcome. Escaped templates, texts in the
 * request's language.
 */
import { html, page, type PageDocument } from './html.js';

export function cibaApprovalPage(view: { ticket: string; csrf: string; clientName: string; bindingMessage: string; scopes: string[] }): PageDocument {
  const S = ['async-approval-flow', 'async-approval'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle', { clientName: view.clientName }),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.rich(...S, 'description', { clientName: view.clientName })}</p>
<p class="code"><strong id="binding-message">${view.bindingMessage}</strong></p>
<p>${ui.text(...S, 'scopesText')} ${view.scopes.join(', ')}</p>
<form method="post" action="/ciba/approve">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<button type="submit" name="decision" value="approve">${ui.text(...S, 'approveButtonText')}</button>
<button type="submit" name="decision" value="deny" class="secondary">${ui.text(...S, 'denyButtonText')}</button>
</form>`,
  );
}

export function cibaDonePage(outcome: 'approved' | 'denied' | 'invalid'): PageDocument {
  const screen = outcome === 'approved' ? 'async-approval-accepted' : outcome === 'denied' ? 'async-approval-denied' : 'async-approval-error';
  return page(
    (ui) => ui.text('async-approval-flow', screen, 'pageTitle'),
    (ui) =>
      html`<h1${outcome === 'approved' ? html` class="ok"` : ''}>${ui.text('async-approval-flow', screen, 'title')}</h1><p${outcome === 'invalid' ? html` class="error" role="alert"` : ''}>${ui.text('async-approval-flow', screen, 'description')}</p>`,
  );
}
