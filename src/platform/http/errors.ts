/**
 * The two error families of the service, on one base (ARCHITECTURE "Errors").
 *
 * - Management API: `{statusCode, error, message, errorCode?}` (hapi/Boom style;
 *   401s add `attributes`), see management-api-wire-notes §2.
 * - Authentication API (OAuth): `{error, error_description}`.
 *
 * Errors are created by the small factories below (`new OAuthError` appears
 * nowhere else) and turned into bodies in exactly one place, `errorHandler`
 * in `./error-handler.ts`. An OAuthError is the one error of shared code: the
 * endpoint decides how it looks (./error-rendering.ts: OAuth JSON, an error
 * page or a redirect at /authorize, the Management API's shape under /api/v2).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';

export abstract class HttpError extends Error {
  readonly headers: Record<string, string> = {};

  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }

  abstract body(): Record<string, unknown>;

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  /**
   * Writes the answer (called by the one error handler, after the headers
   * above): by default the JSON of `body()`. A family answered otherwise (a
   * hosted page, an authorization response sent back to the client) overrides it.
   */
  /** Sends the error (a page may need to load the tenant's look first, hence the promise). */
  respond(reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
    return reply.code(this.statusCode).type('application/json; charset=utf-8').send(this.body());
  }
}

/** The closed set of Management API `errorCode` values Gatehouse emits. */
export type ManagementErrorCode =
  | 'Bearer'
  | 'insufficient_scope'
  | 'invalid_body'
  | 'invalid_query_string'
  | 'invalid_uri'
  | 'invalid_paging'
  | 'inexistent_client'
  | 'inexistent_resource_server'
  | 'inexistent_client_grant'
  | 'inexistent_organization'
  | 'inexistent_role'
  | 'inexistent_group'
  | 'inexistent_grant'
  | 'inexistent_user'
  | 'inexistent_connection'
  | 'inexistent_credential'
  | 'credential_in_use'
  | 'inexistent_custom_domain'
  | 'inexistent_signing_key'
  | 'inexistent_job'
  | 'inexistent_theme'
  | 'inexistent_template'
  | 'inexistent_phone_template'
  | 'phone_template_exists'
  | 'inexistent_phone_provider'
  | 'phone_provider_exists'
  | 'custom_phone_provider'
  | 'theme_exists'
  | 'inexistent_log'
  | 'inexistent_log_stream'
  | 'inexistent_event_stream'
  | 'invalid_cursor'
  | 'cursor_expired'
  | 'too_many_connections'
  | 'user_exists'
  | 'conflict'
  | 'operation_not_supported'
  | 'not_available_in_gatehouse'
  | 'entity_limit_exceeded'
  | 'too_many_requests';

export class ManagementError extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    readonly errorCode?: ManagementErrorCode,
    readonly attributes?: Record<string, string>,
  ) {
    super(statusCode, message);
    this.name = 'ManagementError';
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      statusCode: this.statusCode,
      error: STATUS_CODES[this.statusCode] ?? 'Error',
      message: this.message,
    };
    if (this.errorCode !== undefined) body.errorCode = this.errorCode;
    if (this.attributes !== undefined) body.attributes = this.attributes;
    return body;
  }
}

