/**
 * The parameters of GET /authorize (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC
 * Core §3.1.2.1; authentication-api-wire-notes §4), checked in two stages:
 *
 * 1. the client and the redirect_uri. Until both are known good nothing may
 *    be sent to the redirect_uri (RFC 6749 §4.1.2.1: an open redirector
 *    otherwise), so their failures are an HTML page without Location;
 * 2. everything else, whose failures go back to the redirect_uri in the
 *    chosen response mode.
 */
import type { IssuanceClient } from '../../cache/issuance.js';

export const AUTHORIZATION_CODE_GRANT = 'authorization_code';

/** A validated authorization request, as stored while the user logs in. */
export interface AuthorizeRequest {
  client_id: string;
  /** Where the response goes: the sent redirect_uri, or the client's first callback. */
  redirect_target: string;
  /** The redirect_uri as sent; undefined when none was (then the token request needs none). */
  redirect_uri?: string;
  response_mode: ResponseModeName;
  state?: string;
  nonce?: string;
  scope?: string;
  audience?: string;
  code_challenge?: string;
  code_challenge_method?: 'S256';
  prompt?: string;
  connection?: string;
}

export type ResponseModeName = 'query' | 'form_post';

/** A failure to be shown as a page: the redirect_uri cannot be trusted. */
export class AuthorizePageError extends Error {}

/** A failure to be sent to the (trusted) redirect_uri (RFC 6749 §4.1.2.1). */
export class AuthorizeRedirectError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** RFC 7636 §4.2: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]; an S256 challenge is exactly 43. */
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** A DNS label in a wildcard match: no dots, no userinfo, port or path characters can slip in. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `redirectUri` is allowed by a callback: the exact string, or, for a
 * callback with `*` as the first label of its host (`https://*.example.com/cb`),
 * the same string with one DNS label in its place. Exact comparison, as
 * RFC 9700 §4.1.3 asks; no normalisation.
 */
export function callbackMatches(callback: string, redirectUri: string): boolean {
  if (callback === redirectUri) return true;
  const wildcard = /^([a-z][a-z0-9+.-]*:\/\/)\*\.([^/?#]+\.[^/?#]+)(.*)$/i.exec(callback);
  if (!wildcard) return false;
  const [, scheme, rest, tail] = wildcard;
  return new RegExp(`^${escapeRegExp(scheme!)}${LABEL}\\.${escapeRegExp(rest!)}${escapeRegExp(tail!)}$`).test(redirectUri);
}

function callbacksOf(client: IssuanceClient): string[] {
  try {
    const callbacks = (JSON.parse(client.row.config) as { callbacks?: unknown }).callbacks;
    return Array.isArray(callbacks) ? callbacks.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** Stage 1: the redirect target, or an AuthorizePageError. */
export function resolveRedirectTarget(client: IssuanceClient, redirectUri: string | undefined): string {
  const callbacks = callbacksOf(client);
  if (redirectUri === undefined) {
    if (callbacks.length === 0 || callbacks[0]!.includes('*')) throw new AuthorizePageError('No redirect_uri was sent and the client has no usable callback URL.');
    return callbacks[0]!;
  }
  if (!callbacks.some((c) => callbackMatches(c, redirectUri))) {
    throw new AuthorizePageError('Callback URL mismatch. The provided redirect_uri is not in the list of allowed callback URLs.');
  }
  return redirectUri;
}

export function responseModeOf(params: Readonly<Record<string, string>>): ResponseModeName {
  return params.response_mode === 'form_post' ? 'form_post' : 'query';
}

/** Stage 2: the rest of the request, once the redirect target is trusted. */
export function validateAuthorizeRequest(
  client: IssuanceClient,
  params: Readonly<Record<string, string>>,
  redirectTarget: string,
): AuthorizeRequest {
  if (params.response_mode !== undefined && params.response_mode !== 'query' && params.response_mode !== 'form_post') {
    throw new AuthorizeRedirectError('invalid_request', `Unsupported response_mode: ${params.response_mode}`);
  }
  if (!params.response_type) throw new AuthorizeRedirectError('invalid_request', 'Missing required parameter: response_type');
  if (params.response_type !== 'code') {
    throw new AuthorizeRedirectError('unsupported_response_type', `Unsupported response type: ${params.response_type}`);
  }
  if (!client.grantTypes.has(AUTHORIZATION_CODE_GRANT)) {
    throw new AuthorizeRedirectError('unauthorized_client', `Grant type '${AUTHORIZATION_CODE_GRANT}' not allowed for the client.`);
  }
  const challenge = params.code_challenge;
  if (challenge !== undefined) {
    // RFC 7636 §4.2 lets `plain` be the default; Gatehouse, as the service documents, supports only S256.
    if (params.code_challenge_method !== 'S256') {
      throw new AuthorizeRedirectError('invalid_request', 'Unsupported code_challenge_method: only S256 is supported');
    }
    if (!CODE_CHALLENGE.test(challenge)) throw new AuthorizeRedirectError('invalid_request', 'Invalid code_challenge');
  } else if (params.code_challenge_method !== undefined) {
    throw new AuthorizeRedirectError('invalid_request', 'Missing required parameter: code_challenge');
  } else if (client.row.token_endpoint_auth_method === 'none') {
    // RFC 9700 §2.1.1: public clients MUST use PKCE.
    throw new AuthorizeRedirectError('invalid_request', 'Public clients must send a code_challenge (PKCE, S256)');
  }
  const prompt = params.prompt;
  if (prompt !== undefined && prompt !== 'none' && prompt !== 'login') {
    throw new AuthorizeRedirectError('invalid_request', `Unsupported prompt: ${prompt}`);
  }

  const request: AuthorizeRequest = { client_id: client.row.client_id, redirect_target: redirectTarget, response_mode: responseModeOf(params) };
  if (params.redirect_uri !== undefined) request.redirect_uri = params.redirect_uri;
  for (const name of ['state', 'nonce', 'scope', 'audience', 'prompt', 'connection'] as const) {
    const value = params[name];
    if (value !== undefined && value !== '') request[name] = value;
  }
  if (challenge !== undefined) {
    request.code_challenge = challenge;
    request.code_challenge_method = 'S256';
  }
  return request;
}
