/**
 * The /activate pages of the device authorization flow (RFC 8628 §3.3):
 * enter the code shown on the device, confirm it (the code shown again, with
 * the application's name: the user checks it is the one on their screen), and
 * the outcome. Escaped templates, texts in the request's language, as every hosted page.
 */
import { errorBlock, fieldState, type FormError } from './authorize.js';
import { html, page, type PageDocument } from './html.js';

export function activateCodePage(view: { csrf: string; userCode?: string; error?: FormError }): PageDocument {
  const S = ['device-flow', 'device-code-activation'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.text(...S, 'description')}</p>
${errorBlock(ui, view.error)}
<form method="post" action="/activate">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<label for="user_code">${ui.text(...S, 'codeLabel')}</label>
<input type="text" id="user_code" name="user_code" value="${view.userCode ?? ''}" autocomplete="one-time-code" autocapitalize="characters" required${fieldState(view.error, 'user_code')}>
<button type="submit">${ui.text(...S, 'buttonText')}</button>
</form>`,
  );
}

export function activateConfirmPage(view: { csrf: string; userCode: string; clientName: string }): PageDocument {
  const S = ['device-flow', 'device-code-confirmation'] as const;
  return page(
    (ui) => ui.text(...S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(...S, 'title')}</h1>
<p>${ui.rich(...S, 'description', { clientName: view.clientName })}</p>
<p class="code"><strong id="code">${view.userCode}</strong></p>
<form method="post" action="/activate">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<input type="hidden" name="user_code" value="${view.userCode}">
<button type="submit" name="decision" value="confirm">${ui.text(...S, 'confirmButtonText')}</button>
<button type="submit" name="decision" value="cancel" class="secondary">${ui.text(...S, 'cancelButtonText')}</button>
</form>`,
  );
}

export function activateDonePage(approved: boolean): PageDocument {
  return approved
    ? page(
        (ui) => ui.text('device-flow', 'device-code-activation-allowed', 'pageTitle'),
        (ui) => html`<h1 class="ok">${ui.text('device-flow', 'device-code-activation-allowed', 'title')}</h1><p>${ui.text('device-flow', 'device-code-activation-allowed', 'description')}</p>`,
      )
    : page(
        (ui) => ui.text('device-flow', 'device-code-activation-denied', 'pageTitle'),
        (ui) => html`<h1>${ui.text('device-flow', 'device-code-activation-denied', 'title')}</h1><p class="error" role="alert">${ui.text('device-flow', 'device-code-activation-denied', 'description')}</p>`,
      );
}
