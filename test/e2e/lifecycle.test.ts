/**
 * The server as an operator runs it: `npm start`'s launcher (bin/gatehouse.cjs) as its own process,
 * over real HTTPS with its self-signed certificate trusted explicitly.
 * Restarts, the certificate, graceful shutdown, configuration errors, fixed
 * admin credentials, secrets in logs, NODE_OPTIONS and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { Socket } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { tempDir } from '../helpers/app.js';
import { createTestDatabase, POSTGRES_ADMIN_URL, postgresAvailable, type TestDatabase } from '../helpers/postgres.js';
import { freePort, ROOT, startServerProcess, type ServerProcess, type StartOptions } from '../helpers/server-process.js';
import {
  cleanUp,
  httpsRequest,
  managementToken,
  requestManagementToken,
  runNode,
  sleep,
  tokenBody,
  waitFor,
  type HttpResult,
} from './support/https.js';

const DAY_MS = 86_400_000;
const MAIN = path.join(ROOT, 'bin/gatehouse.cjs');

const servers: ServerProcess[] = [];
const dirs: string[] = [];
const databases: TestDatabase[] = [];

async function start(options: StartOptions = {}): Promise<ServerProcess> {
  const server = await startServerProcess(options);
  servers.push(server);
  if (!dirs.includes(server.dataDir)) dirs.push(server.dataDir);
  return server;
}

after(async () => {
  await cleanUp(servers, dirs);
  for (const db of databases) await db.drop().catch(() => undefined);
});

function ca(server: ServerProcess): Buffer {
  return fs.readFileSync(server.certFile);
}

function get(server: ServerProcess, pathname: string, token?: string): Promise<HttpResult> {
  return httpsRequest(`${server.baseUrl}${pathname}`, {
    ca: ca(server),
    ...(token !== undefined && { headers: { authorization: `Bearer ${token}` } }),
  });
}

async function kids(server: ServerProcess): Promise<string[]> {
  const jwks = await get(server, '/.well-known/jwks.json');
  assert.equal(jwks.status, 200, jwks.text);
  return jwks.json<{ keys: { kid: string }[] }>().keys.map((k) => k.kid);
}

/** The certificate the server presents to a client that trusts only its own certificate file. */
function servedCertificate(server: ServerProcess): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, servername: 'localhost', ca: ca(server) }, () => {
      const peer = socket.getPeerX509Certificate();
      socket.destroy();
      if (peer) resolve(peer);
      else reject(new Error('no peer certificate'));
    });
    socket.once('error', reject);
  });
}

/** What a fresh TLS connection attempt to the server's port gives: 'connected' or an error code. */
function connectAttempt(server: ServerProcess, certificate: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, servername: 'localhost', ca: certificate }, () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

function exitOf(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode !== null) return Promise.resolve(server.child.exitCode);
  return new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
}

describe('persistence across restarts', () => {
  test('same data dir and port: certificate, admin credentials, signing keys and issued tokens survive', async () => {
    const first = await start();
    const credentialsFile = path.join(first.dataDir, 'admin-credentials.json');
    const keyFile = path.join(first.dataDir, 'tls', 'key.pem');
    const certBefore = fs.readFileSync(first.certFile);
    const keyBefore = fs.readFileSync(keyFile);
    const credentialsBefore = fs.readFileSync(credentialsFile);
    assert.match(first.output(), /Created the default tenant/);
    const token = await managementToken(first);
    const kidsBefore = await kids(first);
    assert.ok(kidsBefore.length >= 1);

    assert.equal(await first.stop(), 0, `first run did not exit cleanly:\n${first.output()}`);

    const second = await start({ dataDir: first.dataDir, port: first.port });
    assert.doesNotMatch(second.output(), /Created the default tenant/, 'the default tenant must not be created twice');
    assert.ok(fs.readFileSync(second.certFile).equals(certBefore), 'cert.pem changed across the restart');
    assert.ok(fs.readFileSync(keyFile).equals(keyBefore), 'key.pem changed across the restart');
    assert.ok(fs.readFileSync(credentialsFile).equals(credentialsBefore), 'admin-credentials.json changed across the restart');

    const list = await get(second, '/api/v2/resource-servers', token);
    assert.equal(list.status, 200, `the token issued before the restart was refused: ${list.text}`);
    assert.ok(list.json<{ identifier: string }[]>().some((rs) => rs.identifier === `https://${second.domain}/api/v2/`));
    assert.deepEqual(await kids(second), kidsBefore, 'the JWKS changed across the restart');

    const fresh = await managementToken(second);
    assert.equal((await get(second, '/api/v2/client-grants', fresh)).status, 200);
    assert.equal(await second.stop(), 0);
  });
});

