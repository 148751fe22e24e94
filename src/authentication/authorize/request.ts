/**
 * The parameters of GET /authorize (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC
 * Core §3.1.2.1; authentication-api-wire-notes §4), checked in two stages:
 *
 * 1. the client and the redirect_uri. Until both are known good nothing may
 *    be sent to the redirect_uri (RFC 6749 §4.1.2.1: an open redirector
 *    otherwise), so their failures are an HTML page without Location;
 * 2. everything else, whose failures go back to the redirect_uri in the
 *    chosen response mode.
 *
 * Response types (OAuth 2.0 Multiple Response Type Encoding Practices §3,
 * §5; OIDC Core §3.2, §3.3): `code`, `token`, `id_token` and their
 * combinations, in any order. Those returning tokens need the client's
 * `implicit` grant, and default to, and must use, a mode other than `query`
 * (tokens in a query string end up in logs and Referer headers); those with
 * `code` need `authorization_code`. `id_token` requires a `nonce` (OIDC Core
 * §3.2.2.1). Third-party clients may not use the implicit types nor
 * `screen_hint` (wire notes §4).
 */
import { isPublicClient, type IssuanceClient } from '../../domain/issuance/lookups.js';
import { complianceProfile } from '../../domain/clients/compliance.js';
import { DNS_LABEL, escapeRegExp, originAllowed, originOf } from '../../domain/clients/origins.js';
import { oauthErrors, type OAuthErrorCode } from '../../platform/http/errors.js';
import type { ResponseModeName } from './response-target.js';

export const AUTHORIZATION_CODE_GRANT = 'authorization_code';
export const IMPLICIT_GRANT = 'implicit';

export type ResponseTypePart = 'code' | 'token' | 'id_token';
export type { ResponseModeName } from './response-target.js';

/** The built-in response types, each as its sorted parts joined by a space (the registry's default, ../registries.ts). */
export const RESPONSE_TYPES: readonly string[] = ['code', 'token', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token'];

/**
 * What /authorize and /oauth/par accept, read from the registries that
 * discovery advertises (../registries.ts `responseTypes`, `responseModes`),
 * so a type or mode added there is served as well as listed.
 */
export interface ResponseSupport {
  /** Supported response types, each as its parts sorted and joined by a space. */
  readonly responseTypes: ReadonlySet<string>;
  /** Supported `response_mode` values. */
  readonly responseModes: ReadonlySet<string>;
}

export function responseSupport(registries: { responseTypes: readonly string[]; responseModes: readonly { name: string }[] }): ResponseSupport {
  return {
    responseTypes: new Set(registries.responseTypes.map((t) => t.split(' ').filter((p) => p !== '').sort().join(' '))),
    responseModes: new Set(registries.responseModes.map((m) => m.name)),
  };
}

/** A validated authorization request, as stored while the user logs in. */
export interface AuthorizeRequest {
  client_id: string;
  /** The parts of `response_type`, sorted. */
  response_type: ResponseTypePart[];
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
  prompt?: 'none' | 'login' | 'consent';
  /** Seconds; a session authenticated longer ago must log in again (OIDC Core §3.1.2.1). */
  max_age?: number;
  connection?: string;
  login_hint?: string;
  screen_hint?: string;
  /** The end-user's preferred languages, space-separated (OIDC Core §3.1.2.1): the hosted pages' language. */
  ui_locales?: string;
  /** The DPoP key the code is bound to (RFC 9449 §10): its JWK thumbprint. */
  dpop_jkt?: string;
  /** Space-separated requested ACRs (OIDC Core §3.1.2.1); the multi-factor one forces MFA (interaction/steps/mfa.ts). */
  acr_values?: string;
  /** The organization to log in to, by id or name (./interaction/steps/organization.ts). */
  organization?: string;
  /** An organization invitation's ticket (with `organization`). */
  invitation?: string;
  /**
   * A request of another protocol (SAML) carried through the same steps:
   * its module answers it instead of the authorization response
   * (../interaction/step.ts ProtocolResponse, registries `protocolResponses`).
   */
  protocol?: ProtocolRequest;
}

/** What another protocol keeps of its request while the user logs in. */
export interface ProtocolRequest {
  /** The ProtocolResponse that answers it. */
  name: string;
  params: Readonly<Record<string, string>>;
}

/** Makes the authorization error (RFC 6749 §4.1.2.1): sent to the trusted redirect target at /authorize, JSON at /oauth/par. */
type Refuse = (error: OAuthErrorCode, description: string) => Error;

/** A base64url SHA-256 JWK thumbprint (RFC 7638), as `dpop_jkt` carries. */
const JWK_THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.2: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]; an S256 challenge is exactly 43. */
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** A URL whose authority (host, userinfo or port) holds a `*`: a pattern, never a concrete address. */
const WILDCARD_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\*/i;

