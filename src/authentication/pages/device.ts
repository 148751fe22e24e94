/**
 * The /activate pages of the device authorization flow (RFC 8628 §3.3):
 * enter the code shown on the device, confirm it (the code shown again, with
 * the application's name: the user checks it is the one on their screen), and
 * the outcome. Escaped templates, no scripts, as every hosted page.
 */
import { errorBlock, type FormError } from './authorize.js';
import { html, page, type Html } from './html.js';

export function activateCodePage(view: { csrf: string; userCode?: string; error?: FormError }): Html {
  return page(
    'Activate your device',
    html`<h1>Activate your device</h1>
<p>Enter the code displayed on your device.</p>
${errorBlock(view.error)}
<form method="post" action="/activate">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<label for="user_code">Code</label>
<input type="text" id="user_code" name="user_code" value="${view.userCode ?? ''}" autocomplete="one-time-code" autocapitalize="characters" required${view.error ? html` aria-invalid="true" aria-describedby="error"` : ''}>
<button type="submit">Continue</button>
</form>`,
  );
}

export function activateConfirmPage(view: { csrf: string; userCode: string; clientName: string }): Html {
  return page(
    'Confirm your device',
    html`<h1>Device confirmation</h1>
<p>Please confirm that this code is the one displayed on your device, for <strong>${view.clientName}</strong>:</p>
<p><strong id="code">${view.userCode}</strong></p>
<form method="post" action="/activate">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<input type="hidden" name="user_code" value="${view.userCode}">
<button type="submit" name="decision" value="confirm">Confirm</button>
<button type="submit" name="decision" value="cancel">Cancel</button>
</form>`,
  );
}

export function activateDonePage(approved: boolean): Html {
  return approved
    ? page('Device activated', html`<h1 class="ok">Congratulations, you're all set!</h1><p>Your device is now connected. You can close this window and go back to it.</p>`)
    : page('Device not activated', html`<h1>Device not activated</h1><p class="error" role="alert">The request was cancelled. You can close this window.</p>`);
}
