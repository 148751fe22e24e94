/**
 * Cross-origin calls from JavaScript applications (the CORS protocol of the
 * Fetch standard §3.2) to the endpoints they use:
 *
 * - discovery, JWKS and /userinfo answer any origin (`*`): they hold nothing
 *   a cookie unlocks (userinfo takes a bearer token);
 * - /oauth/token, /oauth/revoke and /dbconnections/* act for the client the
 *   request names (`client_id` in the body, or the Basic header): the
 *   origin must be one of the client's `allowed_origins`, `web_origins` or
 *   the origins of its `callbacks` ("by default all callback URLs are
 *   allowed", spec, Client table), with the subdomain wildcard and the
 *   path/query/hash rules of src/domain/clients/origins.ts. Another origin gets the
 *   service's bare 403 `Origin … is not allowed.` (wire notes §1.4) and the
 *   request does nothing; a request naming no known client goes on without
 *   CORS headers, so its (error) answer stays unreadable to the page.
 *
 * - /co/authenticate (cross-origin authentication, ./cross-origin/) is the
 *   one credentialed endpoint: auth0.js posts it `withCredentials` so that
 *   its verifier cookie is kept. Only a client with
 *   `cross_origin_authentication` gets CORS headers, and only for one of its
 *   `allowed_origins` or `web_origins` (not its callbacks): the exact origin
 *   with `Access-Control-Allow-Credentials: true`, never `*`.
 *
 * Preflights (OPTIONS) cannot name the client (they carry no body), so they
 * are answered for any origin with the methods and request headers the
 * endpoints take (and, for /co/authenticate, credentials); the check above
 * runs on the request itself, before it does anything. Apart from
 * /co/authenticate no endpoint here reads or sets cookies, so credentials
 * are not allowed.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { originAllowed } from '../domain/clients/origins.js';
import type { ClientBrowserSettings, IssuanceLookups } from '../domain/issuance/lookups.js';

type Policy = 'public' | 'client' | 'cross-origin';

/** Path → methods, per policy. */
const ENDPOINTS: ReadonlyMap<string, { policy: Policy; methods: string }> = new Map([
  ['/.well-known/openid-configuration', { policy: 'public', methods: 'GET' }],
  ['/.well-known/jwks.json', { policy: 'public', methods: 'GET' }],
  ['/userinfo', { policy: 'public', methods: 'GET, POST' }],
  ['/oauth/token', { policy: 'client', methods: 'POST' }],
  ['/oauth/revoke', { policy: 'client', methods: 'POST' }],
  ['/dbconnections/signup', { policy: 'client', methods: 'POST' }],
  ['/dbconnections/change_password', { policy: 'client', methods: 'POST' }],
  ['/passwordless/start', { policy: 'client', methods: 'POST' }],
  ['/co/authenticate', { policy: 'cross-origin', methods: 'POST' }],
]);

/** Request headers a preflight may ask for (lower case): what the SDKs send. */
const ALLOWED_REQUEST_HEADERS: ReadonlySet<string> = new Set(['authorization', 'content-type', 'auth0-client', 'dpop']);

const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

/** The client a request acts for: `client_id` of the body, else the user part of a Basic header. */
function namedClientId(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | null | undefined;
  if (body && typeof body === 'object' && typeof body.client_id === 'string') return body.client_id;
  const header = request.headers.authorization;
  if (!header?.toLowerCase().startsWith('basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon));
  } catch {
    return undefined;
  }
}

/** The origins a client allows for CORS: allowed_origins, web_origins and, but for cross-origin authentication, its callbacks'. */
function clientOrigins(browser: ClientBrowserSettings, policy: Policy): readonly string[] {
  const origins = [...browser.allowedOrigins, ...browser.webOrigins];
  return policy === 'cross-origin' ? origins : [...origins, ...browser.callbacks];
}

/** What CORS decisions read. */
export interface CorsContext {
  readonly lookups: IssuanceLookups;
}

/** preHandler: the CORS answer headers, or the refusal, for a cross-origin request to one of ENDPOINTS. */
export function corsHook(ctx: CorsContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const origin = request.headers.origin;
    if (origin === undefined || request.method === 'OPTIONS') return undefined;
    const endpoint = ENDPOINTS.get(pathOf(request));
    if (!endpoint || origin === `https://${request.tenant.domain}`) return undefined;
    if (endpoint.policy === 'public') {
      reply.header('Access-Control-Allow-Origin', '*');
      return undefined;
    }
    reply.header('Vary', 'Origin');
    const clientId = namedClientId(request);
    const client = clientId === undefined ? undefined : await ctx.lookups.client(request.tenant.id, clientId);
    if (!client) return undefined;
    // A client without cross-origin authentication: no CORS headers; the endpoint answers its refusal.
    if (endpoint.policy === 'cross-origin' && !client.browser.crossOriginAuthentication) return undefined;
    if (!originAllowed(clientOrigins(client.browser, endpoint.policy), origin)) {
      return reply.code(403).header('Content-Type', 'text/plain; charset=utf-8').send(`Origin ${origin} is not allowed.`);
    }
    reply.header('Access-Control-Allow-Origin', origin);
    if (endpoint.policy === 'cross-origin') reply.header('Access-Control-Allow-Credentials', 'true');
    return undefined;
  };
}

/** OPTIONS for each of ENDPOINTS: the preflight answer (Fetch §4.8), or a plain 204 without an Origin. */
export function preflightRoutes(): RouteOptions[] {
  return [...ENDPOINTS].map(([url, { methods, policy }]) => ({
    method: 'OPTIONS',
    url,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('Allow', `${methods}, OPTIONS`).header('Vary', 'Origin, Access-Control-Request-Headers');
      const origin = request.headers.origin;
      if (origin !== undefined) {
        const asked = String(request.headers['access-control-request-headers'] ?? '')
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter((h) => h !== '');
        reply
          .header('Access-Control-Allow-Origin', origin)
          .header('Access-Control-Allow-Methods', methods)
          .header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
        if (policy === 'cross-origin') reply.header('Access-Control-Allow-Credentials', 'true');
        const allowed = asked.filter((h) => ALLOWED_REQUEST_HEADERS.has(h));
        if (allowed.length > 0) reply.header('Access-Control-Allow-Headers', allowed.join(', '));
      }
      return reply.code(204).send();
    },
  }));
}