/** The closed set of OAuth `error` values Gatehouse emits. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'access_denied'
  | 'server_error'
  | 'too_many_requests'
  | 'not_found'
  | 'unauthorized'
  | 'too_many_attempts'
  // DPoP (RFC 9449 §7.1, §8).
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  // JAR (RFC 9101 §6.2).
  | 'invalid_request_object'
  // Multi-factor authentication (authentication-api-wire-notes §5.1, §13).
  | 'mfa_required'
  | 'expired_token'
  | 'unsupported_challenge_type'
  | 'association_required'
  // The push device API (README "MFA by push notification").
  | 'invalid_token'
  // Polling grants (RFC 8628 §3.5; OpenID CIBA §11).
  | 'authorization_pending'
  | 'slow_down'
  // CIBA's refusal of its login_hint (authentication-api-wire-notes §12).
  | 'unknown_user_id'
  // Cross-origin authentication, POST /co/authenticate (authentication-api-wire-notes §15).
  | 'unsupported_credential_type'
  | 'blocked_user'
  // Authorization error responses (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6), sent to the client's redirect target.
  | 'unsupported_response_type'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required';

export class OAuthError extends HttpError {
  constructor(
    statusCode: number,
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(statusCode, `${error}: ${description}`);
    this.name = 'OAuthError';
  }

  body(): Record<string, unknown> {
    return { error: this.error, error_description: this.description };
  }
}

const REQUEST_TIMEOUT = 'The request was not received in time';
const HEADERS_TOO_LARGE = 'The request header fields are too large';
const MALFORMED_REQUEST = 'The request is not valid HTTP/1.1';

export const managementErrors = {
  missingAuthentication: () =>
    new ManagementError(401, 'Missing authentication').withHeader('WWW-Authenticate', 'Bearer'),
  badAuthorizationHeader: () => new ManagementError(400, 'Bad HTTP authentication header format', 'Bearer'),
  invalidToken: (message = 'Invalid token') =>
    new ManagementError(401, message, undefined, { error: message }).withHeader(
      'WWW-Authenticate',
      `Bearer error="${message}"`,
    ),
  expiredToken: () => managementErrors.invalidToken('Expired token received for JSON Web Token validation'),
  insufficientScope: (anyOf: readonly string[]) =>
    new ManagementError(403, `Insufficient scope, expected any of: ${anyOf.join(', ')}`, 'insufficient_scope'),
  /** An operation that needs several scopes at once (POST /keys/signing/rotate: create and update). */
  insufficientScopes: (allOf: readonly string[]) =>
    new ManagementError(403, `Insufficient scope; expected ${allOf.join(' and ')}.`, 'insufficient_scope'),
  /**
   * A user token acting on another user: the service's 403 text (OpenAPI,
   * GET /users-by-email and the `*:current_user*` operations); its errorCode
   * is not recorded, `insufficient_scope` is the closest of the family.
   */
  otherUser: () => new ManagementError(403, 'User to be acted on does not match subject in bearer token.', 'insufficient_scope'),
  notFound: (message = 'Not Found', errorCode?: ManagementErrorCode) => new ManagementError(404, message, errorCode),
  badRequest: (message: string, errorCode?: ManagementErrorCode) => new ManagementError(400, message, errorCode),
  invalidBody: (message: string) => new ManagementError(400, message, 'invalid_body'),
  conflict: (message: string, errorCode: ManagementErrorCode = 'conflict') => new ManagementError(409, message, errorCode),
  /**
   * Offset paging past the first `limit` records of GET /users (recorded from
   * the service in auth0/auth0.net#979 and auth0/node-auth0#1246).
   */
  /**
   * Offset paging past a list's window where the service answers so (its OpenAPI
   * document's 400 "Requesting page exceeds the allowed maximum of 1000 records").
   */
  checkpointPagingRequired: (limit: number) =>
    new ManagementError(400, `Requesting page exceeds the allowed maximum of ${limit} records`, 'invalid_paging'),
  pagingLimit: (limit: number) =>
    new ManagementError(
      400,
      `You can only page through the first ${limit} records. See https://auth0.com/docs/users/search/v3/view-search-results-by-page#limitation`,
      'invalid_paging',
    ),
  tooManyRequests: () => new ManagementError(429, 'Global limit has been reached', 'too_many_requests'),
  /** A write that would take an entity past its limit (src/management/entity-limits.ts words them). */
  entityLimitExceeded: (message: string) => new ManagementError(400, message, 'entity_limit_exceeded'),
  /** Connection-level refusals (./connections.ts), answered before Fastify sees a request. */
  requestTimeout: () => new ManagementError(408, REQUEST_TIMEOUT),
  headersTooLarge: () => new ManagementError(431, HEADERS_TOO_LARGE),
  malformedRequest: () => new ManagementError(400, MALFORMED_REQUEST),
};

