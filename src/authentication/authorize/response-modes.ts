/**
 * The response modes of /authorize, one handler each behind one interface
 * (OAuth 2.0 Multiple Response Type Encoding Practices §2.1 `query`; OAuth
 * 2.0 Form Post Response Mode §2 `form_post`). Successes and errors alike
 * are sent through the mode the request chose (wire notes §4).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Html, html, page } from '../pages/html.js';
import type { ResponseModeName } from './request.js';

export type AuthorizationResponse = Readonly<Record<string, string | undefined>>;

export interface ResponseMode {
  send(reply: FastifyReply, redirectTarget: string, response: AuthorizationResponse): FastifyReply;
}

function entries(response: AuthorizationResponse): [string, string][] {
  return Object.entries(response).filter((e): e is [string, string] => e[1] !== undefined);
}

/** 302 to the redirect target with the response in its query, kept after any query the callback has. */
const query: ResponseMode = {
  send(reply, redirectTarget, response) {
    const search = new URLSearchParams(entries(response)).toString();
    const location = `${redirectTarget}${redirectTarget.includes('?') ? '&' : '?'}${search}`;
    return reply.code(302).header('Location', location).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send();
  },
};

/** The one inline script of the form_post page, allowed by its hash (CSP Level 2 §4.2.4) rather than 'unsafe-inline'. */
const SUBMIT_SCRIPT = 'document.forms[0].submit();';
const SUBMIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT, 'utf8').digest('base64')}'`;

/**
 * An auto-submitting form posting the response to the redirect target; every
 * value is escaped, and a button submits it when scripts are off. The CSP
 * lets the form post only to the target's origin.
 */
const formPost: ResponseMode = {
  send(reply, redirectTarget, response) {
    const url = new URL(redirectTarget);
    // A custom scheme (native apps) has an opaque origin: the scheme is the narrowest source then.
    const origin = url.origin === 'null' ? url.protocol : url.origin;
    const body = page(
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

export const RESPONSE_MODES: Readonly<Record<ResponseModeName, ResponseMode>> = { query, form_post: formPost };
