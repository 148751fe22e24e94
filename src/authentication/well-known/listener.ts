/**
 * The real server's first request listener: `/.well-known/jwks.json` and
 * `/.well-known/openid-configuration` answered from ./documents.ts before
 * Fastify sees the request (see there for why and what is skipped); every
 * other request goes to Fastify's listener unchanged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthenticationRegistries } from '../registries.js';
import { DISCOVERY_PATH, DOCUMENT_CONTENT_TYPE, JWKS_PATH, documentHeaders, jwksDocument, notModified, type DiscoveryContext } from './documents.js';
import { discoveryStaticDocument } from './openid-configuration.js';
import type { Logger } from 'pino';
import type { TenantService } from '../../domain/tenants/service.js';

type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

/** What the well-known listener touches. */
export interface WellKnownListenerContext extends DiscoveryContext {
  readonly logger: Logger;
  readonly tenants: TenantService;
}

/**
 * A request listener answering the two documents on the real server and
 * handing every other request to `next` (Fastify's own listener).
 */
export function wellKnownListener(ctx: WellKnownListenerContext, registries: AuthenticationRegistries, next: NodeListener): NodeListener {
  const answer = async (request: IncomingMessage, response: ServerResponse, jwks: boolean): Promise<void> => {
    const host = request.headers.host;
    const tenant = host ? await ctx.tenants.byDomain(host.toLowerCase()) : undefined;
    if (tenant === undefined) return next(request, response);
    const document = jwks ? await jwksDocument(ctx, tenant) : discoveryStaticDocument(tenant, registries);
    const headers = documentHeaders(document, request.headers.origin, tenant);
    if (notModified(request.headers['if-none-match'], document.etag)) {
      response.writeHead(304, headers).end();
      return;
    }
    headers['content-type'] = DOCUMENT_CONTENT_TYPE;
    headers['content-length'] = String(document.body.length);
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : document.body);
  };
  return (request, response) => {
    const { method, url } = request;
    if ((method === 'GET' || method === 'HEAD') && (url === JWKS_PATH || url === DISCOVERY_PATH)) {
      answer(request, response, url === JWKS_PATH).catch((error: unknown) => {
        // A store failure: Fastify answers it in the surface's error shape.
        ctx.logger.error({ err: error }, 'well-known document');
        if (!response.headersSent) next(request, response);
      });
      return;
    }
    next(request, response);
  };
}
