/**
 * The response modes of /authorize, one handler each behind one interface
 * (OAuth 2.0 Multiple Response Type Encoding Practices §2.1 `query` and
 * `fragment`; OAuth 2.0 Form Post Response Mode §2 `form_post`; the
 * service's `web_message`, wire notes §4). Successes and errors alike are
 * sent through the mode the request chose.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { cspSourceOf, Html, html, page } from '../pages/html.js';
import type { ResponseModeName } from './request.js';

export type AuthorizationResponse = Readonly<Record<string, string | undefined>>;

export interface ResponseMode {
  /** The `response_mode` value, as discovery lists it. */
  readonly name: ResponseModeName;
  send(reply: FastifyReply, redirectTarget: string, response: AuthorizationResponse): FastifyReply;
}

function entries(response: AuthorizationResponse): [string, string][] {
  return Object.entries(response).filter((e): e is [string, string] => e[1] !== undefined);
}

/**
 * 302 to the redirect target with the response in its query, kept after any
 * query the callback has and always before a fragment: registered callbacks
 * have none (RFC 6749 §3.1.2), but parameters appended after a `#` would be
 * read as part of the fragment.
 */
const query: ResponseMode = {
  name: 'query',
  send(reply, redirectTarget, response) {
    const search = new URLSearchParams(entries(response)).toString();
    const hash = redirectTarget.indexOf('#');
    const base = hash === -1 ? redirectTarget : redirectTarget.slice(0, hash);
    const fragment = hash === -1 ? '' : redirectTarget.slice(hash);
    const location = `${base}${base.includes('?') ? '&' : '?'}${search}${fragment}`;
    return reply.code(302).header('Location', location).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send();
  },
};

/**
 * 302 to the redirect target with the response in its fragment, which the
 * browser keeps to itself (never sent to a server, nor in a Referer); a
 * fragment the callback had is replaced (RFC 6749 §3.1.2).
 */
const fragment: ResponseMode = {
  name: 'fragment',
  send(reply, redirectTarget, response) {
    const hash = redirectTarget.indexOf('#');
    const base = hash === -1 ? redirectTarget : redirectTarget.slice(0, hash);
    const location = `${base}#${new URLSearchParams(entries(response)).toString()}`;
    return reply.code(302).header('Location', location).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send();
  },
};

const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** JSON safe inside a <script> element: no `</script>`, comment openers or line separators can close or break it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A page whose one script posts `{type: 'authorization_response', response}`
 * to the window that framed or opened it, addressed to the redirect target's
 * origin only (so no other page can read it), as auth0-spa-js's runIframe
 * and auth0.js expect. The caller has checked that origin against the
 * client's Allowed Web Origins; the page may be framed by it alone.
 */
const webMessage: ResponseMode = {
  name: 'web_message',
  send(reply, redirectTarget, response) {
    const origin = new URL(redirectTarget).origin;
    const message = { type: 'authorization_response', response: Object.fromEntries(entries(response)) };
    const script = `(window.opener || window.parent).postMessage(${scriptJson(message)}, ${scriptJson(origin)});`;
    const body = page('Authorization Response', html`<script>${new Html(script)}</script>`);
    return reply
      .code(200)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', `default-src 'none'; script-src ${scriptHash(script)}; style-src 'unsafe-inline'; frame-ancestors ${origin}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-store')
      .send(body.value);
  },
};

/** The one inline script of the form_post page, allowed by its hash (CSP Level 2 §4.2.4) rather than 'unsafe-inline'. */
const SUBMIT_SCRIPT = 'document.forms[0].submit();';
const SUBMIT_SCRIPT_HASH = scriptHash(SUBMIT_SCRIPT);

/**
 * An auto-submitting form posting the response to the redirect target; every
 * value is escaped, and a button submits it when scripts are off. The CSP
 * lets the form post only to the target's origin.
 */
const formPost: ResponseMode = {
  name: 'form_post',
  send(reply, redirectTarget, response) {
    // A custom scheme (native apps) has an opaque origin: the scheme is the narrowest source then.
    const origin = cspSourceOf(redirectTarget) ?? "'none'";
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

export const RESPONSE_MODES: Readonly<Record<ResponseModeName, ResponseMode>> = { query, fragment, form_post: formPost, web_message: webMessage };
