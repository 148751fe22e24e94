/**
 * The application/json body parser of both surfaces: Fastify's own (which
 * refuses `__proto__` and `constructor.prototype` members), behind a scan
 * that measures how deeply the text nests before anything recurses over it.
 *
 * A body nested thousands of levels deep is a few kilobytes, well inside the
 * body limit, yet every recursive walk of the parsed value (validation,
 * cloning, serialisation) could exhaust the stack and answer 500. No request
 * of either API needs more than a handful of levels (the deepest documented
 * shapes, client addons and connection options, stay under ten), so a body
 * nested deeper than MAX_JSON_DEPTH is refused with the surface's 400 before
 * it is parsed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { surfaceOf } from './error-handler.js';
import { managementErrors, oauthErrors, type HttpError } from './errors.js';
import { nulRefusal } from './nul-characters.js';

/** Arrays and objects may nest this many levels (the top-level value is level 1). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * What one pass over a JSON text finds, without recursion: whether it nests
 * arrays and objects deeper than `limit` (brackets inside strings do not
 * count), and whether a string carries the `\u0000` escape (./nul-characters.ts).
 * The text need not be valid JSON: the parser judges that afterwards.
 */
export function scanJson(text: string, limit: number): 'too_deep' | 'nul' | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) {
        if (text.startsWith('u0000', i + 1)) return 'nul';
        i++;
      } else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return 'too_deep';
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return undefined;
}


function tooDeep(request: FastifyRequest): HttpError {
  return surfaceOf(request.url) === 'management'
    ? managementErrors.invalidBody(`Payload validation error: 'JSON nesting depth exceeds the maximum of ${MAX_JSON_DEPTH}'.`)
    : oauthErrors.invalidRequest(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
}

/** Replaces Fastify's application/json parser with the depth-checked one. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const found = scanJson(text, MAX_JSON_DEPTH);
    if (found !== undefined) {
      done(found === 'too_deep' ? tooDeep(request) : nulRefusal(request.url, 'body'), undefined);
      return;
    }
    parse(request, text, done);
  });
}
