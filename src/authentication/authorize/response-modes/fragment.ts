import { entries, type ResponseMode } from './mode.js';

/**
 * 302 to the redirect target with the response in its fragment, which the
 * browser keeps to itself (never sent to a server, nor in a Referer); a
 * fragment the callback had is replaced (RFC 6749 §3.1.2).
 */
export const fragment: ResponseMode = {
  name: 'fragment',
  send(reply, redirectTarget, response) {
    const hash = redirectTarget.indexOf('#');
    const base = hash === -1 ? redirectTarget : redirectTarget.slice(0, hash);
    const location = `${base}#${new URLSearchParams(entries(response)).toString()}`;
    return reply.code(302).header('Location', location).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send();
  },
};