export const oauthErrors = {
  /** 400 unless an endpoint's wire notes say otherwise (404 for what a browser's login no longer has, 409 for an answered transaction). */
  invalidRequest: (description: string, status = 400) => new OAuthError(status, 'invalid_request', description),
  /**
   * An authorization request's refusal (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6): sent back to the
   * trusted redirect target at /authorize, 400 JSON at /oauth/par (RFC 9126 §2.3).
   */
  authorizationRequest: (error: OAuthErrorCode, description: string) => new OAuthError(400, error, description),
  /** JAR (RFC 9101 §6.2). */
  invalidRequestObject: (description: string) => new OAuthError(400, 'invalid_request_object', description),
  /** DPoP (RFC 9449 §7.1, §8): a proof refused, or one without the nonce the server asks for. */
  invalidDpopProof: (description: string) => new OAuthError(400, 'invalid_dpop_proof', description),
  useDpopNonce: (description: string) => new OAuthError(400, 'use_dpop_nonce', description),
  notFound: (description: string) => new OAuthError(404, 'not_found', description),
  /** A request that needed a server beyond this one (a text message, a push notification) that failed: 502. */
  serverError: (description = 'Internal Server Error', status = 500) => new OAuthError(status, 'server_error', description),
  /** A bearer token of the push device API (README "MFA by push notification"). */
  invalidToken: (description: string) => new OAuthError(401, 'invalid_token', description),
  unauthorized: (description: string) => new OAuthError(401, 'unauthorized', description),
  /** An mfa_token, device code (403) or the /mfa API's token (401) past its lifetime. */
  expiredToken: (description: string, status = 403) => new OAuthError(status, 'expired_token', description),
  /** Polling grants (RFC 8628 §3.5: 403 at the device code grant as the service answers; CIBA §11 and MFA push: 400). */
  authorizationPending: (description: string, status = 400) => new OAuthError(status, 'authorization_pending', description),
  slowDown: (description: string, status = 400) => new OAuthError(status, 'slow_down', description),
  /** CIBA's refusal of its login_hint (authentication-api-wire-notes §12). */
  unknownUserId: () => new OAuthError(400, 'unknown_user_id', 'User ID is malformed or unknown'),
  /** The /mfa API (wire notes §13). */
  unsupportedChallengeType: (description: string) => new OAuthError(400, 'unsupported_challenge_type', description),
  associationRequired: (description: string) => new OAuthError(400, 'association_required', description),
  /** Cross-origin authentication (wire notes §15). */
  unsupportedCredentialType: (description: string) => new OAuthError(400, 'unsupported_credential_type', description),
  blockedUser: () => new OAuthError(403, 'blocked_user', 'user is blocked'),
  /** A request body past the Authentication API's limit. */
  bodyTooLarge: () => new OAuthError(413, 'invalid_request', 'Request body too large'),
  /** Password hashing is saturated (platform/passwords/hashing.ts). */
  hashingBusy: () => new OAuthError(429, 'too_many_requests', 'Too many logins in progress; retry shortly'),
  /** Parameter size limits (src/authentication/parameter-limits.ts). */
  parameterTooLong: (name: string, maxBytes: number) =>
    new OAuthError(400, 'invalid_request', `Parameter ${name} is too long (at most ${maxBytes} bytes)`),
  parameterNameTooLong: (maxBytes: number) =>
    new OAuthError(400, 'invalid_request', `A parameter name is too long (at most ${maxBytes} bytes)`),
  tooManyParameters: (max: number) => new OAuthError(400, 'invalid_request', `Too many parameters (at most ${max})`),
  unsupportedGrantType: (grantType: string) =>
    new OAuthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`),
  /** Wrong or missing client secret (authentication-api-wire-notes §5.1). */
  clientUnauthorized: () => new OAuthError(401, 'access_denied', 'Unauthorized'),
  invalidClient: (description: string) => new OAuthError(401, 'invalid_client', description),
  unauthorizedClient: (description: string, status = 403) => new OAuthError(status, 'unauthorized_client', description),
  /** 403; 400 where a polling grant reports the user's refusal (CIBA §11, MFA push). */
  accessDenied: (description: string, status = 403) => new OAuthError(status, 'access_denied', description),
  invalidScope: (description: string) => new OAuthError(403, 'invalid_scope', description),
  /** Refused user credentials or grants (authentication-api-wire-notes §5.1: 403, not RFC 6749's 400). */
  invalidGrant: (description: string) => new OAuthError(403, 'invalid_grant', description),
  /** A user blocked by an administrator (wire notes §5.1 "Other token-endpoint errors"). */
  userBlocked: () => new OAuthError(401, 'unauthorized', 'user is blocked'),
  /** Brute-force protection (wire notes §1.5, attack-protection 429s). */
  tooManyAttempts: () =>
    new OAuthError(
      429,
      'too_many_attempts',
      "Your account has been blocked after multiple consecutive login attempts. We've sent you an email with instructions on how to unblock it.",
    ),
  tooManyRequests: () =>
    new OAuthError(
      429,
      'too_many_requests',
      'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.',
    ),
  requestTimeout: () => new OAuthError(408, 'invalid_request', REQUEST_TIMEOUT),
  headersTooLarge: () => new OAuthError(431, 'invalid_request', HEADERS_TOO_LARGE),
  malformedRequest: () => new OAuthError(400, 'invalid_request', MALFORMED_REQUEST),
};
