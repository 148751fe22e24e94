/**
 * The listener's connection limits over real TLS, the built server as a
 * process (src/platform/http/connections.ts): a connection that never starts
 * its TLS handshake is closed after GATEHOUSE_TLS_HANDSHAKE_TIMEOUT (shortened
 * here); connections still in their handshake cannot keep the other clients
 * of an address out (a new connection replaces the oldest of them), while
 * completed ones count as before; HEAD with headers over 16 KiB gets 431
 * without a body although the headers arrive in several TLS records; a
 * request Node cannot parse is logged at LOG_LEVEL=trace with its error code
 * and length, never its bytes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { tlsExchange } from '../helpers/raw-http.js';

const MAX_PER_ADDRESS = 4;

/** Resolves with what happened first to `socket`; a generous guard turns a hang into a failure, never a timing assertion. */
function outcome(socket: net.Socket, events: string[], guardMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`still open after ${guardMs} ms (waiting for ${events.join(' or ')})`)), guardMs);
    for (const event of events) {
      socket.once(event, () => {
        clearTimeout(guard);
        resolve(event);
      });
    }
  });
}

describe('connections over TLS', () => {
  let server: ServerProcess;
  let ca: Buffer;
  const opened: net.Socket[] = [];

  before(async () => {
    server = await startServerProcess({
      env: { LOG_LEVEL: 'trace', GATEHOUSE_TLS_HANDSHAKE_TIMEOUT: '1', GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: String(MAX_PER_ADDRESS) },
    });
    ca = fs.readFileSync(server.certFile);
  });
  after(async () => {
    for (const socket of opened) socket.destroy();
    await server?.stop();
  });

  /**
   * A TCP connection that never sends a byte (no TLS ClientHello). Each test connects from its own
   * loopback address (127.0.0.x), so the per-address counts of one test are not those of another.
   */
  async function silent(localAddress: string): Promise<{ closed: Promise<string>; received: () => string }> {
    const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress });
    opened.push(socket);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    return { closed: outcome(socket, ['close']), received: () => received };
  }

  function tlsConnection(localAddress: string): tls.TLSSocket {
    // Node's tls.connect passes localAddress on to the TCP connection; its types omit it.
    const socket = tls.connect({ port: server.port, host: '127.0.0.1', servername: 'localhost', ca, localAddress } as tls.ConnectionOptions);
    opened.push(socket);
    return socket;
  }

  it('a TCP connection that never starts TLS is closed after the handshake bound, without a byte', async () => {
    const { closed, received } = await silent('127.0.0.2');
    // The default bound is 10 s (Node's own was 120 s); here it is 1 s, well inside the guard.
    assert.equal(await closed, 'close');
    assert.equal(received(), '');
  });

  it('connections still in their handshake cannot keep other clients of the address out', async () => {
    const address = '127.0.0.3';
    const silents = [];
    for (let i = 0; i < MAX_PER_ADDRESS; i++) silents.push(await silent(address));
    // The address is at its limit with connections that never start TLS: a real client of that address
    // still gets in, taking the place of the oldest of them, which is closed without a byte.
    const answered = await tlsExchange(server.port, ca, `GET /health HTTP/1.1\r\nHost: ${server.domain}\r\nConnection: close\r\n\r\n`, address);
    assert.equal(answered.status, 200, answered.received);
    assert.equal(await silents[0]!.closed, 'close');
    assert.equal(silents[0]!.received(), '');
  });

  it('connections that completed their handshake count against the limit as before: a further one is refused', async () => {
    const address = '127.0.0.4';
    // MAX_PER_ADDRESS kept-alive TLS connections, each of which has had a request answered (so the
    // server has completed its handshake)...
    for (let i = 0; i < MAX_PER_ADDRESS; i++) {
      const socket = tlsConnection(address);
      socket.setEncoding('latin1');
      let received = '';
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      socket.write(`GET /health HTTP/1.1\r\nHost: ${server.domain}\r\n\r\n`);
      await new Promise<void>((resolve) => {
        socket.on('data', (chunk: string) => {
          received += chunk;
          if (/^HTTP\/1\.1 200 /.test(received) && received.endsWith('}')) resolve();
        });
      });
    }
    // ...leave no room: the next connection is closed on arrival and never completes a handshake.
    const refused = tlsConnection(address);
    refused.on('error', () => {});
    assert.equal(await outcome(refused, ['secureConnect', 'close']), 'close');
  });

  const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;

  it('HEAD with headers over 16 KiB: 431 with Connection: close and no body, although the headers span TLS records', async () => {
    const res = await tlsExchange(server.port, ca, `HEAD /.well-known/jwks.json HTTP/1.1\r\nHost: ${server.domain}\r\n${big}\r\n`);
    assert.equal(res.status, 431, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['content-length'], '0');
    assert.equal(res.body, '');
  });

  it('GET with headers over 16 KiB over TLS: 431 with Connection: close and an empty body (the request line is in an earlier record)', async () => {
    const res = await tlsExchange(server.port, ca, `GET /.well-known/jwks.json HTTP/1.1\r\nHost: ${server.domain}\r\n${big}\r\n`);
    assert.equal(res.status, 431, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
  });

  it('a request Node cannot parse is logged with its error code and length, never its bytes (LOG_LEVEL=trace)', async () => {
    const secret = 'client-secret-never-in-the-log-8Qf2';
    const password = 'password-never-in-the-log-Zr71';
    const basic = Buffer.from(`some-client:${secret}-basic`).toString('base64');
    const body = `grant_type=password&client_secret=${secret}&password=${password}`;
    // A header line without a colon: llhttp fails with HPE_INVALID_HEADER_TOKEN after reading the Basic header.
    const request =
      `POST /oauth/token HTTP/1.1\r\nHost: ${server.domain}\r\nAuthorization: Basic ${basic}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nBroken header line\r\n\r\n${body}`;
    const before = server.output().length;
    const res = await tlsExchange(server.port, ca, request);
    assert.equal(res.status, 400, res.received);
    // The log line is written as the answer is sent; wait for it. A line of an earlier test's
    // connection (a header overflow) may still arrive after `before`: this request's line is the
    // one that counts this request's bytes.
    type ClientError = { msg?: string; code?: string; reason?: string; bytes?: number };
    const ours = (): ClientError | undefined =>
      server
        .output()
        .slice(before)
        .split('\n')
        .filter((entry) => entry.includes('"client error"'))
        .map((entry) => JSON.parse(entry) as ClientError)
        .find((entry) => entry.bytes === Buffer.byteLength(request));
    const deadline = Date.now() + 10_000;
    while (!ours() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const log = server.output().slice(before);
    const entry = ours();
    assert.ok(entry, log);
    assert.equal(entry.code, 'HPE_INVALID_HEADER_TOKEN');
    assert.equal(typeof entry.reason, 'string');
    for (const value of [secret, password, basic]) {
      assert.ok(!log.includes(value), `${value} is not in the log`);
      // Nor as the bytes of a serialized Buffer.
      assert.ok(!log.includes(Array.from(Buffer.from(value)).join(',')), `${value} is not in the log as bytes`);
    }
    assert.doesNotMatch(log, /rawPacket/);
  });
});
