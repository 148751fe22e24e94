/**
 * Connection-level limits of the listener, below Fastify's request handling:
 *
 * - a whole request (headers and body) must arrive within the configured
 *   time (Node's `requestTimeout` and `headersTimeout`); a slower one is
 *   answered 408 and the connection closed, so a body that never completes
 *   no longer holds a connection for minutes;
 * - one client address may hold at most `maxConnectionsPerAddress`
 *   connections at once; further ones are closed as they arrive (before TLS,
 *   so they cost no handshake) unless one of the address's connections is
 *   still in its TLS handshake, which then makes room; a handshake must
 *   complete within the configured time of the connection's arrival;
 * - errors Node's HTTP parser raises before there is a request (headers over
 *   its 16 KiB limit: 431; a timeout: 408; bytes that are not HTTP: 400) are
 *   answered with `Connection: close` (Fastify's default answer closed the
 *   connection without saying so, and pooled clients reused it and met a
 *   reset), in the surface's error family when the request line shows which
 *   surface was addressed, and without a body for HEAD. Headers over the
 *   limit that arrived in several pieces (over TLS a record holds at most
 *   16 KiB, so always there) leave the request line out of the bytes the
 *   parser reports: the method is then unknown and the answer has no body,
 *   as a HEAD must not get one;
 * - a parser error is logged with its code, reason and the number of bytes,
 *   never the bytes: they hold whatever the client sent (a Basic header, a
 *   client secret, a password).
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

/** The connections one client address holds, and those of them still in their TLS handshake (oldest first). */
interface AddressConnections {
  open: number;
  handshaking: Set<Socket>;
}

interface Counted {
  address: string;
  connections: AddressConnections;
  /** Closes the connection when its handshake has not completed in time; unset once it has. */
  handshakeTimer?: NodeJS.Timeout;
}

/**
 * Limits each client address to `max` connections at once and, for an HTTPS
 * server (`tlsHandshakeTimeoutMs` given), bounds the TLS handshake.
 *
 * Connections still in their handshake count against the address's limit
 * like any other, but at the limit a new connection closes the address's
 * oldest one still in its handshake instead of being refused. Connections
 * that never start TLS therefore cannot keep the other clients of an address
 * (a NAT, an office) out: a new connection gets in while any of them is
 * left, and only when every connection of the address has completed its
 * handshake is a new one closed. Each is closed anyway once
 * `tlsHandshakeTimeoutMs` has passed since it arrived: an absolute bound, as
 * Node's own `handshakeTimeout` restarts with every byte and a client
 * trickling its handshake could hold a connection for minutes.
 */
export function limitConnectionsPerAddress(server: Server, max: number, tlsHandshakeTimeoutMs?: number): void {
  const byAddress = new Map<string, AddressConnections>();
  const counted = new Map<Socket, Counted>();

  const endHandshake = (socket: Socket) => {
    const entry = counted.get(socket);
    if (entry?.handshakeTimer === undefined) return;
    clearTimeout(entry.handshakeTimer);
    entry.handshakeTimer = undefined;
    entry.connections.handshaking.delete(socket);
  };
  const release = (socket: Socket) => {
    const entry = counted.get(socket);
    if (!entry) return;
    endHandshake(socket);
    counted.delete(socket);
    entry.connections.open -= 1;
    if (entry.connections.open === 0) byAddress.delete(entry.address);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const connections = byAddress.get(address) ?? { open: 0, handshaking: new Set<Socket>() };
    if (connections.open >= max) {
      const [oldest] = connections.handshaking;
      if (!oldest) {
        socket.destroy();
        return;
      }
      release(oldest);
      oldest.destroy();
    }
    connections.open += 1;
    byAddress.set(address, connections);
    const entry: Counted = { address, connections };
    counted.set(socket, entry);
    socket.once('close', () => release(socket));
    if (tlsHandshakeTimeoutMs !== undefined) {
      connections.handshaking.add(socket);
      entry.handshakeTimer = setTimeout(() => socket.destroy(), tlsHandshakeTimeoutMs);
      entry.handshakeTimer.unref();
    }
  });
  // The TLS socket keeps the accepted connection it wraps as `_parent`.
  if (tlsHandshakeTimeoutMs !== undefined) {
    server.on('secureConnection', (tlsSocket: Socket & { _parent?: Socket }) => {
      if (tlsSocket._parent) endHandshake(tlsSocket._parent);
    });
  }
}

interface ParserError extends Error {
  code?: string;
  /** llhttp's reason, e.g. "Header overflow". */
  reason?: unknown;
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
  if (line) return { method: line[1], url: line[2] };
  // Headers over the limit always follow a request line; not in these bytes, it came in an earlier piece.
  return error.code === 'HPE_HEADER_OVERFLOW' ? { method: UNKNOWN_METHOD } : {};
}

/** The method of a request whose request line came in an earlier piece: answered without a body. */
const UNKNOWN_METHOD = '';

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
  // Never the error itself: its rawPacket holds the request's bytes.
  this.log.debug(
    {
      code: error.code,
      reason: typeof error.reason === 'string' ? error.reason : error.message,
      bytes: Buffer.isBuffer(error.rawPacket) ? error.rawPacket.length : undefined,
    },
    'client error',
  );
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
  socket.end(rawErrorResponse(errorFor(error.code, surface), surface, method !== 'HEAD' && method !== UNKNOWN_METHOD));
}
