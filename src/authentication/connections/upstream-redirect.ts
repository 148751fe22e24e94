/** Sending the browser to an upstream identity provider's sign-in URL. */
import type { FastifyReply } from 'fastify';
import { html, page, sendPage } from '../pages/html.js';

/**
 * A 302 to `url`; answering a post of the login page (`fromForm`), whose CSP
 * lets a form redirect only to this origin and the application's, a page
 * that moves on to it instead (a refresh is a navigation, not a form redirect).
 */
export function sendToUpstream(reply: FastifyReply, url: string, fromForm: boolean | undefined): Promise<FastifyReply> | FastifyReply {
  if (fromForm) {
    return sendPage(reply, 200, page('Continue to sign in', html`<meta http-equiv="refresh" content="0;url=${url}"><h1>Your organization signs you in</h1><p><a href="${url}">Continue to your organization's sign-in page</a></p>`));
  }
  return reply.code(302).header('Location', url).header('Cache-Control', 'no-store').send();
}
