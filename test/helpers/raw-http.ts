/**
 * A request written on a raw connection (TCP or TLS) and everything the
 * server sent back until it closed the connection, split into status line,
 * headers and body: for answers Node's HTTP parser gives before there is a
 * request (src/platform/http/connections.ts), which clients hide.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

function parse(received: string): RawExchange {
  const split = received.indexOf('\r\n\r\n');
  const head = split === -1 ? received : received.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1];
  return { received, status: status === undefined ? undefined : Number(status), headers, body: split === -1 ? '' : received.slice(split + 4) };
}

/** Writes `request` once the connection is up (for TLS: once the handshake completed) and reads until the server closes it. */
async function converse(socket: net.Socket, ready: string, request: string): Promise<RawExchange> {
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once(ready, () => socket.write(request));
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  return parse(received);
}

/** Over plain TCP. */
export function exchange(port: number, request: string): Promise<RawExchange> {
  return converse(net.connect(port, '127.0.0.1'), 'connect', request);
}

/** Over TLS, trusting `ca`; from `localAddress` (another loopback address, 127.0.0.2 and on) when given. */
export function tlsExchange(port: number, ca: Buffer, request: string, localAddress?: string): Promise<RawExchange> {
  return converse(tls.connect({ port, host: '127.0.0.1', servername: 'localhost', ca, ...(localAddress && { localAddress }) }), 'secureConnect', request);
}
