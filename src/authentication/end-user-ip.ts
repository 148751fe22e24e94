/**
 * The end user's IP address at the token endpoint, for brute-force protection.
 *
 * Normally the request's own address (`request.ip`: the TCP peer, or the
 * address `X-Forwarded-For` gives behind the proxies GATEHOUSE_TRUST_PROXY
 * names). A confidential client with `is_token_endpoint_ip_header_trusted`
 * logs users in from its own servers, so every attempt would come from its
 * address; it names the user's in the `auth0-forwarded-for` header
 * (authentication-api-wire-notes §1; the specification calls it
 * `service-forwarded-for`, accepted too). From any other client, or with a
 * value that is not an IP address, the header is ignored: a public client
 * could otherwise choose the key its own failures are counted under.
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedClient } from './client-auth/method.js';

export const END_USER_IP_HEADERS = ['auth0-forwarded-for', 'service-forwarded-for'] as const;

export function endUserIp(request: FastifyRequest, client: AuthenticatedClient): string {
  if (!client.confidential || !client.client.browser.trustsIpHeader) return request.ip;
  for (const name of END_USER_IP_HEADERS) {
    const value = request.headers[name];
    if (typeof value !== 'string') continue;
    const first = value.split(',')[0]!.trim();
    if (first.length <= 45 && isIP(first) !== 0) return first;
  }
  return request.ip;
}
