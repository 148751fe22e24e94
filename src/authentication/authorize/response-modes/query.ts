import { entries, type ResponseMode } from './mode.js';

/**
 * 302 to the redirect target with the response in its query, kept after any
 * query the callback has and always before a fragment: registered callbacks
 * have none (RFC 6749 §3.1.2), but parameters appended after a `#` would be
 * read as part of the fragment.
 */
export const query: ResponseMode = {
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

