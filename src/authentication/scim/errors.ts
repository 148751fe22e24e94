/**
 * SCIM's error response (RFC 7644 §3.12): `{schemas: [Error], status:
 * "400", scimType?, detail}` as application/scim+json. SCIM's own refusals
 * throw a `ScimError`; what the framework or shared code throws on these
 * routes (a body too large, JSON that does not parse: an OAuthError) is
 * rendered in the same shape by the routes' `renderError`, `scimShape`.
 */
import type { FastifyError, FastifyReply } from 'fastify';
import { HttpError } from '../../platform/http/errors.js';
import type { ErrorRenderer } from '../../platform/http/error-rendering.js';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_MEDIA_TYPE = 'application/scim+json';
/** A SCIM request's body may be this large (the bound; the server's default too). */
export const MAX_BODY_BYTES = 1_048_576;

/** RFC 7644 §3.12 Table 9. */
export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

export class ScimError extends HttpError {
  constructor(
    statusCode: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(statusCode, detail);
    this.name = 'ScimError';
  }

  body(): Record<string, unknown> {
    return { schemas: [SCIM_ERROR_SCHEMA], status: String(this.statusCode), ...(this.scimType !== undefined && { scimType: this.scimType }), detail: this.detail };
  }

  override respond(reply: FastifyReply): FastifyReply {
    return reply.code(this.statusCode).type(`${SCIM_MEDIA_TYPE}; charset=utf-8`).send(this.body());
  }
}

export const scimErrors = {
  unauthorized: (detail = 'A valid bearer token of this connection is required') => new ScimError(401, detail).withHeader('WWW-Authenticate', 'Bearer realm="SCIM"'),
  forbidden: (detail: string) => new ScimError(403, detail),
  notFound: (detail = 'Resource not found') => new ScimError(404, detail),
  invalidFilter: (detail: string) => new ScimError(400, detail, 'invalidFilter'),
  invalidValue: (detail: string) => new ScimError(400, detail, 'invalidValue'),
  invalidSyntax: (detail: string) => new ScimError(400, detail, 'invalidSyntax'),
  invalidPath: (detail: string) => new ScimError(400, detail, 'invalidPath'),
  noTarget: (detail: string) => new ScimError(400, detail, 'noTarget'),
  mutability: (detail: string) => new ScimError(400, detail, 'mutability'),
  uniqueness: (detail: string) => new ScimError(409, detail, 'uniqueness'),
  tooLarge: (detail: string) => new ScimError(413, detail),
};

/** An OAuthError raised on a SCIM route (the body limit, unparsable JSON), in SCIM's shape. */
export const scimShape: ErrorRenderer = (error, reply) =>
  new ScimError(error.statusCode, error.description, error.statusCode === 400 ? 'invalidSyntax' : undefined).respond(reply);

/**
 * The framework's own refusals on a SCIM route (body too large, JSON that
 * does not parse, a media type it does not take) and unexpected errors as
 * SCIM errors, before the one error handler answers them.
 */
export function scimFrameworkError(error: FastifyError, log: (error: unknown) => void): Error {
  if (error instanceof HttpError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return scimErrors.tooLarge(`The body is larger than ${MAX_BODY_BYTES} bytes`);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return scimErrors.invalidSyntax('The body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ScimError(415, `The body must be ${SCIM_MEDIA_TYPE} or application/json`);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return new ScimError(error.statusCode, 'The request cannot be taken');
  // Anything else is ours: logged with its stack, answered in SCIM's shape without detail.
  log(error);
  return new ScimError(500, 'Internal Server Error');
}
