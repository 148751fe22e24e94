/**
 * Request validation tuned for compatibility with the service (STYLE 6):
 * unknown body properties are rejected, types are coerced only in query
 * strings and paths, `allErrors` stays off, and messages follow the service's
 * format, whose inner texts are z-schema's (management-api-wire-notes §2):
 *
 *   Payload validation error: 'String is too long (141 chars), maximum 140' on property description (…).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Part = 'body' | 'querystring' | 'params' | 'headers';

const ajvOptions = {
  allErrors: false,
  verbose: true,
  strict: false,
  removeAdditional: false,
  useDefaults: false,
} as const;

/** `{organization_name}`-style placeholders and `*` wildcards stand for a plain label when URLs are checked. */
function withoutPlaceholders(value: string): string {
  return value.replace(/\{[a-z_.]+\}/gi, 'x').replace(/\*/g, 'x');
}

function parsesAsUrl(value: string, schemes?: readonly string[]): boolean {
  try {
    const url = new URL(withoutPlaceholders(value));
    return schemes === undefined || schemes.includes(url.protocol);
  } catch {
    return false;
  }
}

const HTTP = ['http:', 'https:'] as const;
const HTTPS = ['https:'] as const;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Where a browser may be sent, or called from: a client's `callbacks`,
 * `allowed_logout_urls`, `web_origins` and `allowed_origins` (the formats
 * `callback-url` and `url-with-placeholders`). The service's document names
 * these formats without defining them, and its documentation allows
 * subdomain wildcards (`https://*.example.com`), `{organization_name}`
 * placeholders, localhost for development and custom schemes for native apps;
 * it states no rule on schemes. Gatehouse's rule (RFC 9700 §2.1, RFC 8252
 * §7, §8.3):
 *
 * - `https:`; `http:` only for a loopback host (`localhost`, `127.0.0.1`,
 *   `[::1]`), as a cleartext redirect elsewhere exposes codes and tokens;
 * - a custom scheme for native apps (`com.example.app://callback`,
 *   `com.example.app:/callback`), with an authority or an absolute path,
 *   except the schemes that run script or reach local or browser-internal
 *   content when a browser is sent there (`javascript:`, `vbscript:`,
 *   `data:`, `file:`, `blob:`, `filesystem:`, `about:`);
 * - no fragment (RFC 6749 §3.1.2: responses are added to the query or the
 *   fragment; the service ignores hash information in these lists anyway)
 *   and no user information (`https://app.example.com@evil.example/`);
 * - `*` only as the whole first label of a host with at least two more
 *   (`https://*.example.com`), the only place the matchers give it meaning.
 */
