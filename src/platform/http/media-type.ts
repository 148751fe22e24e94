/**
 * The media type of a request's body, parsed once per request. Type and
 * subtype are case-insensitive (RFC 9110 section 8.3.1): Fastify picks its
 * body parser on the lower-cased type, so every check of "which parser read
 * this body" must compare the same lower-cased essence, never the raw header
 * (`Application/X-WWW-Form-Urlencoded` is a form body like any other).
 */
import type { FastifyRequest } from 'fastify';

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
export const JSON_MEDIA_TYPE = 'application/json';
export const MULTIPART_MEDIA_TYPE = 'multipart/form-data';

const parsed = new WeakMap<FastifyRequest, string | undefined>();

/** `type/subtype` of a Content-Type header value, lower case, without parameters; undefined when absent or empty. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const essence = header.split(';', 1)[0]!.trim().toLowerCase();
  return essence === '' ? undefined : essence;
}

/** The request's body media type (see mediaTypeOf), read from its header once. */
export function requestMediaType(request: FastifyRequest): string | undefined {
  if (parsed.has(request)) return parsed.get(request);
  const header = request.headers['content-type'];
  const type = mediaTypeOf(typeof header === 'string' ? header : undefined);
  parsed.set(request, type);
  return type;
}
