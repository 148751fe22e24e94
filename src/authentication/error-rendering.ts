/**
 * How the browser-facing endpoints of the authorization-request family
 * render an OAuthError (the rule: src/platform/http/error-rendering.ts), as
 * node-oidc-provider's authorization_error_handler does:
 *
 * - until the client and its redirect target are trusted, an error page
 *   (RFC 6749 §4.1.2.1: redirecting then would make an open redirector);
 * - from then on, the authorization error response (RFC 6749 §4.1.2.1, OIDC
 *   Core §3.1.2.6) sent to the redirect target through the request's
 *   response mode, with its `state`.
 *
 * /authorize's stages choose them as they go (./authorize/stages.ts); the
 * interaction policy answers its requests' errors to their targets
 * (./interaction/policy.ts). The back-channel endpoints of the family keep
 * OAuth JSON.
 */
import type { FastifyRequest } from 'fastify';
import type { OAuthError } from '../platform/http/errors.js';
import { renderErrorsWith, renderingErrorsWith, type ErrorRenderer } from '../platform/http/error-rendering.js';
import type { ResponseTarget } from './authorize/response-target.js';
import { sendAuthorizationResponse } from './authorize/response-modes/index.js';
import { authorizeErrorPage } from './pages/authorize.js';
import { sendPage } from './pages/html.js';

/** What the page says: the description, with the kind of a request object's refusal named. */
function pageMessage(error: OAuthError): string {
  return error.error === 'invalid_request_object' ? `Invalid request object: ${error.description}` : error.description;
}

/** The error page of an untrusted authorization request: 400, no Location. */
export const authorizeErrorPageRenderer: ErrorRenderer = (error, reply) => sendPage(reply, 400, authorizeErrorPage(pageMessage(error)));

/** The authorization error response to a trusted target. */
export function authorizationErrorRenderer(target: ResponseTarget): ErrorRenderer {
  return (error, reply) => sendAuthorizationResponse(reply, target, { error: error.error, error_description: error.description });
}

/** This request's errors are an error page from here on. */
export function answerErrorsWithPage(request: FastifyRequest): void {
  renderErrorsWith(request, authorizeErrorPageRenderer);
}

/** This request's errors go back to the (trusted) target from here on. */
export function answerErrorsTo(request: FastifyRequest, target: ResponseTarget): void {
  renderErrorsWith(request, authorizationErrorRenderer(target));
}

/** Errors thrown by `work` go back to the target; after it, the request's earlier choice holds. */
export function answeringErrorsTo<T>(request: FastifyRequest, target: ResponseTarget, work: () => Promise<T>): Promise<T> {
  return renderingErrorsWith(request, authorizationErrorRenderer(target), work);
}
