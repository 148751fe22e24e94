/**
 * The CIBA approval pages: what the application asks (its name, the binding
 * message the user compares with the one on the other device, the scopes),
 * approve or deny; then the outcome. Escaped templates, no scripts.
 */
import { html, page, type Html } from './html.js';

export function cibaApprovalPage(view: { ticket: string; csrf: string; clientName: string; bindingMessage: string; scopes: string[] }): Html {
  return page(
    `Approve ${view.clientName}`,
    html`<h1>Approve the sign-in request</h1>
<p><strong>${view.clientName}</strong> asks you to approve a sign-in. Check that this message is the one shown where you started it:</p>
<p><strong id="binding-message">${view.bindingMessage}</strong></p>
<p>It asks for: ${view.scopes.join(', ')}</p>
<form method="post" action="/ciba/approve">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function cibaDonePage(outcome: 'approved' | 'denied' | 'invalid'): Html {
  if (outcome === 'approved') return page('Request approved', html`<h1 class="ok">Request approved</h1><p>You can close this window and go back to the application.</p>`);
  if (outcome === 'denied') return page('Request denied', html`<h1>Request denied</h1><p>The application was told. You can close this window.</p>`);
  return page('Link not valid', html`<h1>This link is no longer valid</h1><p class="error" role="alert">The request was already answered or has expired.</p>`);
}
