/**
 * Form bodies (`application/x-www-form-urlencoded`, which the service accepts
 * beside JSON) carry every value as a string, so `sandbox=true` arrives as
 * "true". Booleans are converted for form bodies only, before validation;
 * JSON bodies are never coerced (STYLE 6), so `{"sandbox":"true"}` is still
 * refused with the validator's type error.
 */
import type { TObject } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { FORM_MEDIA_TYPE, requestMediaType } from '../../platform/http/media-type.js';
import { isRecord } from '../route.js';

/**
 * A preValidation hook turning the exact strings "true" and "false" into
 * booleans for the boolean properties of `body`. Anything else is left for
 * the validator to refuse.
 */
export function coerceFormBooleans(body: TObject): (request: FastifyRequest) => Promise<void> {
  const booleans = Object.entries(body.properties)
    .filter(([, schema]) => schema.type === 'boolean')
    .map(([name]) => name);
  return async function coerceFormBooleans(request) {
    if (requestMediaType(request) !== FORM_MEDIA_TYPE) return;
    const fields = request.body;
    if (!isRecord(fields)) return;
    for (const name of booleans) {
      if (fields[name] === 'true') fields[name] = true;
      else if (fields[name] === 'false') fields[name] = false;
    }
  };
}