/**
 * Whether `redirectUri` is allowed by a callback: the exact string, or, for a
 * callback with `*` as the first label of its host (`https://*.example.com/cb`),
 * the same string with one DNS label in its place. Exact comparison, as
 * RFC 9700 §4.1.3 asks; no normalisation. Only a concrete host matches: a
 * `redirectUri` with a `*` in its authority (the wildcard entry itself sent
 * back as the redirect_uri) matches nothing. Logout URLs are matched here too.
 */
export function callbackMatches(callback: string, redirectUri: string): boolean {
  if (WILDCARD_AUTHORITY.test(redirectUri)) return false;
  const wildcard = /^([a-z][a-z0-9+.-]*:\/\/)\*\.([^/?#]+\.[^/?#]+)(.*)$/i.exec(callback);
  if (!wildcard) return callback === redirectUri;
  const [, scheme, rest, tail] = wildcard;
  return new RegExp(`^${escapeRegExp(scheme!)}${DNS_LABEL}\\.${escapeRegExp(rest!)}${escapeRegExp(tail!)}$`).test(redirectUri);
}

/** The parts of a response_type value, sorted; undefined when it is not a supported combination. */
export function parseResponseType(value: string | undefined, supported: ResponseSupport): ResponseTypePart[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(' ').filter((p) => p !== '').sort();
  return supported.responseTypes.has(parts.join(' ')) ? (parts as ResponseTypePart[]) : undefined;
}

const returnsTokens = (parts: readonly string[]) => parts.includes('token') || parts.includes('id_token');

const refuseUntrusted = oauthErrors.invalidRequest;

/** Stage 1: the redirect target; else invalid_request (the error page at /authorize, JSON at /oauth/par). */
export function resolveRedirectTarget(client: IssuanceClient, redirectUri: string | undefined): string {
  const { callbacks } = client.browser;
  if (redirectUri === undefined) {
    if (callbacks.length === 0 || callbacks[0]!.includes('*')) throw refuseUntrusted('No redirect_uri was sent and the client has no usable callback URL.');
    return callbacks[0]!;
  }
  if (!callbacks.some((c) => callbackMatches(c, redirectUri))) {
    throw refuseUntrusted('Callback URL mismatch. The provided redirect_uri is not in the list of allowed callback URLs.');
  }
  return redirectUri;
}

/**
 * The mode responses (errors included) go back in: the one asked for when
 * supported, else the response type's default (`query` for `code`,
 * `fragment` for anything returning tokens).
 */
export function responseModeOf(params: Readonly<Record<string, string>>, supported: ResponseSupport): ResponseModeName {
  const asked = params.response_mode;
  if (asked !== undefined && supported.responseModes.has(asked) && !(asked === 'query' && returnsTokens((params.response_type ?? '').split(' ')))) {
    return asked as ResponseModeName;
  }
  return returnsTokens((params.response_type ?? '').split(' ')) ? 'fragment' : 'query';
}

/**
 * Stage 1, continued: `web_message` posts the response to the redirect
 * target's origin from a page framed or opened by it, so that origin must be
 * one of the client's Allowed Web Origins (wire notes §4).
 */
export function checkWebMessageOrigin(
  client: IssuanceClient,
  params: Readonly<Record<string, string>>,
  redirectTarget: string,
): void {
  if (params.response_mode !== 'web_message') return;
  const origin = originOf(redirectTarget);
  if (origin === undefined || !originAllowed(client.browser.webOrigins, origin)) {
    throw refuseUntrusted(`The origin of the redirect_uri is not in the list of allowed web origins (web_message response mode): ${origin ?? redirectTarget}`);
  }
}

function checkResponseType(client: IssuanceClient, params: Readonly<Record<string, string>>, supported: ResponseSupport, refuse: Refuse): ResponseTypePart[] {
  if (!params.response_type) throw refuse('invalid_request', 'Missing required parameter: response_type');
  const parts = parseResponseType(params.response_type, supported);
  if (!parts) throw refuse('unsupported_response_type', `Unsupported response type: ${params.response_type}`);
  if (parts.includes('code') && !client.grantTypes.has(AUTHORIZATION_CODE_GRANT)) {
    throw refuse('unauthorized_client', `Grant type '${AUTHORIZATION_CODE_GRANT}' not allowed for the client.`);
  }
  if (returnsTokens(parts)) {
    if (!client.browser.firstParty) {
      throw refuse('unsupported_response_type', `Unsupported response type for third party clients: ${params.response_type}`);
    }
    if (!client.grantTypes.has(IMPLICIT_GRANT)) {
      throw refuse('unauthorized_client', `Grant type '${IMPLICIT_GRANT}' not allowed for the client.`);
    }
    if (params.response_mode === 'query') {
      throw refuse('invalid_request', `Unsupported response_mode query for response_type ${params.response_type}: tokens are never sent in a query string`);
    }
  }
  if (parts.includes('id_token') && !params.nonce) {
    throw refuse('invalid_request', 'Missing required parameter: nonce (required for response types containing id_token)');
  }
  return parts;
}

/** PKCE (RFC 7636), S256 only, required of public clients that ask for a code (RFC 9700 §2.1.1). */
/** A client with a compliance level (FAPI) asks only for a code, with PKCE. */
function checkComplianceProfile(client: IssuanceClient, params: Readonly<Record<string, string>>, parts: readonly ResponseTypePart[], refuse: Refuse): void {
  const profile = complianceProfile(client.row);
  if (!profile) return;
  if (parts.length !== 1 || parts[0] !== 'code') throw refuse('invalid_request', `The client's compliance level (${profile.level}) allows only response_type=code`);
  if (params.code_challenge === undefined) throw refuse('invalid_request', `The client's compliance level (${profile.level}) requires PKCE (code_challenge, S256)`);
}

function checkPkce(client: IssuanceClient, params: Readonly<Record<string, string>>, parts: readonly ResponseTypePart[], refuse: Refuse): void {
  const challenge = params.code_challenge;
  if (challenge !== undefined) {
    // RFC 7636 §4.2 lets `plain` be the default; Gatehouse, as the service documents, supports only S256.
    if (params.code_challenge_method !== 'S256') {
      throw refuse('invalid_request', 'Unsupported code_challenge_method: only S256 is supported');
    }
    if (!CODE_CHALLENGE.test(challenge)) throw refuse('invalid_request', 'Invalid code_challenge');
  } else if (params.code_challenge_method !== undefined) {
    throw refuse('invalid_request', 'Missing required parameter: code_challenge');
  } else if (parts.includes('code') && isPublicClient(client)) {
    throw refuse('invalid_request', 'Public clients must send a code_challenge (PKCE, S256)');
  }
}

function checkPrompt(value: string | undefined, refuse: Refuse): AuthorizeRequest['prompt'] {
  if (value === undefined || value === '') return undefined;
  if (value === 'none' || value === 'login' || value === 'consent') return value;
  throw refuse('invalid_request', `Unsupported prompt: ${value}`);
}

/** OIDC Core §3.1.2.1: a non-negative number of seconds. */
function checkMaxAge(value: string | undefined, refuse: Refuse): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,10}$/.test(value)) throw refuse('invalid_request', 'max_age must be a non-negative integer (seconds)');
  return Number(value);
}

