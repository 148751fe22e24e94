/**
 * Traces over OpenTelemetry (src/platform/tracing/), against the built server
 * as a process: with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP
 * receiver started here (a plain node:http server taking the JSON the exporter
 * sends), a client-credentials token request, a password-realm login, a
 * /userinfo call with the token in the query string and Management API calls,
 * on PostgreSQL with Redis, arrive as spans with their route pattern, method,
 * status, tenant and grant type, PostgreSQL's queries as child spans, and
 * nothing in the whole payload holds a secret, a password, a token or an
 * Authorization header.
 *
 * Without the variable, no OpenTelemetry module is loaded at all: every module
 * the process resolves (ES module resolve hook and CommonJS resolution,
 * installed with --import) is written to a file, and the same recorder sees
 * the SDK when tracing is on.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '../helpers/app.js';
import { createTestDatabase, postgresAvailable, POSTGRES_ADMIN_URL, type TestDatabase } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, httpsRequest, requestManagementToken, waitFor } from './support/https.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Traced-but-never-7-recorded';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  name: string;
  kind: number;
  parentSpanId?: string;
  traceId: string;
  attributes?: { key: string; value: OtlpValue }[];
}
interface OtlpPayload {
  resourceSpans: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const SERVER_KIND = 2;

/** A span's attributes as a plain record (strings and numbers). */
function attributesOf(span: { attributes?: { key: string; value: OtlpValue }[] }): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const { key, value } of span.attributes ?? []) out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
  return out;
}

/** A local OTLP/HTTP receiver: keeps the raw body of every POST /v1/traces. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; paths: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A preload (`--import`) that appends every module the process resolves to `logFile`: ES modules through a
 * resolve hook (module.register), CommonJS through Module._resolveFilename.
 */
function moduleRecorder(dir: string, logFile: string): string {
  const hooks = path.join(dir, 'record-hooks.mjs');
  fs.writeFileSync(
    hooks,
    `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  fs.appendFileSync(${JSON.stringify(logFile)}, result.url + '\\n');
  return result;
}
`,
  );
  const preload = path.join(dir, 'record-modules.mjs');
  fs.writeFileSync(
    preload,
    `import fs from 'node:fs';
import Module, { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const filename = resolveFilename.apply(this, args);
  fs.appendFileSync(${JSON.stringify(logFile)}, filename + '\\n');
  return filename;
};
`,
  );
  return preload;
}

const servers: ServerProcess[] = [];
const dirs: string[] = [];
const databases: TestDatabase[] = [];

after(async () => {
  await cleanUp(servers, dirs);
  for (const database of databases) await database.drop();
});

const pgAvailable = await postgresAvailable();

