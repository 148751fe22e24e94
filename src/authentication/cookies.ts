/**
 * The cookies of the hosted pages. Every one is a `__Host-` cookie (RFC 6265bis
 * §4.1.3.2: Secure, Path=/, no Domain), so no sibling or parent domain can
 * set or overwrite it; and a request that carries one of them twice (a cookie
 * tossed in under another path) is refused as a whole rather than trusting
 * whichever copy comes first (`refuseDuplicatedCookies`).
 *
 * - `__Host-gh_session`: the SSO session, 256 random bits of which only the SHA-256
 *   is stored. Secure, HttpOnly, SameSite=None: silent authentication
 *   (`prompt=none` with `response_mode=web_message`, as auth0-spa-js's
 *   getTokenSilently does) loads /authorize in an iframe of the
 *   application's site, where a Lax cookie would not be sent; the service's
 *   own session cookie is SameSite=None for the same reason. Cross-site
 *   requests can at most start an authorization whose response goes to a
 *   registered callback, and every form post checks a CSRF token.
 * - `__Host-gh_browser`: a random value naming this browser, to which the login
 *   pages' CSRF tokens are bound, so that a token another browser obtained
 *   (a login CSRF: the victim's browser posting the attacker's credentials
 *   with the attacker's token) does not verify. SameSite=Lax: only the
 *   pages' own same-origin posts need it.
 * - `__Host-gh_mfa`: this browser passed a second factor for a user
 *   (./mfa/remember-browser.ts). HttpOnly, SameSite=Lax.
 * - `__Host-gh_device`: a random value naming this device for the new-device
 *   risk assessor (./risk/assessment.ts), set at the first login through the
 *   hosted login; only its SHA-256 is stored, per user who logged in from
 *   it. HttpOnly, SameSite=Lax, kept 400 days (the browsers' longest).
 * - `__Host-gh_co`: the verifier of a cross-origin login (./cross-origin/),
 *   set by POST /co/authenticate (a credentialed cross-site request, hence
 *   SameSite=None) and checked when its login ticket is redeemed at
 *   /authorize, so a ticket works only in the browser that logged in.
 *   HttpOnly; it lives as long as the ticket.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { oauthErrors } from '../platform/http/errors.js';
import { newSecret } from '../domain/secrets.js';

export const SESSION_COOKIE = '__Host-gh_session';
export const BROWSER_COOKIE = '__Host-gh_browser';
/** The browser that passed a second factor (./mfa/remember-browser.ts). */
export const MFA_REMEMBER_COOKIE = '__Host-gh_mfa';
/** The device the new-device assessor knows (./risk/assessment.ts). */
export const DEVICE_COOKIE = '__Host-gh_device';
/** The verifier of a cross-origin login (./cross-origin/ticket.ts). */
export const CO_VERIFIER_COOKIE = '__Host-gh_co';
/** Every cookie Gatehouse sets. */
export const GATEHOUSE_COOKIES: readonly string[] = [SESSION_COOKIE, BROWSER_COOKIE, MFA_REMEMBER_COOKIE, CO_VERIFIER_COOKIE, DEVICE_COOKIE];

/**
 * The value of one cookie in a Cookie header (RFC 6265 §5.4), or undefined.
 * Requests naming one of Gatehouse's cookies twice never get this far
 * (`refuseDuplicatedCookies`).
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The first of Gatehouse's cookies this Cookie header carries more than once, if any. */
export function duplicatedCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const seen = new Set<string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = eq > 0 ? part.slice(0, eq).trim() : '';
    if (!GATEHOUSE_COOKIES.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** onRequest hook of the Authentication API: 400 for a duplicated Gatehouse cookie. */
export async function refuseDuplicatedCookies(request: FastifyRequest): Promise<void> {
  const name = duplicatedCookie(request.headers.cookie);
  if (name !== undefined) throw oauthErrors.invalidRequest(`The cookie ${name} was sent more than once`);
}

/** The session cookie, kept by the browser as long as the session lasts (src/domain/lifetimes.ts `session`). */
export function sessionCookie(value: string, maxAgeSeconds: number | undefined): string {
  // Without Max-Age the cookie ends with the browser (the tenant's non-persistent session cookies).
  const maxAge = maxAgeSeconds === undefined ? '' : ` Max-Age=${maxAgeSeconds};`;
  return `${SESSION_COOKIE}=${value}; Path=/;${maxAge} Secure; HttpOnly; SameSite=None`;
}

/** Removes the session cookie: the same attributes, an empty value, Max-Age=0 (RFC 6265 §5.3 step 3). */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=None`;
}

/** Adds a Set-Cookie header to the reply, keeping the ones already set. */
export function appendCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('Set-Cookie', [...list, cookie]);
}

/** The browser's binding value, setting its cookie when the browser had none (or a malformed one). */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply): string {
  const binding = browserBinding(request.headers.cookie);
  if (binding.setCookie) appendCookie(reply, binding.setCookie);
  return binding.value;
}

/** The browser's binding value, and the Set-Cookie to send when it had none (or a malformed one). */
export function browserBinding(cookieHeader: string | undefined): { value: string; setCookie?: string } {
  const value = readCookie(cookieHeader, BROWSER_COOKIE);
  if (value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value)) return { value };
  const fresh = newSecret();
  return { value: fresh, setCookie: `${BROWSER_COOKIE}=${fresh}; Path=/; Secure; HttpOnly; SameSite=Lax` };
}

/** The device's identifier (`__Host-gh_device`), and the Set-Cookie to send when it had none (or a malformed one). */
export function deviceIdentifier(cookieHeader: string | undefined): { value: string; setCookie?: string } {
  const value = readCookie(cookieHeader, DEVICE_COOKIE);
  if (value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value)) return { value };
  const fresh = newSecret();
  return { value: fresh, setCookie: `${DEVICE_COOKIE}=${fresh}; Path=/; Max-Age=34560000; Secure; HttpOnly; SameSite=Lax` };
}
