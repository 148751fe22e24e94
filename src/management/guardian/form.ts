/**
 * Form bodies (`application/x-www-form-urlencoded`, which the service accepts
 * beside JSON) carry every value as a string, so `sandbox=true` arrives as
 * "true". Booleans are converted for form bodies only, before validation;
 * JSON bodies are never coerced (STYLE 6), so `{"sandbox":"true"}` is still
 * refused with the validator's type error.
 */
import type { TObject } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isRecord } from '../route.js';

const FORM = 'application/x-www-form-urlencoded';

function isForm(request: FastifyRequest): boolean {
  const contentType = request.headers['content-type'];
  return typeof contentType === 'string' && contentType.split(';')[0]?.trim().toLowerCase() === FORM;
}

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
    if (!isForm(request)) return;
    const fields = request.body;
    if (!isRecord(fields)) return;
    for (const name of booleans) {
      if (fields[name] === 'true') fields[name] = true;
      else if (fields[name] === 'false') fields[name] = false;
    }
  };
}