describe('the generated TLS certificate', () => {
  test('valid for at least a year, for localhost and 127.0.0.1, and the one the server presents', async () => {
    const server = await start();
    const certificate = new X509Certificate(fs.readFileSync(server.certFile));
    const now = Date.now();
    assert.ok(new Date(certificate.validFrom).getTime() <= now, `validFrom ${certificate.validFrom} is in the future`);
    const remaining = new Date(certificate.validTo).getTime() - now;
    assert.ok(remaining >= 365 * DAY_MS, `valid only until ${certificate.validTo}`);

    const names = (certificate.subjectAltName ?? '').split(', ');
    assert.ok(names.includes('DNS:localhost'), `SAN: ${certificate.subjectAltName}`);
    assert.ok(names.includes('IP Address:127.0.0.1'), `SAN: ${certificate.subjectAltName}`);
    assert.equal(certificate.checkHost('localhost'), 'localhost');
    assert.equal(certificate.checkIP('127.0.0.1'), '127.0.0.1');

    const served = await servedCertificate(server);
    assert.equal(served.fingerprint256, certificate.fingerprint256);

    // And a client trusting it reaches the server by IP address too.
    const health = await httpsRequest(`https://127.0.0.1:${server.port}/health`, { ca: ca(server) });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json(), { status: 'ok' });
  });
});

interface SlowRequest {
  /** Resolves once the server has read the head (its `100 Continue`) and the first half of the body is on the wire. */
  started: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<HttpResult>;
}

/** A token request whose body arrives in two parts, so that it stays in flight as long as we like. */
function slowTokenRequest(url: string, agent: https.Agent, body: string): SlowRequest {
  const half = Math.floor(body.length / 2);
  let req!: ReturnType<typeof https.request>;
  const response = new Promise<HttpResult>((resolve, reject) => {
    req = https.request(
      url,
      // Expect: 100-continue: the server's `100 Continue` says it has read the request's head (RFC 9110 §10.1.1).
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
        });
      },
    );
    req.on('error', reject);
  });
  // The server has read the head: a request in flight, not an idle connection that shutting down may close.
  const started = new Promise<void>((resolve, reject) => {
    req.once('continue', () => req.write(body.slice(0, half), (error) => (error ? reject(error) : resolve())));
    req.once('response', () => reject(new Error('answered before the body was sent')));
  });
  return { started, finish: () => req.end(body.slice(half)), response };
}

