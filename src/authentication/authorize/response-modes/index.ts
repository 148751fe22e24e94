/**
 * The response modes of /authorize, one module each, and sending a response
 * through the one a request chose. Successes and errors alike go back
 * through it. Adding a mode: a module and a line in RESPONSE_MODE_LIST (the
 * registry, src/authentication/registries.ts, and discovery follow).
 */
import type { FastifyReply } from 'fastify';
import type { ResponseModeName, ResponseTarget } from '../response-target.js';
import { formPost } from './form-post.js';
import { fragment } from './fragment.js';
import type { AuthorizationResponse, ResponseMode } from './mode.js';
import { query } from './query.js';
import { webMessage } from './web-message.js';

export type { AuthorizationResponse, ResponseMode } from './mode.js';

export const RESPONSE_MODE_LIST: readonly ResponseMode[] = [query, fragment, formPost, webMessage];

const BY_NAME: ReadonlyMap<ResponseModeName, ResponseMode> = new Map(RESPONSE_MODE_LIST.map((m) => [m.name, m]));

/**
 * Sends the authorization response (a code, tokens, or an error) through the
 * request's response mode, with its `state` and the tenant's issuer as `iss`
 * (RFC 9207: the client can tell which server answered; discovery says so).
 */
export function sendAuthorizationResponse(
  reply: FastifyReply,
  request: ResponseTarget,
  response: AuthorizationResponse,
): FastifyReply {
  const iss = (reply.request.tenant as { issuer?: string } | null)?.issuer;
  return BY_NAME.get(request.response_mode)!.send(reply, request.redirect_target, { ...response, state: request.state, ...(iss !== undefined && { iss }) });
}
