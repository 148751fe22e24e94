/**
 * `fetch` toward tenants' upstream identity providers (an OpenID provider's
 * discovery document, JWKS, token and userinfo endpoints): the URLs are the
 * tenant's choice, so every request goes through the outbound guard
 * (./outbound-guard.ts: public addresses only unless GATEHOUSE_OUTBOUND_ALLOW
 * lists the range, checked on the address connected to), over HTTPS only,
 * with certificates verified against the system roots (plus
 * NODE_EXTRA_CA_CERTS, read by Node at process start), no redirect followed,
 * a body of at most 1 MiB and a deadline of 10 s for the whole exchange. Any
 * of these failing rejects with an `UpstreamFetchError`. Connections are kept
 * alive (at most 8 idle per provider, closed after 30 s idle): the guard
 * checks the address each one connects to, and a login's calls to the same
 * provider skip a TLS handshake each.
 */
import https from 'node:https';
import tls from 'node:tls';
import { checkLiteralHost, guardedLookup, PUBLIC_ONLY, type OutboundPolicy } from './outbound-guard.js';

export const UPSTREAM_MAX_BODY = 1024 * 1024;
export const UPSTREAM_TIMEOUT_MS = 10_000;

export class UpstreamFetchError extends Error {
  readonly code = 'EUPSTREAM';
}

export interface UpstreamFetchInit {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  body?: string | URLSearchParams | null;
  signal?: AbortSignal | null;
}

export type UpstreamFetch = (url: string | URL, init?: UpstreamFetchInit) => Promise<Response>;

export interface UpstreamFetchOptions {
  outbound?: OutboundPolicy;
  /** Extra trusted certificate authorities (PEM), besides the system roots. */
  ca?: string | Buffer;
  maxBody?: number;
  timeoutMs?: number;
}

export function upstreamFetch(options: UpstreamFetchOptions = {}): UpstreamFetch {
  const policy = options.outbound ?? PUBLIC_ONLY;
  const maxBody = options.maxBody ?? UPSTREAM_MAX_BODY;
  const timeoutMs = options.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
  const lookup = guardedLookup(policy);
  // One pool per fetcher, and so per outbound policy: every socket in it was connected through this policy's lookup.
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 8, timeout: 30_000, scheduling: 'lifo', ...(options.ca !== undefined && { ca: [...tls.rootCertificates, options.ca.toString()] }) });
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      const fail = (message: string) => reject(new UpstreamFetchError(`${url.origin}${url.pathname}: ${message}`));
      if (url.protocol !== 'https:') return fail('only https URLs are fetched');
      try {
        checkLiteralHost(url.hostname, policy);
      } catch (err) {
        return fail((err as Error).message);
      }
      const headers = new Headers(init.headers);
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      if (init.body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
      if (body !== undefined) headers.set('content-length', String(Buffer.byteLength(body)));
      const req = https.request(url, { method: init.method ?? 'GET', agent, lookup, headers: Object.fromEntries(headers), timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxBody) {
            res.destroy();
            req.destroy();
            fail(`the answer is larger than ${maxBody} bytes`);
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 502;
          const noBody = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
        res.on('error', (err) => fail(err.message));
      });
      const deadline = setTimeout(() => {
        req.destroy();
        fail(`no answer within ${timeoutMs} ms`);
      }, timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => {
        req.destroy();
        fail(`no answer within ${timeoutMs} ms`);
      });
      req.on('error', (err) => fail(err.message));
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.end(body);
    });
}