const FORBIDDEN_SCHEMES: ReadonlySet<string> = new Set(['javascript:', 'vbscript:', 'data:', 'file:', 'blob:', 'filesystem:', 'about:']);
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A leading `*.` label followed by at least two labels, and no other `*`. */
const SUBDOMAIN_WILDCARD = /^[a-z][a-z0-9+.-]*:\/\/\*\.[^/?#*.]+\.[^*]*$/i;

function isBrowserUrl(value: string): boolean {
  if (value.includes('#')) return false;
  if (value.includes('*') && !SUBDOMAIN_WILDCARD.test(value)) return false;
  let url: URL;
  try {
    url = new URL(withoutPlaceholders(value));
  } catch {
    return false;
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol) || url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return /^[a-z][a-z0-9+.-]*:\//i.test(value);
}

/** The service's own formats, used by its schemas (names as in its OpenAPI document). */
export const SERVICE_FORMATS: Record<string, (value: string) => boolean> = {
  'absolute-uri-or-empty': (v) => v === '' || parsesAsUrl(v),
  'absolute-https-uri-or-empty': (v) => v === '' || (!/[{}*]/.test(v) && parsesAsUrl(v, HTTPS)),
  // initiate_login_uri and back-channel logout URLs: parameters are appended to them, never after a fragment.
  'absolute-https-uri-with-placeholders-or-empty': (v) => v === '' || (!v.includes('#') && parsesAsUrl(v, HTTPS)),
  'callback-url': isBrowserUrl,
  'url-with-placeholders': isBrowserUrl,
  url: (v) => parsesAsUrl(v, HTTP),
  'url-or-null': (v) => parsesAsUrl(v, HTTP),
  'ec-initiate-login-uri-template-url': (v) => parsesAsUrl(v, HTTPS),
  'organization-id': (v) => /^org_[A-Za-z0-9]{16}$/.test(v),
  'event-stream-id': (v) => /^est_[A-Za-z0-9]{22}$/.test(v),
  'event-id': (v) => /^evt_[A-Za-z0-9]{22}$/.test(v),
  'role-id': (v) => /^rol_[A-Za-z0-9]{16}$/.test(v),
  'client-id': (v) => ID.test(v),
  'connection-profile-id': (v) => ID.test(v),
  'user-attribute-profile-id': (v) => ID.test(v),
  'credential-id': (v) => ID.test(v),
  'email-or-empty': (v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  // An Authentication Context Class Reference (OIDC Core §2 `acr`): a URI or a plain token, no spaces.
  acr: (v) => /^[\x21-\x7e]+$/.test(v),
  cidr: (v) => /^(\d{1,3}\.){3}\d{1,3}\/(\d|[12]\d|3[0-2])$/.test(v),
  ipv6_cidr: (v) => /^[0-9a-f:]+\/(\d{1,2}|1[01]\d|12[0-8])$/i.test(v),
};

/**
 * `x-max-json-bytes`: the most UTF-8 bytes an object may take serialised as
 * JSON. JSON Schema has no keyword for the size of a value, and free-form
 * members (options, addons, configuration objects) would otherwise be bound
 * by the body limit alone. The body's nesting depth is bounded before it is
 * parsed (./json-body.ts), so serialising here cannot recurse deeply.
 */
export const MAX_JSON_BYTES_KEYWORD = 'x-max-json-bytes';

interface SizeCheck {
  (schema: number, data: unknown, parentSchema?: object): boolean;
  errors?: Partial<ErrorObject>[];
}

const maxJsonBytes: SizeCheck = (limit, data, parentSchema) => {
  const size = Buffer.byteLength(JSON.stringify(data), 'utf8');
  if (size <= limit) return true;
  // Ajv adds no parentSchema to a function keyword's errors; the message takes the description from it.
  maxJsonBytes.errors = [{ keyword: MAX_JSON_BYTES_KEYWORD, params: { limit, size }, ...(parentSchema && { parentSchema }) }];
  return false;
};

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (a: Ajv) => Ajv)(ajv);
  for (const [name, validate] of Object.entries(SERVICE_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  ajv.addKeyword({ keyword: MAX_JSON_BYTES_KEYWORD, type: 'object', schemaType: 'number', errors: true, validate: maxJsonBytes });
  return ajv;
}

const bodyAjv = withFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));
const queryAjv = withFormats(new Ajv({ ...ajvOptions, coerceTypes: 'array' }));

/**
 * Fastify validator compiler: no coercion for bodies, coercion for query
 * strings and paths. Each schema is compiled on the first request that
 * needs it, not at start-up: the Management API's schemas are many and
 * large, and compiling them all cost most of the start time and a large
 * part of the idle memory (a process that only issues tokens never needs
 * them). `compileEveryRouteSchema` (test/platform/http/lazy-schemas.test.ts)
 * compiles them all at once, so a bad schema still fails a test, not a
 * request.
 */
export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }): ValidateFunction {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  lazyCompilations.push(() => void (compiled ??= ajv.compile(schema)));
  return validate;
}

/** Every deferred compilation made so far (validators and serialisers), for `compileEveryRouteSchema`. */
const lazyCompilations: (() => void)[] = [];

/** Fastify serialiser compiler factory: the default one (fast-json-stringify), each schema built on first use. */
export const lazySerializerFactory: SerializerSelector.SerializerFactory = (externalSchemas, serializerOptions) => {
  const build = SerializerSelector()(externalSchemas, serializerOptions);
  return (route) => {
    let serialize: SerializerSelector.Serializer | undefined;
    lazyCompilations.push(() => void (serialize ??= build(route)));
    return (data) => (serialize ??= build(route))(data);
  };
};

/** Compiles what is still deferred (tests: every route's schema must compile). */
export function compileEveryRouteSchema(): number {
  for (const compile of lazyCompilations) compile();
  return lazyCompilations.length;
}