describe('graceful shutdown', () => {
  test('SIGTERM: idle keep-alive connections close, new ones are refused, in-flight requests finish with 200, exit 0', async () => {
    const server = await start();
    const admin = server.admin();
    const certificate = ca(server);
    const idleAgent = new https.Agent({ keepAlive: true, ca: certificate });
    const busyAgent = new https.Agent({ keepAlive: true, ca: certificate });
    try {
      // An idle kept-alive connection: one finished request, socket left open.
      const idle = await new Promise<{ socket: Socket; status: number }>((resolve, reject) => {
        const req = https.request(`${server.baseUrl}/health`, { agent: idleAgent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ socket: req.socket!, status: res.statusCode ?? 0 }));
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(idle.status, 200);
      let idleClosed = false;
      idle.socket.once('close', () => (idleClosed = true));
      await sleep(100);
      assert.equal(idleClosed, false, 'the server should keep the connection alive while running');

      // N token requests in flight: headers and half of the body sent.
      const N = 8;
      const body = tokenBody(admin.client_id, admin.client_secret, admin.audience);
      const inflight = Array.from({ length: N }, () => slowTokenRequest(`${server.baseUrl}/oauth/token`, busyAgent, body));
      await Promise.all(inflight.map((r) => r.started));

      const exited = exitOf(server);
      server.child.kill('SIGTERM');
      assert.ok(
        await waitFor(() => server.output().includes('shutting down'), 5000),
        `no shutdown log line after SIGTERM:\n${server.output()}`,
      );
      assert.ok(
        await waitFor(async () => (await connectAttempt(server, certificate)) === 'ECONNREFUSED', 5000),
        'the listener still accepts new connections after SIGTERM',
      );
      assert.ok(await waitFor(() => idleClosed, 5000), 'the idle keep-alive connection was not closed by the server');
      assert.equal(server.child.exitCode, null, 'the process exited while requests were still in flight');

      const finishedAt = Date.now();
      for (const request of inflight) request.finish();
      const results = await Promise.all(inflight.map((r) => r.response));
      for (const result of results) {
        assert.equal(result.status, 200, result.text);
        const token = result.json<{ access_token?: string; token_type?: string }>();
        assert.equal(token.token_type, 'Bearer');
        assert.equal(typeof token.access_token, 'string');
      }

      const code = await Promise.race([exited, sleep(15_000).then(() => 'still running' as const)]);
      const connection = results.map((r) => r.headers.connection ?? '(none)').join(', ');
      assert.equal(
        code,
        0,
        `exit code after SIGTERM (Connection headers of the in-flight responses: ${connection}):\n${server.output().slice(-2000)}`,
      );
      const exitDelay = Date.now() - finishedAt;
      assert.ok(exitDelay < 5000, `the process took ${exitDelay} ms to exit after the last response`);
    } finally {
      idleAgent.destroy();
      busyAgent.destroy();
    }
  });
});

describe('command line and configuration', () => {
  const VARIABLES = [
    'PORT',
    'HOST',
    'GATEHOUSE_DATA_DIR',
    'DATABASE_URL',
    'GATEHOUSE_DOMAIN',
    'GATEHOUSE_ADMIN_CLIENT_ID',
    'GATEHOUSE_ADMIN_CLIENT_SECRET',
    'TLS_CERT_FILE',
    'TLS_KEY_FILE',
    'GATEHOUSE_HTTP',
    'GATEHOUSE_MASTER_KEY',
    'REDIS_URL',
    'LOG_LEVEL',
    'GATEHOUSE_RATE_LIMIT_MANAGEMENT',
    'GATEHOUSE_RATE_LIMIT_AUTHENTICATION',
  ];

  /** The environment of the test runner without any Gatehouse setting. */
  function cleanEnvironment(): NodeJS.ProcessEnv {
    const env = { ...process.env };
    for (const name of VARIABLES) delete env[name];
    delete env.NODE_OPTIONS;
    return env;
  }

  test('--help prints every environment variable and exits 0', async () => {
    const dataDir = tempDir('gatehouse-e2e-help-');
    dirs.push(dataDir);
    for (const flag of ['--help', '-h']) {
      const result = await runNode([MAIN, flag], { cwd: ROOT, env: { ...cleanEnvironment(), GATEHOUSE_DATA_DIR: dataDir }, timeoutMs: 15_000 });
      assert.equal(result.code, 0, result.stderr);
      for (const name of VARIABLES) assert.match(result.stdout, new RegExp(`^\\s+${name}\\s`, 'm'), `${flag} does not document ${name}`);
      assert.match(result.stdout, /Usage:/);
    }
    assert.deepEqual(fs.readdirSync(dataDir), [], '--help must not create anything in the data directory');
  });

  const BAD: [string, Record<string, string>, string][] = [
    ['PORT=abc', { PORT: 'abc' }, 'PORT'],
    ['PORT=70000', { PORT: '70000' }, 'PORT'],
    ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['GATEHOUSE_HTTP=maybe', { GATEHOUSE_HTTP: 'maybe' }, 'GATEHOUSE_HTTP'],
    ['GATEHOUSE_MASTER_KEY=short', { GATEHOUSE_MASTER_KEY: 'c2hvcnQ=' }, 'GATEHOUSE_MASTER_KEY'],
    ['REDIS_URL=http://…', { REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
    ['DATABASE_URL=mysql://…', { DATABASE_URL: 'mysql://root@127.0.0.1/gatehouse' }, 'DATABASE_URL'],
    ['GATEHOUSE_DOMAIN with a scheme', { GATEHOUSE_DOMAIN: 'https://auth.example.com/' }, 'GATEHOUSE_DOMAIN'],
    ['GATEHOUSE_ADMIN_CLIENT_ID alone', { GATEHOUSE_ADMIN_CLIENT_ID: 'admin' }, 'GATEHOUSE_ADMIN_CLIENT_SECRET'],
    [
      'GATEHOUSE_ADMIN_CLIENT_SECRET too short',
      { GATEHOUSE_ADMIN_CLIENT_ID: 'admin', GATEHOUSE_ADMIN_CLIENT_SECRET: 'short' },
      'GATEHOUSE_ADMIN_CLIENT_SECRET',
    ],
    ['TLS_CERT_FILE alone', { TLS_CERT_FILE: '/nonexistent/cert.pem' }, 'TLS_KEY_FILE'],
    ['GATEHOUSE_RATE_LIMIT_MANAGEMENT=fast', { GATEHOUSE_RATE_LIMIT_MANAGEMENT: 'fast' }, 'GATEHOUSE_RATE_LIMIT_MANAGEMENT'],
  ];

  for (const [label, env, variable] of BAD) {
    test(`a bad value (${label}) stops start-up with a message naming ${variable}`, async () => {
      const dataDir = tempDir('gatehouse-e2e-badenv-');
      dirs.push(dataDir);
      const port = String(await freePort());
      const result = await runNode([MAIN], {
        cwd: ROOT,
        env: { ...cleanEnvironment(), PORT: port, GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
        timeoutMs: 15_000,
      });
      assert.notEqual(result.code, null, `killed, it did not exit by itself:\n${result.stdout}\n${result.stderr}`);
      assert.notEqual(result.code, 0, `exited 0:\n${result.stdout}\n${result.stderr}`);
      assert.ok(result.stderr.includes(variable), `stderr does not name ${variable}:\n${result.stderr}`);
      assert.doesNotMatch(result.stderr, /^\s+at /m, `a configuration error should not print a stack trace:\n${result.stderr}`);
      assert.doesNotMatch(result.stdout, /Gatehouse is listening/);
    });
  }
});

describe('admin credentials from the environment', () => {
  test('GATEHOUSE_ADMIN_CLIENT_ID/SECRET are the credentials that work; admin-credentials.json is not written', async () => {
    const clientId = `e2e-admin-${randomBytes(4).toString('hex')}`;
    const clientSecret = randomBytes(32).toString('base64url');
    const server = await start({ env: { GATEHOUSE_ADMIN_CLIENT_ID: clientId, GATEHOUSE_ADMIN_CLIENT_SECRET: clientSecret } });
    assert.equal(fs.existsSync(path.join(server.dataDir, 'admin-credentials.json')), false, 'admin-credentials.json was written');
    assert.ok(!server.output().includes(clientSecret), 'the configured secret was printed');

    const right = await requestManagementToken(server, ca(server), clientId, clientSecret);
    assert.equal(right.status, 200, right.text);
    const token = right.json<{ access_token: string }>().access_token;
    const grants = await get(server, `/api/v2/client-grants?client_id=${clientId}`, token);
    assert.equal(grants.status, 200, grants.text);
    assert.deepEqual(
      grants.json<{ client_id: string; audience: string }[]>().map((g) => [g.client_id, g.audience]),
      [[clientId, `https://${server.domain}/api/v2/`]],
    );

    const wrong = await requestManagementToken(server, ca(server), clientId, `${clientSecret}x`);
    assert.equal(wrong.status, 401, wrong.text);
    assert.deepEqual(wrong.json(), { error: 'access_denied', error_description: 'Unauthorized' });
  });
});

describe('secrets in the log', () => {
  test('the admin client secret (and tokens) never appear in the log output, even at LOG_LEVEL=trace', async () => {
    const server = await start({ env: { LOG_LEVEL: 'trace' } });
    const admin = server.admin();
    const certificate = ca(server);
    const wrongSecret = `${admin.client_secret.slice(0, -4)}WXYZ`;
    const bannerEnd = server.output().length;
    const basic = (secret: string) => `Basic ${Buffer.from(`${admin.client_id}:${secret}`).toString('base64')}`;
    const tokenUrl = `${server.baseUrl}/oauth/token`;

    const wrongJson = await requestManagementToken(server, certificate, admin.client_id, wrongSecret);
    assert.equal(wrongJson.status, 401);
    const wrongForm = await httpsRequest(tokenUrl, {
      ca: certificate,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: wrongSecret, audience: admin.audience }).toString(),
    });
    assert.equal(wrongForm.status, 401);
    const wrongBasic = await httpsRequest(tokenUrl, {
      ca: certificate,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(wrongSecret) },
      body: JSON.stringify({ grant_type: 'client_credentials', audience: admin.audience }),
    });
    assert.equal(wrongBasic.status, 401);

    const right = await requestManagementToken(server, certificate, admin.client_id, admin.client_secret);
    assert.equal(right.status, 200, right.text);
    const rightBasic = await httpsRequest(tokenUrl, {
      ca: certificate,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(admin.client_secret) },
      body: JSON.stringify({ grant_type: 'client_credentials', audience: admin.audience }),
    });
    assert.equal(rightBasic.status, 200, rightBasic.text);
    const token = right.json<{ access_token: string }>().access_token;
    assert.equal((await get(server, '/api/v2/resource-servers', token)).status, 200);
    assert.equal((await get(server, '/api/v2/resource-servers', `${token.slice(0, -6)}AAAAAA`)).status, 401);

    assert.equal(await server.stop(), 0); // all output flushed
    const output = server.output();
    const log = output.slice(bannerEnd);
    assert.match(log, /"path":"\/oauth\/token"/, 'token requests were not logged at all; the check below would be vacuous');
    assert.match(log, /"status":401/);
    assert.ok(!log.includes(admin.client_secret), 'the admin client secret appears in the log');
    assert.ok(!log.includes(wrongSecret), 'a presented (wrong) client secret appears in the log');
    assert.ok(!log.includes(token.split('.')[2]!), 'an access token appears in the log');
    assert.ok(!log.includes(basic(admin.client_secret).slice(6)), 'a Basic credential appears in the log');
    // The first-start banner prints the generated secret once, on purpose; nothing else does.
    assert.equal(output.split(admin.client_secret).length - 1, 1, 'the secret is printed more than once');
    assert.match(output.slice(0, bannerEnd), new RegExp(`client_secret:\\s+${admin.client_secret}`));
  });
});

