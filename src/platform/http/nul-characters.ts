/**
 * No string with a NUL character (U+0000) reaches a handler, on either
 * surface. PostgreSQL cannot store one in a text column (it answers an error
 * that would be a 500), SQLite would cut C strings at it, and no identifier,
 * name or parameter of either API has a use for it. JSON bodies are checked
 * while their text is scanned (./json-body.ts: the `\u0000` escape, the only
 * way JSON can carry the character); query strings, path parameters and every
 * other parsed body (forms), which are already decoded, by the preValidation
 * hook below, whatever the letter case of their Content-Type (./media-type.ts):
 * the parser was chosen case-insensitively, so the check must be too. The
 * multipart user import checks its own parts (management/jobs/users-imports.ts).
 * A refusal is the surface's 400 naming the part and, where known, the member.
 */
import type { FastifyRequest } from 'fastify';
import { surfaceOf } from './error-handler.js';
import { ManagementError, oauthErrors, type HttpError } from './errors.js';
import { JSON_MEDIA_TYPE, requestMediaType } from './media-type.js';

type Part = 'querystring' | 'params' | 'body';

const MANAGEMENT_PART: Record<Part, { prefix: string; code: 'invalid_query_string' | 'invalid_uri' | 'invalid_body' }> = {
  querystring: { prefix: 'Query', code: 'invalid_query_string' },
  params: { prefix: 'Path', code: 'invalid_uri' },
  body: { prefix: 'Payload', code: 'invalid_body' },
};

export function nulRefusal(url: string, part: Part, name?: string): HttpError {
  if (surfaceOf(url) === 'management') {
    const { prefix, code } = MANAGEMENT_PART[part];
    return new ManagementError(400, `${prefix} validation error: 'String contains a NUL character'${name === undefined ? '' : ` on property ${name}`}.`, code);
  }
  return oauthErrors.invalidRequest(name === undefined ? 'The request contains a NUL character' : `Parameter ${name} must not contain a NUL character`);
}

/** The name of the first member (at any depth, within the depth the body parser allows) holding a string with a NUL, if any. */
function memberWithNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 40) return undefined;
  for (const [key, member] of Object.entries(value)) {
    const name = Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return name;
    const found = memberWithNul(member, name, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** preValidation hook of the whole app: decoded query strings, path parameters and form bodies. */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  for (const part of ['params', 'querystring'] as const) {
    const name = memberWithNul(part === 'params' ? request.params : request.query, '');
    if (name !== undefined) throw nulRefusal(request.url, part, name);
  }
  // JSON bodies were checked as text; every other parsed body (forms) arrives decoded.
  if (request.body !== undefined && !Buffer.isBuffer(request.body) && requestMediaType(request) !== JSON_MEDIA_TYPE) {
    const name = memberWithNul(request.body, '');
    if (name !== undefined) throw nulRefusal(request.url, 'body', name);
  }
}