function typeOf(value: unknown): string {
  // A missing body reaches the validator as undefined; the service reports it as null.
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `/groups/0/email` → `groups[0].email` (z-schema's path notation). */
function propertyPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(segment) ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

function innerMessage(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  const data = error.data;
  switch (error.keyword) {
    case 'type': {
      const expected = Array.isArray(p.type) ? p.type.join(',') : String(p.type);
      return `Expected type ${expected} but found type ${typeOf(data)}`;
    }
    case 'required':
      return `Missing required property: ${String(p.missingProperty)}`;
    case 'additionalProperties': {
      // z-schema names every extra property; Ajv stops at the first, so list them from the data.
      const schema = error.parentSchema as { properties?: Record<string, unknown>; patternProperties?: Record<string, unknown> };
      const known = new Set(Object.keys(schema?.properties ?? {}));
      const patterns = Object.keys(schema?.patternProperties ?? {}).map((s) => new RegExp(s, 'u'));
      const extra =
        data && typeof data === 'object'
          ? Object.keys(data).filter((k) => !known.has(k) && !patterns.some((r) => r.test(k)))
          : [String(p.additionalProperty)];
      return `Additional properties not allowed: ${extra.join(',')}`;
    }
    case 'minItems':
      return `Array is too short (${(data as unknown[]).length}), minimum ${String(p.limit)}`;
    case 'maxItems':
      return `Array is too long (${(data as unknown[]).length}), maximum ${String(p.limit)}`;
    case 'uniqueItems':
      return `Array items are not unique (indexes ${Math.min(Number(p.i), Number(p.j))} and ${Math.max(Number(p.i), Number(p.j))})`;
    case 'minLength':
      return `String is too short (${[...String(data)].length} chars), minimum ${String(p.limit)}`;
    case 'maxLength':
      return `String is too long (${[...String(data)].length} chars), maximum ${String(p.limit)}`;
    case 'minimum':
      return `Value ${String(data)} is less than minimum ${String(p.limit)}`;
    case 'maximum':
      return `Value ${String(data)} is greater than maximum ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `Value ${String(data)} is equal or less than exclusive minimum ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `Value ${String(data)} is equal or greater than exclusive maximum ${String(p.limit)}`;
    case 'minProperties':
      return `Too few properties defined (${Object.keys(data as object).length}), minimum ${String(p.limit)}`;
    case 'maxProperties':
      return `Too many properties defined (${Object.keys(data as object).length}), maximum ${String(p.limit)}`;
    case 'enum':
    case 'const':
      // z-schema quotes objects and null, and writes strings and numbers as they are.
      return `No enum match for: ${data !== null && typeof data === 'object' ? JSON.stringify(data) : String(data)}`;
    case 'format':
      return `Object didn't pass validation for format ${String(p.format)}: ${String(data)}`;
    case 'pattern':
      return `String does not match pattern ${String(p.pattern)}: ${String(data)}`;
    case 'anyOf':
      return "Data does not match any schemas from 'anyOf'";
    case 'oneOf':
      return "Data does not match any schemas from 'oneOf'";
    case 'not':
      return "Data matches schema from 'not'";
    case MAX_JSON_BYTES_KEYWORD:
      // Worded after z-schema's "String is too long (N chars), maximum M".
      return `Object is too large (${String(p.size)} bytes), maximum ${String(p.limit)}`;
    default:
      return error.message ?? 'Invalid value';
  }
}

const PREFIX: Record<Part, string> = {
  body: 'Payload',
  querystring: 'Query',
  params: 'Path',
  headers: 'Header',
};

/** One Ajv error as the service words it. */
export function validationMessage(error: ErrorObject, part: Part): string {
  const path = propertyPath(error.instancePath);
  const schema = error.parentSchema as { description?: string } | undefined;
  let where = '';
  if (path !== '') {
    where = ` on property ${path}`;
    if (schema?.description) where += ` (${schema.description})`;
  }
  return `${PREFIX[part]} validation error: '${innerMessage(error)}'${where}.`;
}

export const VALIDATION_ERROR_CODE: Record<Part, 'invalid_body' | 'invalid_query_string' | 'invalid_uri'> = {
  body: 'invalid_body',
  querystring: 'invalid_query_string',
  params: 'invalid_uri',
  headers: 'invalid_query_string',
};
