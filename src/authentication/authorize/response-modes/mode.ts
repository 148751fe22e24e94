/**
 * A response mode of /authorize: how the authorization response (a code,
 * tokens, or an error) reaches the client's redirect target. One module per
 * mode (OAuth 2.0 Multiple Response Type Encoding Practices §2.1 `query` and
 * `fragment`; OAuth 2.0 Form Post Response Mode §2 `form_post`; the
 * service's `web_message`, wire notes §4), listed in ./index.ts.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { ResponseModeName } from '../response-target.js';

export type AuthorizationResponse = Readonly<Record<string, string | undefined>>;

export interface ResponseMode {
  /** The `response_mode` value, as discovery lists it. */
  readonly name: ResponseModeName;
  send(reply: FastifyReply, redirectTarget: string, response: AuthorizationResponse): FastifyReply;
}

/** The response's members that have a value. */
export function entries(response: AuthorizationResponse): [string, string][] {
  return Object.entries(response).filter((e): e is [string, string] => e[1] !== undefined);
}

/** A CSP source allowing one inline script by its hash (CSP Level 2 §4.2.4). */
export const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** JSON safe inside a <script> element: no `</script>`, comment openers or line separators can close or break it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