describe('NODE_OPTIONS', () => {
  test('is honoured by the server process (--require preload and --max-old-space-size)', async () => {
    const dir = tempDir('gatehouse-e2e-node-options-');
    dirs.push(dir);
    const preload = path.join(dir, 'preload.cjs');
    const marker = path.join(dir, 'marker.json');
    fs.writeFileSync(
      preload,
      `require('node:fs').writeFileSync(process.env.GATEHOUSE_E2E_MARKER, JSON.stringify({
        pid: process.pid,
        argv: process.argv,
        heapLimit: require('node:v8').getHeapStatistics().heap_size_limit,
      }));\n`,
    );
    const server = await start({
      env: { NODE_OPTIONS: `--require "${preload}" --max-old-space-size=200`, GATEHOUSE_E2E_MARKER: marker },
    });
    assert.ok(fs.existsSync(marker), 'the --require preload from NODE_OPTIONS did not run');
    const seen = JSON.parse(fs.readFileSync(marker, 'utf8')) as { pid: number; argv: string[]; heapLimit: number };
    assert.equal(seen.pid, server.child.pid, 'the preload ran in another process than the server');
    assert.equal(seen.argv[1], MAIN);
    // The default limit on this machine is gigabytes. Node 24 counts the young generation (which
    // bin/gatehouse.cjs sizes) in heap_size_limit too: about 410 MiB with 200 for the old space.
    assert.ok(seen.heapLimit < 600 * 1024 * 1024, `heap limit ${seen.heapLimit} does not reflect --max-old-space-size=200`);
    assert.equal((await get(server, '/health')).status, 200);
  });
});

