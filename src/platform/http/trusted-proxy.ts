/**
 * Whether a request came through a proxy Gatehouse trusts
 * (GATEHOUSE_TRUST_PROXY): its `X-Forwarded-For` was believed, so the end
 * user's address (`request.ip`, Fastify's `trustProxy`) is not the TCP
 * peer's. Headers a proxy adds about the end user (Akamai's supplemental
 * signals) are read only then: a client reaching Gatehouse directly could
 * send them itself.
 */
import type { FastifyRequest } from 'fastify';

export function cameThroughTrustedProxy(request: Pick<FastifyRequest, 'ip' | 'socket'>): boolean {
  const peer = request.socket.remoteAddress;
  return peer !== undefined && request.ip !== peer;
}
