/**
 * The one place where errors become response bodies. An OAuthError thrown by
 * any code is rendered as the endpoint answers errors (./error-rendering.ts);
 * the framework's own errors and the rest get their surface's family:
 * everything under /api/v2 is the Management API, the rest is the
 * Authentication API. Internal detail goes to the log only.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { HashingBusy } from '../passwords/hashing.js';
import { HttpError, ManagementError, OAuthError, oauthErrors } from './errors.js';
import { errorRendererOf } from './error-rendering.js';
import { VALIDATION_ERROR_CODE, validationMessage } from './validation.js';

export type Surface = 'management' | 'authentication';

export function surfaceOf(url: string): Surface {
  return url === '/api/v2' || url.startsWith('/api/v2/') || url.startsWith('/api/v2?') ? 'management' : 'authentication';
}

type Part = 'body' | 'querystring' | 'params' | 'headers';

/** Maps framework errors (parsing, validation, limits) onto the surface's family. */
function translate(error: FastifyError, surface: Surface): HttpError | undefined {
  if (error.validation) {
    const part = (error.validationContext ?? 'body') as Part;
    const first = error.validation[0] as ErrorObject | undefined;
    const message = first ? validationMessage(first, part) : 'Validation error';
    return surface === 'management'
      ? new ManagementError(400, message, VALIDATION_ERROR_CODE[part])
      : oauthErrors.invalidRequest(message);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return surface === 'management'
        ? new ManagementError(400, 'Invalid request payload JSON format')
        : oauthErrors.invalidRequest('Invalid request payload JSON format');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return surface === 'management'
        ? new ManagementError(415, 'Unsupported Media Type')
        : oauthErrors.invalidRequest('Content-Type must be application/json or application/x-www-form-urlencoded');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return surface === 'management'
        ? new ManagementError(413, 'Payload content length greater than maximum allowed: 1048576')
        : oauthErrors.bodyTooLarge();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return surface === 'management'
        ? new ManagementError(400, 'Invalid request payload')
        : oauthErrors.invalidRequest('Invalid request payload');
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return surface === 'management'
      ? new ManagementError(error.statusCode, error.statusCode === 404 ? 'Not Found' : 'Bad Request')
      : oauthErrors.invalidRequest(error.message, error.statusCode);
  }
  if (error instanceof HashingBusy) {
    // Password hashing is saturated (platform/passwords/hashing.ts): refused at once, try again shortly.
    const busy =
      surface === 'management'
        ? new ManagementError(429, 'Too many password operations in progress; retry shortly', 'too_many_requests')
        : oauthErrors.hashingBusy();
    return busy.withHeader('Retry-After', '1');
  }
  return undefined;
}

/**
 * The same bodies for errors answered on the raw socket, before Fastify has a
 * request (./connections.ts): a complete HTTP/1.1 response that closes the
 * connection; `withBody` false for HEAD (RFC 9110 §9.3.2), or where the
 * method is not known.
 */
export function rawErrorResponse(http: HttpError, surface: Surface, withBody: boolean): string {
  const body = withBody ? JSON.stringify(http.body()) : '';
  const lines = [
    `HTTP/1.1 ${http.statusCode} ${STATUS_CODES[http.statusCode] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(http.headers).map(([name, value]) => `${name}: ${value}`),
    ...(surface === 'authentication' ? ['Cache-Control: no-store'] : []),
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The error code each failed reply was answered with (for the request's log line), kept as long as the reply. */
const failureCodes = new WeakMap<FastifyReply, string>();

/** The error code a reply was answered with: the Management API's `errorCode` (else `error`), the OAuth `error`. */
export function failureCode(reply: FastifyReply): string | undefined {
  return failureCodes.get(reply);
}

function codeOf(http: HttpError): string | undefined {
  const body = http.body() as { errorCode?: unknown; error?: unknown };
  const code = body.errorCode ?? body.error;
  return typeof code === 'string' ? code : undefined;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
  const surface = surfaceOf(request.url);
  let http: HttpError | undefined = error instanceof HttpError ? error : translate(error, surface);
  if (!http) {
    request.log.error({ err: error }, 'unhandled error');
    http =
      surface === 'management'
        ? new ManagementError(500, 'Internal Server Error')
        : oauthErrors.serverError();
  } else if (http.statusCode >= 500) {
    request.log.error({ err: error }, 'server error');
  }
  const code = codeOf(http);
  if (code !== undefined) failureCodes.set(reply, code);
  for (const [name, value] of Object.entries(http.headers)) reply.header(name, value);
  if (surface === 'authentication') reply.header('Cache-Control', 'no-store');
  // An error thrown as OAuthError is rendered by the endpoint; one the framework raised keeps its surface's shape.
  if (error instanceof OAuthError) return errorRendererOf(request, surface)(error, reply);
  return http.respond(reply);
}
