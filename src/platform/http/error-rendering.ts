/**
 * Who decides how an error looks: the endpoint, not the error's class (as
 * node-oidc-provider's lib/shared/authorization_error_handler.js decides for
 * the authorization endpoints). Shared code throws one `OAuthError` with a
 * code of the closed set (./errors.ts, made by its factories); the one error
 * handler (./error-handler.ts) renders it with, in order:
 *
 * 1. the renderer the request's handling chose as it went (the /authorize
 *    stages: an error page until the redirect target is trusted, then the
 *    authorization error response to it; src/authentication/error-rendering.ts);
 * 2. the route's (`config.renderError`);
 * 3. the surface's: the Management API's shape under /api/v2
 *    (`{statusCode, error, message}`), OAuth JSON (`{error,
 *    error_description}`) elsewhere.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ManagementError, type OAuthError } from './errors.js';

/** Writes an OAuthError as the endpoint answers errors (headers already set by the error handler). */
export type ErrorRenderer = (error: OAuthError, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route renders an OAuthError (default: its surface's shape). */
    renderError?: ErrorRenderer;
  }
}

const chosen = new WeakMap<FastifyRequest, ErrorRenderer>();

/** From here on, errors of this request are rendered by `renderer`. */
export function renderErrorsWith(request: FastifyRequest, renderer: ErrorRenderer): void {
  chosen.set(request, renderer);
}

/**
 * Runs `work` with this request's errors rendered by `renderer`; once it
 * succeeds the earlier choice holds again (an error thrown by `work` keeps
 * `renderer`, for the error handler).
 */
export async function renderingErrorsWith<T>(request: FastifyRequest, renderer: ErrorRenderer, work: () => Promise<T>): Promise<T> {
  const before = chosen.get(request);
  chosen.set(request, renderer);
  const result = await work();
  if (before === undefined) chosen.delete(request);
  else chosen.set(request, before);
  return result;
}

/** OAuth JSON (RFC 6749 §5.2): `{error, error_description}` and the error's status. */
export const oauthJson: ErrorRenderer = (error, reply) => error.respond(reply);

/** The Management API's shape (management-api-wire-notes §2): the error's status and description. */
export const managementShape: ErrorRenderer = (error, reply) => new ManagementError(error.statusCode, error.description).respond(reply);

/** The renderer of an OAuthError on this request (see the file comment). */
export function errorRendererOf(request: FastifyRequest, surface: 'management' | 'authentication'): ErrorRenderer {
  return chosen.get(request) ?? request.routeOptions.config?.renderError ?? (surface === 'management' ? managementShape : oauthJson);
}
