/**
 * The response modes of /authorize, one module each, and sending a response
 * through the one a request chose. Successes and errors alike go back
 * through it. Adding a mode: a module and a line in RESPONSE_MODE_LIST (the
 * registry's default, src/authentication/registries.ts); the registry the
 * app was built with is what /authorize accepts, sends through and discovery
 * lists (the Authentication API's instance carries it, `responseModes`).
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry's response modes (set by the Authentication API's plugin, src/authentication/routes.ts). */
    responseModes?: readonly ResponseMode[];
  }
}

/** The mode of that name: the registry's the reply's routes were built with, else a built-in one. */
function modeNamed(reply: FastifyReply, name: ResponseModeName): ResponseMode {
  const mode = (reply.server.responseModes ?? RESPONSE_MODE_LIST).find((m) => m.name === name);
  if (!mode) throw new Error(`no response mode is registered for ${name}`);
  return mode;
}

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
  return modeNamed(reply, request.response_mode).send(reply, request.redirect_target, { ...response, state: request.state, ...(iss !== undefined && { iss }) });
}