/**
 * Stage 2: the rest of the request, once the redirect target is trusted;
 * a failure is an authorization error (sent to that target at /authorize).
 */
export function validateAuthorizeRequest(client: IssuanceClient, params: Readonly<Record<string, string>>, redirectTarget: string, supported: ResponseSupport): AuthorizeRequest {
  const responseMode = responseModeOf(params, supported);
  const refuse: Refuse = oauthErrors.authorizationRequest;
  if (params.response_mode !== undefined && !supported.responseModes.has(params.response_mode)) {
    throw refuse('invalid_request', `Unsupported response_mode: ${params.response_mode}`);
  }
  const responseType = checkResponseType(client, params, supported, refuse);
  checkPkce(client, params, responseType, refuse);
  checkComplianceProfile(client, params, responseType, refuse);
  const prompt = checkPrompt(params.prompt, refuse);
  const maxAge = checkMaxAge(params.max_age, refuse);
  if (params.screen_hint !== undefined && !client.browser.firstParty) {
    throw refuse('invalid_request', 'screen_hint is not allowed for third party clients');
  }
  if (params.dpop_jkt !== undefined && !JWK_THUMBPRINT.test(params.dpop_jkt)) throw refuse('invalid_request', 'dpop_jkt must be a base64url SHA-256 JWK thumbprint');
  if (params.invitation !== undefined && !client.browser.firstParty) {
    throw refuse('invalid_request', 'invitation is not allowed for third party clients');
  }

  const request: AuthorizeRequest = {
    client_id: client.row.client_id,
    response_type: responseType,
    redirect_target: redirectTarget,
    response_mode: responseMode,
  };
  if (params.redirect_uri !== undefined) request.redirect_uri = params.redirect_uri;
  for (const name of ['state', 'nonce', 'scope', 'audience', 'connection', 'login_hint', 'screen_hint', 'dpop_jkt', 'acr_values', 'organization', 'invitation', 'ui_locales'] as const) {
    const value = params[name];
    if (value !== undefined && value !== '') request[name] = value;
  }
  if (prompt !== undefined) request.prompt = prompt;
  if (maxAge !== undefined) request.max_age = maxAge;
  if (params.code_challenge !== undefined) {
    request.code_challenge = params.code_challenge;
    request.code_challenge_method = 'S256';
  }
  return request;
}
