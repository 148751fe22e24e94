/**
 * The one parameter reader of the Authentication API: query strings, JSON
 * bodies and form bodies (the hosted pages' posts among them) all become
 * single-string parameters the same way.
 *
 * Each endpoint (or grant) names the parameters it reads, as node-oidc-provider's
 * handlers declare `parameters`: `pick` keeps those and ignores the rest
 * (telemetry such as `auth0Client`, parameters of other flows), and refuses a
 * named parameter sent more than once (RFC 6749 §3.1, §3.2: "Request and
 * response parameters MUST NOT be included more than once"). Values are
 * strings; a JSON number or boolean is taken as its text, anything else is
 * refused. Sizes were already bounded by ./parameter-limits.ts.
 */
import type { FastifyRequest } from 'fastify';
import { oauthErrors } from '../platform/http/errors.js';
import { pageErrors } from './errors.js';

export type Params = Readonly<Record<string, string>>;

/** Every parameter of a request part, before an endpoint picks the ones it reads. */
export interface RawParams {
  values: Readonly<Record<string, string>>;
  /** Names given more than once. */
  repeated: ReadonlySet<string>;
  /** Names given a value that is not a string (an object, or an array of non-strings in JSON). */
  malformed: ReadonlySet<string>;
}

const EMPTY: RawParams = { values: {}, repeated: new Set(), malformed: new Set() };

function collect(source: object): RawParams {
  const values: Record<string, string> = {};
  const repeated = new Set<string>();
  const malformed = new Set<string>();
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') values[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') values[name] = String(value);
    else if (Array.isArray(value)) {
      repeated.add(name);
      if (typeof value[0] === 'string') values[name] = value[0];
    } else malformed.add(name);
  }
  return { values, repeated, malformed };
}

/** The parameters of a JSON or form body; no body is no parameters. */
export function readBody(request: FastifyRequest): RawParams {
  const body = request.body;
  if (body === undefined || body === null) return EMPTY;
  if (typeof body !== 'object' || Array.isArray(body)) throw oauthErrors.invalidRequest('The request body must be a JSON object or a form');
  return collect(body);
}

/** The parameters of the query string. */
export function readQuery(request: FastifyRequest): RawParams {
  const query = request.query;
  return query !== null && typeof query === 'object' ? collect(query) : EMPTY;
}

/** The parameters of a GET's query or of a POST's body (endpoints that take either, e.g. /oidc/logout). */
export function readQueryOrBody(request: FastifyRequest): RawParams {
  return request.method === 'POST' ? readBody(request) : readQuery(request);
}

/**
 * The parameters `names`, each at most once; the others are ignored. A
 * repeated or structured one is refused with `refuse(message)`: the JSON
 * `invalid_request` by default, a page for the hosted pages.
 */
export function pick(raw: RawParams, names: Iterable<string>, refuse: (message: string) => Error = oauthErrors.invalidRequest): Params {
  const params: Record<string, string> = {};
  for (const name of names) {
    if (raw.malformed.has(name)) throw refuse(`Parameter ${name} must be a string`);
    if (raw.repeated.has(name)) throw refuse(`Parameter ${name} must not be repeated`);
    const value = raw.values[name];
    if (value !== undefined) params[name] = value;
  }
  return params;
}

export function requireParams(params: Params, ...names: string[]): void {
  for (const name of names) {
    if (!params[name]) throw oauthErrors.invalidRequest(`Missing required parameter: ${name}`);
  }
}

/**
 * The parameters `names` of a hosted page's query (GET) or form (POST); a
 * repeated or structured one gets an error page (default: the generic one).
 */
export function pageParams(request: FastifyRequest, names: readonly string[], refuse: (message: string) => Error = pageErrors.invalidParameter): Params {
  return pick(readQueryOrBody(request), names, refuse);
}
