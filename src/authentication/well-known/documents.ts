/**
 * The two documents every relying party fetches, `/.well-known/jwks.json`
 * and `/.well-known/openid-configuration`, made once per tenant state and
 * served as bytes: a Buffer, its strong ETag (RFC 9110 §8.8.3) and
 * `Cache-Control: public, max-age=300`, with 304 Not Modified to a matching
 * `If-None-Match` (§13.1.2).
 *
 * They are served twice over from the same cache: by the Fastify routes
 * (./jwks.ts, ./openid-configuration.ts; what `app.inject()` reaches) and,
 * on the real listener, by `wellKnownListener` (./listener.ts) before Fastify sees the
 * request, since routing, hooks and reply serialisation cost several times
 * the bytes themselves. The listener does what the routes do for these
 * paths and nothing else: the tenant from `Host`, the cached document, the
 * conditional answer and the public CORS header (../cors.ts: these
 * documents answer any origin). It draws on no rate-limit bucket: answering
 * from memory costs less than the bucket would, and the connection limits of
 * platform/http/connections.ts still hold. Anything else (another method, a
 * query string, an unknown host) goes to Fastify unchanged.
 */
import { createHash } from 'node:crypto';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { AuthenticationRegistries } from '../registries.js';
import type { Keyring } from '../../domain/keys/keyring.js';

export const JWKS_PATH = '/.well-known/jwks.json';
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';
export const DOCUMENT_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface StaticDocument {
  body: Buffer;
  /** Strong validator: the SHA-256 of the bytes, base64url, quoted. */
  etag: string;
}

function staticDocument(json: string): StaticDocument {
  const body = Buffer.from(json);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Per key-set object of the keyring (a new one after a rotation or reload). */
const jwksDocuments = new WeakMap<object, StaticDocument>();
/** Per registries, per tenant object (a new one when the tenant's cache entry is refreshed). */
const discoveryDocuments = new WeakMap<AuthenticationRegistries, WeakMap<Tenant, StaticDocument>>();

/** What the discovery documents read. */
export interface DiscoveryContext {
  readonly keyring: Keyring;
}

export async function jwksDocument(ctx: DiscoveryContext, tenant: Tenant): Promise<StaticDocument> {
  const keys = await ctx.keyring.keys(tenant.id);
  let document = jwksDocuments.get(keys);
  if (document === undefined) {
    document = staticDocument(keys.jwksJson);
    jwksDocuments.set(keys, document);
  }
  return document;
}

/** The discovery document of `tenant` under `registries`, made by `make` once per tenant state. */
export function cachedDiscoveryDocument(tenant: Tenant, registries: AuthenticationRegistries, make: () => object): StaticDocument {
  let perTenant = discoveryDocuments.get(registries);
  if (perTenant === undefined) {
    perTenant = new WeakMap();
    discoveryDocuments.set(registries, perTenant);
  }
  let document = perTenant.get(tenant);
  if (document === undefined) {
    document = staticDocument(JSON.stringify(make()));
    perTenant.set(tenant, document);
  }
  return document;
}

/** Whether `If-None-Match` names the document's current ETag (RFC 9110 §13.1.2: `*`, a list, weak comparison). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined || ifNoneMatch.length > 1024) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === etag;
  });
}

/** The headers both ways of serving send. */
export function documentHeaders(document: StaticDocument, origin: string | undefined, tenant: Tenant): Record<string, string> {
  const headers: Record<string, string> = { 'cache-control': DOCUMENT_CACHE_CONTROL, etag: document.etag };
  if (origin !== undefined && origin !== `https://${tenant.domain}`) headers['access-control-allow-origin'] = '*';
  return headers;
}
