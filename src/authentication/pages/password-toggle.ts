/**
 * The one script of the design system's hosted pages: the "Show password"
 * control of a password field (authorize.ts `passwordField`), as progressive
 * enhancement. (The form_post and web_message pages are bare documents with
 * their own scripts and CSP.)
 *
 * A `type=password` field cannot be revealed without a script: CSS cannot
 * change an input's type, and restyling a text field as a password one
 * (`-webkit-text-security`) defeats password managers. So the page renders
 * the control `hidden` next to the field, and this static script (the same
 * bytes on every page, every language: the labels travel in the button's
 * `data-show`/`data-hide`) shows it and makes it toggle the field's `type`
 * and the button's `aria-pressed` and label. Without script the control stays
 * hidden and the form works as before.
 *
 * It is inline and allowed by its SHA-256 in `script-src` (html.ts
 * `renderPage`), like the styles: no `'unsafe-inline'`, no event handler
 * attributes, and only on the pages that have such a control.
 *
 * Before the form is sent the field becomes a password field again, so that
 * password managers see a password to save and the browser keeps no
 * autofill history of it; the posted value is the field's value either way.
 */

/** The attribute that marks a password field's control; the script acts on these buttons only. */
export const PASSWORD_TOGGLE_ATTRIBUTE = 'data-password-toggle';

/** How every control starts, written by authorize.ts `passwordField`: renderPage adds the script when a page has one. */
export const PASSWORD_TOGGLE_START = `<button type="button" ${PASSWORD_TOGGLE_ATTRIBUTE}`;

export const PASSWORD_TOGGLE_SCRIPT = `(() => {
  for (const button of document.querySelectorAll('button[${PASSWORD_TOGGLE_ATTRIBUTE}]')) {
    const input = document.getElementById(button.getAttribute('aria-controls') || '');
    if (!(input instanceof HTMLInputElement)) continue;
    const reveal = (shown) => {
      input.type = shown ? 'text' : 'password';
      button.setAttribute('aria-pressed', String(shown));
      button.textContent = shown ? button.dataset.hide : button.dataset.show;
    };
    button.addEventListener('click', () => reveal(input.type === 'password'));
    if (input.form) input.form.addEventListener('submit', () => reveal(false));
    button.hidden = false;
  }
})();`;