describe('traces over OTLP', { skip: pgAvailable ? false : `PostgreSQL is unreachable at ${POSTGRES_ADMIN_URL} (set GATEHOUSE_TEST_POSTGRES_URL)` }, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: ServerProcess;
  let modulesLog: string;
  const secrets: Record<string, string> = {};
  let userId: string;

  before(async () => {
    receiver = await startReceiver();
    const dir = tempDir('gatehouse-otel-');
    dirs.push(dir);
    modulesLog = path.join(dir, 'modules.log');
    const database = await createTestDatabase();
    databases.push(database);
    server = await startServerProcess({
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // Batches sent every 200 ms rather than every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '200',
        NODE_OPTIONS: `--import=${pathToFileURL(moduleRecorder(dir, modulesLog)).href}`,
      },
    });
    servers.push(server);
    const ca = fs.readFileSync(server.certFile);
    const admin = server.admin();
    secrets.adminSecret = admin.client_secret;
    secrets.password = PASSWORD;

    // 1. A token for the Management API: client credentials with the client secret (JSON body).
    const managementToken = await requestManagementToken(server, ca, admin.client_id, admin.client_secret);
    assert.equal(managementToken.status, 200, managementToken.text);
    secrets.managementToken = managementToken.json<{ access_token: string }>().access_token;
    const authorization = `Bearer ${secrets.managementToken}`;
    secrets.authorization = authorization;

    // 2. Management API calls: an application, its database connection and a user with a password.
    const management = async (method: string, url: string, body?: unknown) => {
      const res = await httpsRequest(`${server.baseUrl}/api/v2${url}`, {
        ca,
        method,
        headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text}`);
      return res.json<Record<string, string>>();
    };
    const app = await management('POST', '/clients', { name: 'Traced app', app_type: 'regular_web', grant_types: [PASSWORD_REALM], token_endpoint_auth_method: 'client_secret_post' });
    secrets.appSecret = app.client_secret!;
    await management('POST', '/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    userId = (await management('POST', '/users', { connection: REALM, email: 'traced@example.com', password: PASSWORD })).user_id!;
    await management('GET', `/users/${encodeURIComponent(userId)}`);

    // 3. A password-realm login (form body).
    const login = await httpsRequest(`${server.baseUrl}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: PASSWORD_REALM, client_id: app.client_id!, client_secret: app.client_secret!, username: 'traced@example.com', password: PASSWORD, realm: REALM, scope: 'openid email' }).toString(),
    });
    assert.equal(login.status, 200, login.text);
    const tokens = login.json<{ access_token: string; id_token: string }>();
    secrets.userToken = tokens.access_token;
    secrets.idToken = tokens.id_token;

    // 4. /userinfo with the access token in the query string (RFC 6750 §2.3).
    const userinfo = await httpsRequest(`${server.baseUrl}/userinfo?access_token=${encodeURIComponent(tokens.access_token)}`, { ca });
    assert.equal(userinfo.status, 200, userinfo.text);
    assert.equal(userinfo.json<{ email: string }>().email, 'traced@example.com');

    // The last batch is sent on shutdown.
    assert.equal(await server.stop(), 0, server.output());
    assert.ok(await waitFor(() => receiver.bodies.length > 0, 10_000), `no spans arrived: ${receiver.paths.join(', ')}`);
  });

  after(async () => {
    await receiver?.close();
  });

  const spans = (): OtlpSpan[] =>
    receiver.bodies.flatMap((body) => (JSON.parse(body) as OtlpPayload).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));

  /** The request spans (kind SERVER) of a route pattern. */
  const requestSpans = (route: string) =>
    spans()
      .filter((s) => s.kind === SERVER_KIND)
      .map((s) => ({ span: s, attributes: attributesOf(s) }))
      .filter((s) => s.attributes['http.route'] === route);

  const method = (a: Record<string, unknown>) => a['http.request.method'] ?? a['http.method'];
  const status = (a: Record<string, unknown>) => a['http.response.status_code'] ?? a['http.status_code'];

  test('the spans arrive over OTLP/HTTP (JSON), from the service "gatehouse"', () => {
    assert.ok(receiver.paths.every((p) => p.startsWith('POST /v1/traces application/json')), receiver.paths.join(', '));
    const resource = attributesOf((JSON.parse(receiver.bodies[0]!) as OtlpPayload).resourceSpans[0]!.resource ?? {});
    assert.equal(resource['service.name'], 'gatehouse');
  });

  test('each token request names its route, method, status, tenant and grant type', () => {
    const tokenSpans = requestSpans('/oauth/token');
    const grants = tokenSpans.map((s) => s.attributes['gatehouse.oauth.grant_type']).sort();
    assert.deepEqual(grants, ['client_credentials', PASSWORD_REALM].sort());
    for (const { span, attributes } of tokenSpans) {
      assert.equal(span.name, 'POST /oauth/token');
      assert.equal(method(attributes), 'POST');
      assert.equal(status(attributes), 200);
      assert.equal(attributes['gatehouse.tenant.domain'], server.domain);
      assert.match(String(attributes['gatehouse.tenant.id']), /\S/);
    }
  });

  test('Management API and /userinfo requests carry the route pattern, never the raw path', () => {
    const [user] = requestSpans('/api/v2/users/:id');
    assert.ok(user, `no span of GET /api/v2/users/:id among ${spans().map((s) => s.name).join(', ')}`);
    assert.equal(user.span.name, 'GET /api/v2/users/:id');
    assert.equal(method(user.attributes), 'GET');
    assert.equal(status(user.attributes), 200);
    assert.equal(user.attributes['gatehouse.tenant.domain'], server.domain);
    assert.equal(requestSpans('/api/v2/clients')[0]?.attributes && status(requestSpans('/api/v2/clients')[0]!.attributes), 201);

    const [userinfo] = requestSpans('/userinfo');
    assert.ok(userinfo, 'no span of /userinfo');
    assert.equal(status(userinfo.attributes), 200);
    for (const key of ['url.full', 'http.url', 'http.target', 'url.path']) {
      const value = userinfo.attributes[key];
      if (value !== undefined) assert.doesNotMatch(String(value), /\?/, `${key} kept the query string: ${value}`);
    }
    assert.equal(userinfo.attributes['url.query'], undefined);
  });

  test("PostgreSQL's queries are child spans of the requests, without their values", () => {
    const all = spans();
    const queries = all.filter((s) => attributesOf(s)['db.system'] === 'postgresql' || attributesOf(s)['db.system.name'] === 'postgresql');
    assert.ok(queries.length > 0, `no PostgreSQL span among ${all.map((s) => s.name).join(', ')}`);
    const requestTraces = new Set(all.filter((s) => s.kind === SERVER_KIND).map((s) => s.traceId));
    for (const query of queries) {
      assert.ok(query.parentSpanId, `a query span without a parent: ${query.name}`);
      assert.ok(requestTraces.has(query.traceId), `a query outside any request's trace: ${query.name}`);
      const attributes = attributesOf(query);
      assert.equal(attributes['db.postgresql.values'], undefined);
      const statement = attributes['db.statement'] ?? attributes['db.query.text'];
      if (statement !== undefined) assert.doesNotMatch(String(statement), /traced@example\.com/);
    }
  });

  test('no secret, password, token or Authorization header anywhere in what was sent', () => {
    const payload = receiver.bodies.join('\n');
    assert.ok(payload.length > 0);
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(value.length >= 8, `${name} is too short to search for`);
      for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
        assert.equal(payload.includes(form), false, `the ${name} was sent in a span`);
      }
    }
    // The JWTs' signatures alone, in case a token was cut.
    for (const token of [secrets.managementToken!, secrets.userToken!]) assert.equal(payload.includes(token.split('.')[2]!), false);
  });

  test('the module recorder sees the OpenTelemetry SDK when tracing is on', () => {
    const modules = fs.readFileSync(modulesLog, 'utf8');
    assert.match(modules, /node_modules\/@opentelemetry\/sdk-node\//);
    assert.match(modules, /node_modules\/@opentelemetry\/instrumentation-pg\//);
  });
});

