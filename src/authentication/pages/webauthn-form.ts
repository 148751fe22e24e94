/**
 * The WebAuthn forms' script (security keys and device biometrics in the MFA
 * step, ./mfa.ts; passkeys on the login, signup and enrolment pages,
 * ./passkeys.ts): a WebAuthn ceremony needs the browser's
 * `navigator.credentials`, so unlike the other scripts this one is what the
 * form is for; without script the page says so (`<noscript>`).
 *
 * The server writes the ceremony's options (the JSON of
 * @simplewebauthn/server, base64url members) into the form's
 * `data-webauthn` attribute and whether to create or get a credential into
 * `data-webauthn-mode`. On submit this static script (the same bytes on
 * every page) runs the ceremony, puts the credential's JSON
 * (`PublicKeyCredential.toJSON()`) into the form's `credential` field and
 * sends the form; a refused or failed ceremony shows the form's
 * `data-webauthn-failed` text in its status line and sends nothing. A form
 * with `data-webauthn-conditional="true"` (the passkey login, ./passkeys.ts)
 * also asks at once for conditional mediation, where the browser has it:
 * the passkeys are offered in the identifier field's autofill, and one
 * chosen there sends the form; the button aborts that request and asks
 * modally. No CBOR or signature is handled here: the server verifies
 * everything.
 *
 * Inline and allowed by its SHA-256 in `script-src` (html.ts `renderPage`),
 * only on the pages with such a form.
 */

/** A WebAuthn form's `credential` field: the JSON of a PublicKeyCredential (at most 16 KiB, ../parameter-limits.ts); undefined when it is not JSON. */
export function credentialParam(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The attribute that marks a WebAuthn form: its value is the ceremony's options. */
export const WEBAUTHN_ATTRIBUTE = 'data-webauthn';

/** How a WebAuthn form starts; renderPage adds the script when a page has one (values are escaped, so only these forms can). */
export const WEBAUTHN_FORM_START = `<form method="post" ${WEBAUTHN_ATTRIBUTE}=`;

export const WEBAUTHN_SCRIPT = `(() => {
  const form = document.querySelector('form[${WEBAUTHN_ATTRIBUTE}]');
  if (!(form instanceof HTMLFormElement) || !window.PublicKeyCredential) return;
  const status = form.querySelector('[role=status]');
  const field = form.elements.namedItem('credential');
  const b64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0)).buffer;
  const text = (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const creating = form.dataset.webauthnMode === 'create';
  const toJson = (c) => {
    if (typeof c.toJSON === 'function') return c.toJSON();
    const r = c.response;
    const response = { clientDataJSON: text(r.clientDataJSON) };
    if (creating) Object.assign(response, { attestationObject: text(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] });
    else Object.assign(response, { authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined });
    return { id: c.id, rawId: text(c.rawId), type: c.type, response, clientExtensionResults: c.getClientExtensionResults(), authenticatorAttachment: c.authenticatorAttachment || undefined };
  };
  const options = () => {
    const o = JSON.parse(form.getAttribute('${WEBAUTHN_ATTRIBUTE}') || '{}');
    o.challenge = b64(o.challenge);
    for (const c of [...(o.excludeCredentials || []), ...(o.allowCredentials || [])]) c.id = b64(c.id);
    if (o.user) o.user.id = b64(o.user.id);
    return o;
  };
  const send = (credential) => {
    field.value = JSON.stringify(toJson(credential));
    form.submit();
  };
  let waiting;
  if (form.dataset.webauthnConditional === 'true' && !creating && PublicKeyCredential.isConditionalMediationAvailable) {
    PublicKeyCredential.isConditionalMediationAvailable().then((available) => {
      if (!available) return;
      waiting = new AbortController();
      navigator.credentials.get({ publicKey: options(), mediation: 'conditional', signal: waiting.signal }).then((c) => c && send(c), () => {});
    });
  }
  form.addEventListener('submit', (event) => {
    if (field && field.value) return;
    event.preventDefault();
    if (waiting) waiting.abort();
    waiting = undefined;
    const ceremony = creating ? navigator.credentials.create({ publicKey: options() }) : navigator.credentials.get({ publicKey: options() });
    ceremony.then(send).catch(() => {
      if (status) status.textContent = form.dataset.webauthnFailed || '';
    });
  });
})();`;