const pgAvailable = await postgresAvailable();

describe('PostgreSQL', () => {
  test(
    'with DATABASE_URL the server starts on PostgreSQL, issues tokens and serves the Management API',
    { skip: pgAvailable ? false : `PostgreSQL is unreachable at ${POSTGRES_ADMIN_URL} (set GATEHOUSE_TEST_POSTGRES_URL)` },
    async () => {
      const database = await createTestDatabase();
      databases.push(database);
      const server = await start({ env: { DATABASE_URL: database.url } });
      assert.match(server.output(), /"database":"postgres"/);
      assert.equal(fs.existsSync(path.join(server.dataDir, 'gatehouse.db')), false, 'a SQLite file was created although DATABASE_URL is set');

      const token = await managementToken(server);
      const list = await get(server, '/api/v2/resource-servers', token);
      assert.equal(list.status, 200, list.text);
      assert.ok(list.json<{ identifier: string }[]>().some((rs) => rs.identifier === `https://${server.domain}/api/v2/`));

      const identifier = `https://pg-api-${randomBytes(4).toString('hex')}.example.com/`;
      const created = await httpsRequest(`${server.baseUrl}/api/v2/resource-servers`, {
        ca: ca(server),
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ identifier, name: 'PostgreSQL API', scopes: [{ value: 'read:rows' }] }),
      });
      assert.equal(created.status, 201, created.text);
      const id = created.json<{ id: string }>().id;

      // The row is in PostgreSQL, not somewhere else.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const rows = await client.query<{ identifier: string }>('SELECT identifier FROM resource_servers WHERE id = $1', [id]);
        assert.deepEqual(
          rows.rows.map((r) => r.identifier),
          [identifier],
        );
      } finally {
        await client.end();
      }

      // A restart on the same database keeps tenant, keys and data.
      assert.equal(await server.stop(), 0);
      const again = await start({ dataDir: server.dataDir, port: server.port, env: { DATABASE_URL: database.url } });
      assert.doesNotMatch(again.output(), /Created the default tenant/);
      const fetched = await get(again, `/api/v2/resource-servers/${id}`, token);
      assert.equal(fetched.status, 200, fetched.text);
      assert.equal(fetched.json<{ identifier: string }>().identifier, identifier);
      assert.equal(await again.stop(), 0);
    },
  );
});