test('without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry module is loaded', async () => {
  const dir = tempDir('gatehouse-otel-off-');
  dirs.push(dir);
  const modulesLog = path.join(dir, 'modules.log');
  const env: Record<string, string> = { NODE_OPTIONS: `--import=${pathToFileURL(moduleRecorder(dir, modulesLog)).href}`, OTEL_EXPORTER_OTLP_ENDPOINT: '' };
  const server = await startServerProcess({ env });
  servers.push(server);
  const ca = fs.readFileSync(server.certFile);
  const admin = server.admin();
  const token = await requestManagementToken(server, ca, admin.client_id, admin.client_secret);
  assert.equal(token.status, 200, token.text);
  assert.equal(await server.stop(), 0);
  assert.match(server.output(), /"tracing":"off"/);
  const modules = fs.readFileSync(modulesLog, 'utf8').split('\n');
  // The recorder worked: the server's bundle and its packages kept in node_modules were seen.
  assert.ok(modules.some((m) => m.includes('/dist/server/main.js')), 'the recorder saw nothing');
  assert.ok(modules.some((m) => m.includes('/node_modules/better-sqlite3/')), 'the recorder missed CommonJS requires');
  const loaded = modules.filter((m) => /@opentelemetry|require-in-the-middle|import-in-the-middle/.test(m));
  assert.deepEqual(loaded, []);
});
