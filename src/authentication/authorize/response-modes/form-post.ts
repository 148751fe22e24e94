import { bareDocument, cspSourceOf, Html, html } from '../../pages/html.js';
import { entries, scriptHash, type ResponseMode } from './mode.js';

/** The one inline script of the form_post page, allowed by its hash (CSP Level 2 §4.2.4) rather than 'unsafe-inline'. */
const SUBMIT_SCRIPT = 'document.forms[0].submit();';
const SUBMIT_SCRIPT_HASH = scriptHash(SUBMIT_SCRIPT);

/**
 * An auto-submitting form posting the response to the redirect target; every
 * value is escaped, and a button submits it when scripts are off. The CSP
 * lets the form post only to the target's origin.
 */
export const formPost: ResponseMode = {
  name: 'form_post',
  send(reply, redirectTarget, response) {
    // A custom scheme (native apps) has an opaque origin: the scheme is the narrowest source then.
    const origin = cspSourceOf(redirectTarget) ?? "'none'";
    const body = bareDocument(
      'Submit this form',
      html`<form method="post" action="${redirectTarget}">
${entries(response).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<noscript><p>Scripts are off: press the button to continue.</p><button type="submit">Continue</button></noscript>
</form>
<script>${new Html(SUBMIT_SCRIPT)}</script>`,
    );
    return reply
      .code(200)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', `default-src 'none'; form-action ${origin}; script-src ${SUBMIT_SCRIPT_HASH}; style-src 'unsafe-inline'`)
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-store')
      .send(body.value);
  },
};

