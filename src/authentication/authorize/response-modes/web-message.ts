import { bareDocument, Html, html } from '../../pages/html.js';
import { entries, scriptHash, scriptJson, type ResponseMode } from './mode.js';

/**
 * A page whose one script posts `{type: 'authorization_response', response}`
 * to the window that framed or opened it, addressed to the redirect target's
 * origin only (so no other page can read it), as auth0-spa-js's runIframe
 * and auth0.js expect. The caller has checked that origin against the
 * client's Allowed Web Origins; the page may be framed by it alone.
 */
export const webMessage: ResponseMode = {
  name: 'web_message',
  send(reply, redirectTarget, response) {
    const origin = new URL(redirectTarget).origin;
    const message = { type: 'authorization_response', response: Object.fromEntries(entries(response)) };
    const script = `(window.opener || window.parent).postMessage(${scriptJson(message)}, ${scriptJson(origin)});`;
    const body = bareDocument('Authorization Response', html`<script>${new Html(script)}</script>`);
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

