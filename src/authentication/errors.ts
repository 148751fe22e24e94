/**
 * The Authentication API's answers that are not JSON, as error families on
 * the platform's HttpError, so every refusal still goes through the one error
 * handler (src/platform/http/error-handler.ts):
 *
 * - PageError: a hosted page (HTML, the pages' CSP), for a failure that must
 *   not redirect: the redirect target is not trusted yet, the login's
 *   transaction is gone, a form did not verify, a form to show again with its
 *   error;
 * - AuthorizationErrorResponse: an authorization error (RFC 6749 §4.1.2.1,
 *   OIDC Core §3.1.2.6) sent back to the client's trusted redirect target
 *   through the request's response mode;
 * - BearerRefusal: a resource's 401 with `WWW-Authenticate: Bearer …` and the
 *   service's plain `Unauthorized` body (/userinfo, wire notes §1.4).
 */
import type { FastifyReply } from 'fastify';
import { HttpError, OAuthError, type OAuthErrorCode } from '../platform/http/errors.js';
import type { ResponseTarget } from './authorize/response-target.js';
import { sendAuthorizationResponse } from './authorize/response-modes/index.js';
import { authorizeErrorPage, invalidLoginPage, refusedLoginPage } from './pages/authorize.js';
import { sendPage, type PageDocument } from './pages/html.js';
import { logoutErrorPage } from './pages/logout.js';

export class PageError extends HttpError {
  constructor(
    statusCode: number,
    readonly content: PageDocument,
    /** Origins the page's forms may be redirected to (see sendPage). */
    readonly formRedirects: readonly string[] = [],
  ) {
    super(statusCode, `page ${statusCode}`);
    this.name = 'PageError';
  }

  body(): Record<string, unknown> {
    return {};
  }

  override respond(reply: FastifyReply): Promise<FastifyReply> {
    return sendPage(reply, this.statusCode, this.content, this.formRedirects);
  }
}

export const pageErrors = {
  /** The client or redirect_uri of /authorize cannot be trusted: a page, never a redirect. */
  authorize: (message: string) => new PageError(400, authorizeErrorPage(message)),
  /** A hosted page's query or form that cannot be read (a repeated or structured parameter). */
  invalidParameter: (message: string) => new PageError(400, authorizeErrorPage(message)),
  /** The login's transaction is unknown, expired, spent, or another browser's. */
  expiredTransaction: () => new PageError(400, invalidLoginPage()),
  /** A form post whose CSRF token does not verify. */
  refusedForm: () => new PageError(403, refusedLoginPage()),
  /** A logout whose return URL or hint cannot be trusted. */
  logout: (message: string) => new PageError(400, logoutErrorPage(message)),
};

/** The `error` values of authorization responses. */
export type AuthorizationErrorCode = Extract<
  OAuthErrorCode,
  'invalid_request' | 'unauthorized_client' | 'access_denied' | 'unsupported_response_type' | 'invalid_scope' | 'server_error' | 'login_required' | 'consent_required' | 'interaction_required'
>;

export class AuthorizationErrorResponse extends HttpError {
  constructor(
    readonly error: AuthorizationErrorCode,
    readonly description: string,
    readonly request: ResponseTarget,
  ) {
    super(302, `${error}: ${description}`);
    this.name = 'AuthorizationErrorResponse';
  }

  body(): Record<string, unknown> {
    return { error: this.error, error_description: this.description };
  }

  override respond(reply: FastifyReply): FastifyReply {
    return sendAuthorizationResponse(reply, this.request, { error: this.error, error_description: this.description });
  }
}

/** How a refused resource request is challenged: the DPoP scheme and its errors (RFC 9449 §7.1) besides Bearer's. */
export interface ChallengeOptions {
  scheme?: 'Bearer' | 'DPoP';
  error?: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';
  /** `DPoP-Nonce` to send with the challenge. */
  nonce?: string;
  /** The DPoP scheme's `algs` parameter. */
  algs?: readonly string[];
}

export class BearerRefusal extends HttpError {
  /** `description` undefined: no token was presented (RFC 6750 §3.1: a challenge without an error code). */
  constructor(
    readonly description?: string,
    readonly challenge: ChallengeOptions = {},
  ) {
    super(401, description ?? 'missing token');
    this.name = 'BearerRefusal';
  }

  body(): Record<string, unknown> {
    return {};
  }

  override respond(reply: FastifyReply): FastifyReply {
    const { scheme = 'Bearer', error = 'invalid_token', nonce, algs } = this.challenge;
    const parts = [`${scheme} realm="Users"`];
    if (this.description !== undefined) parts.push(`error="${error}"`, `error_description="${this.description.replace(/["\\]/g, '')}"`);
    if (algs) parts.push(`algs="${algs.join(' ')}"`);
    if (nonce !== undefined) reply.header('DPoP-Nonce', nonce);
    return reply.code(401).header('WWW-Authenticate', parts.join(', ')).header('Content-Type', 'text/plain').send('Unauthorized');
  }
}

/** One factor of `mfa_requirements` (wire notes §5.1). */
export interface MfaRequirement {
  type: string;
}

/**
 * 403 `mfa_required` with the `mfa_token` that continues the login and what
 * the user may use or must enrol (wire notes §5.1, §16 item 1: 403, not the
 * OpenAPI example's 401).
 */
export class MfaRequiredError extends OAuthError {
  constructor(
    readonly mfaToken: string,
    readonly requirements: { challenge: MfaRequirement[] } | { enroll: MfaRequirement[] },
  ) {
    super(403, 'mfa_required', 'Multifactor authentication required');
  }

  override body(): Record<string, unknown> {
    return { ...super.body(), mfa_token: this.mfaToken, mfa_requirements: this.requirements };
  }
}

/** The dotted `error` codes of /passwordless/start (wire notes §1.4 family 3). */
export type PasswordlessErrorCode = 'bad.connection' | 'bad.client_id' | 'bad.email' | 'bad.phone_number' | 'bad.authParams' | 'bad.request' | 'bad.send' | 'sms_provider_error';

/** /passwordless/start's refusals: `{error: "bad.connection", error_description}`, 400. */
export class PasswordlessError extends HttpError {
  constructor(
    readonly error: PasswordlessErrorCode,
    readonly description: string,
  ) {
    super(400, `${error}: ${description}`);
    this.name = 'PasswordlessError';
  }

  body(): Record<string, unknown> {
    return { error: this.error, error_description: this.description };
  }
}
