/**
 * Outgoing POSTs: forms to relying parties (back-channel logout), log
 * events to log stream endpoints and events to event streams' webhooks. HTTPS only,
 * certificates verified against the system roots plus the configured extra
 * authorities (`GATEHOUSE_BACKCHANNEL_CA_FILE`, `GATEHOUSE_LOG_STREAM_CA_FILE`,
 * `GATEHOUSE_EVENT_STREAM_CA_FILE`), no redirects followed, the
 * answer's body read and dropped (at most 64 KiB), a deadline for the whole
 * exchange, and only to public addresses unless the operator allows more
 * (./outbound-guard.ts: tenants choose these URLs). Resolves with the status;
 * rejects when no answer came or the destination is refused.
 */
import https from 'node:https';
import tls from 'node:tls';
import { checkLiteralHost, guardedLookup, PUBLIC_ONLY, type OutboundPolicy } from './outbound-guard.js';

export interface FormPosterOptions {
  /** Extra trusted certificate authorities (PEM). */
  ca?: string | Buffer;
  timeoutMs?: number;
  /** Where posts may go beyond public addresses (GATEHOUSE_OUTBOUND_ALLOW); public only when absent. */
  outbound?: OutboundPolicy;
  /**
   * Keeps connections open between posts (at most this many per
   * destination): for many small posts to the same endpoints (event streams),
   * where a TLS handshake per post would cost more than the post. The
   * guard's check runs whenever a connection is opened.
   */
  keepAliveSockets?: number;
}

const MAX_BODY = 64 * 1024;

export function httpsFormPoster(options: FormPosterOptions = {}): (url: string, body: string) => Promise<number> {
  const post = httpsPoster(options);
  return (url, body) => post(url, body, { 'content-type': 'application/x-www-form-urlencoded' });
}

/** POSTs `body` with `headers` (the content type among them); resolves with the status, rejects when no answer came. */
export function httpsPoster(options: FormPosterOptions = {}): (url: string, body: string, headers: Record<string, string>) => Promise<number> {
  // One TLS context for every post: building one from the system roots costs milliseconds, and a `ca`
  // option would be folded into the agent's connection key (every root certificate's text) on each post.
  const secureContext = options.ca === undefined ? undefined : tls.createSecureContext({ ca: [...tls.rootCertificates, options.ca.toString()] });
  const timeoutMs = options.timeoutMs ?? 5000;
  const policy = options.outbound ?? PUBLIC_ONLY;
  const lookup = guardedLookup(policy);
  const agent = options.keepAliveSockets === undefined ? false : new https.Agent({ keepAlive: true, maxSockets: options.keepAliveSockets, lookup });
  return (url, body, headers) =>
    new Promise<number>((resolve, reject) => {
      if (!url.startsWith('https://')) {
        reject(new Error('only https URLs are posted to'));
        return;
      }
      try {
        checkLiteralHost(new URL(url).hostname, policy);
      } catch (err) {
        reject(err);
        return;
      }
      const req = https.request(
        url,
        {
          method: 'POST',
          agent,
          lookup,
          ...(secureContext && { secureContext }),
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          timeout: timeoutMs,
        },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_BODY) res.destroy();
          });
          res.on('close', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(res.statusCode ?? 0));
        },
      );
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
}
