/**
 * Parameters of Authentication API POST endpoints: a JSON or form body whose
 * members are single strings (RFC 6749 §3.2: parameters must not repeat).
 */
import type { FastifyRequest } from 'fastify';
import { oauthErrors } from '../platform/http/errors.js';

export type Params = Readonly<Record<string, string>>;

export function readParams(request: FastifyRequest): Params {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw oauthErrors.invalidRequest('The request body must be a JSON object or a form');
  }
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) throw oauthErrors.invalidRequest(`Parameter ${name} must not be repeated`);
    if (typeof value === 'string') params[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') params[name] = String(value);
    else throw oauthErrors.invalidRequest(`Parameter ${name} must be a string`);
  }
  return params;
}

export function requireParams(params: Params, ...names: string[]): void {
  for (const name of names) {
    if (!params[name]) throw oauthErrors.invalidRequest(`Missing required parameter: ${name}`);
  }
}
