/**
 * Connection-level limits of the listener, below Fastify's request handling:
 *
 * - a whole request (headers and body) must arrive within the configured
 *   time (Node's `requestTimeout` and `headersTimeout`); a slower one is
 *   answered 408 and the connection closed, so a body that never completes
 *   no longer holds a connection for minutes;
 * - one client address may hold at most `maxConnectionsPerAddress`
 *   connections at once; further ones are closed as they arrive (before TLS,
 *   so they cost no handshake);
 * - errors Node's HTTP parser raises before there is a request (headers over
 *   its 16 KiB limit: 431; a timeout: 408; bytes that are not HTTP: 400) are
 *   answered with `Connection: close` (Fastify's default answer closed the
 *   connection without saying so, and pooled clients reused it and met a
 *   reset), in the surface's error family when the request line shows which
 *   surface was addressed, and without a body for HEAD.
 */
import type { ServerOptions } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { rawErrorResponse, surfaceOf, type Surface } from './error-handler.js';
import { managementErrors, oauthErrors, type HttpError } from './errors.js';

export interface ConnectionLimits {
  requestTimeoutMs: number;
  maxConnectionsPerAddress: number;
}

/**
 * How long an answered connection stays open to read what the client still
 * sends: closing with unread bytes would make the kernel reset the
 * connection, and the client could lose the answer.
 */
const LINGER_MS = 1000;

/**
 * Node's HTTP server options for the timeouts. Node looks for expired
 * requests every `connectionsCheckingInterval` (30 s by default, which would
 * double the timeout); a tenth of the timeout, at most a second, keeps the
 * answer close to it.
 */
export function timeoutOptions(limits: ConnectionLimits): ServerOptions {
  return {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.requestTimeoutMs / 10))),
  };
}

/** Closes a client address's connections beyond `max` as they are accepted. */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

interface ParserError extends Error {
  code?: string;
  /** The bytes Node's parser was reading when it failed: a Buffer, set for parse errors. */
  rawPacket?: unknown;
}

/** The response in flight on a socket, if any: Node keeps it as `_httpMessage`. */
interface SocketWithResponse extends Socket {
  _httpMessage?: { headersSent?: boolean; req?: { method?: string; url?: string } };
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/;

/**
 * The method and URL of the request the error belongs to: the request in
 * flight, else the request line at the start of the bytes the parser read
 * (headers that arrived in several pieces may no longer show it).
 */
function requestOf(error: ParserError, socket: SocketWithResponse): { method?: string; url?: string } {
  const inFlight = socket._httpMessage?.req;
  if (inFlight) return inFlight;
  const line = Buffer.isBuffer(error.rawPacket) ? REQUEST_LINE.exec(error.rawPacket.subarray(0, 8192).toString('latin1')) : null;
  return line ? { method: line[1], url: line[2] } : {};
}

function errorFor(code: string | undefined, surface: Surface): HttpError {
  const family = surface === 'management' ? managementErrors : oauthErrors;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return family.requestTimeout();
  if (code === 'HPE_HEADER_OVERFLOW') return family.headersTooLarge();
  return family.malformedRequest();
}

/** Sockets already answered: Node's parser reports every further chunk of a failed request again. */
const answered = new WeakSet<Socket>();

/** Fastify's `clientErrorHandler`: answers the parser's error, then closes the connection. */
export function clientErrorHandler(this: FastifyInstance, error: ParserError, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  this.log.debug({ err: error }, 'client error');
  const withResponse = socket as SocketWithResponse;
  // A reset connection, or one whose response has begun: nothing more can be said on it.
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || withResponse._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const { method, url } = requestOf(error, withResponse);
  // Without a request line the surface is unknown; the Authentication API is the root's.
  const surface = url === undefined ? 'authentication' : surfaceOf(url);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.end(rawErrorResponse(errorFor(error.code, surface), surface, method));
}
