/**
 * Connection-level limits against a listening app, over raw sockets: slow
 * requests get 408 and are closed (the timeout is shortened through
 * GATEHOUSE_REQUEST_TIMEOUT so the test stays fast), oversized headers get
 * 431 with `Connection: close` (and no body for HEAD), and one address may
 * hold only so many connections.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../../helpers/app.js';
import { exchange, type RawExchange } from '../../helpers/raw-http.js';

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

const OAUTH_TIMEOUT = { error: 'invalid_request', error_description: 'The request was not received in time' };
const MANAGEMENT_TIMEOUT = { statusCode: 408, error: 'Request Timeout', message: 'The request was not received in time' };

describe('slow requests: 408 and the connection closed', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_REQUEST_TIMEOUT: '0.3' } });
    token = await t.managementToken();
    port = await listen(t);
  });
  after(() => t.close());

  it('a body that never completes (POST /oauth/token): 408 invalid_request, Connection: close', async () => {
    const res = await exchange(
      port,
      `POST /oauth/token HTTP/1.1\r\nHost: ${DOMAIN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"grant_type":`,
    );
    assert.equal(res.status, 408, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(res.body), OAUTH_TIMEOUT);
  });

  it('a body that never completes (POST /api/v2/clients): 408 in the Management shape, nothing stored', async () => {
    const count = async () => ((await t.management('GET', '/api/v2/clients?include_totals=true', { token })).json() as { total: number }).total;
    const before = await count();
    const res = await exchange(
      port,
      `POST /api/v2/clients HTTP/1.1\r\nHost: ${DOMAIN}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"slow"`,
    );
    assert.equal(res.status, 408, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.deepEqual(JSON.parse(res.body), MANAGEMENT_TIMEOUT);
    assert.equal(await count(), before);
  });

  it('headers that never complete: 408, Connection: close', async () => {
    const res = await exchange(port, `GET /.well-known/jwks.json HTTP/1.1\r\nHost: ${DOMAIN}\r\nX-Slow: `);
    assert.equal(res.status, 408, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.deepEqual(JSON.parse(res.body), OAUTH_TIMEOUT);
  });
});

describe('headers over 16 KiB: 431 with Connection: close', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp();
    port = await listen(t);
  });
  after(() => t.close());

  const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;

  it('Authentication API: 431 invalid_request, Connection: close, then the connection is closed', async () => {
    const res = await exchange(port, `GET /.well-known/jwks.json HTTP/1.1\r\nHost: ${DOMAIN}\r\n${big}\r\n`);
    assert.equal(res.status, 431, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
    assert.deepEqual(JSON.parse(res.body), { error: 'invalid_request', error_description: 'The request header fields are too large' });
  });

  it('Management API: 431 in the Management shape', async () => {
    const res = await exchange(port, `GET /api/v2/clients HTTP/1.1\r\nHost: ${DOMAIN}\r\n${big}\r\n`);
    assert.equal(res.status, 431, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.deepEqual(JSON.parse(res.body), {
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: 'The request header fields are too large',
    });
  });

  it('HEAD: 431 with Connection: close and no body', async () => {
    const res = await exchange(port, `HEAD /.well-known/jwks.json HTTP/1.1\r\nHost: ${DOMAIN}\r\n${big}\r\n`);
    assert.equal(res.status, 431, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.body, '');
  });

  it('bytes that are not HTTP: 400, Connection: close', async () => {
    const res = await exchange(port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.equal(res.status, 400, res.received);
    assert.equal(res.headers.connection, 'close');
    assert.deepEqual(JSON.parse(res.body), { error: 'invalid_request', error_description: 'The request is not valid HTTP/1.1' });
  });
});

describe('connections per client address', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: '2' } });
    port = await listen(t);
  });
  after(() => t.close());

  const open = () =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });

  it('closes connections beyond the limit on arrival; a freed slot can be used again', async () => {
    const first = await open();
    const second = await open();
    // A third is closed by the server, without a byte.
    const third = await open();
    let received = '';
    third.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    await new Promise((r) => third.once('close', r));
    assert.equal(received, '');
    first.destroy();
    await new Promise((r) => first.once('close', r));
    // The server notices the close asynchronously; a new connection fits once it has.
    let res: RawExchange | undefined;
    for (let attempt = 0; attempt < 50 && res?.status !== 200; attempt++) {
      res = await exchange(port, `GET /health HTTP/1.1\r\nHost: ${DOMAIN}\r\nConnection: close\r\n\r\n`);
      if (res.status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(res?.status, 200, res?.received);
    second.destroy();
  });
});
