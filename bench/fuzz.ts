/**
 * `npm run fuzz`: a bounded fuzz of every route of the built server, run as a process (not a test:
 * it takes minutes). It asserts nothing about speed; it reports:
 *
 * - the answers by status class, and every 5xx with the request that caused it (target: none);
 * - the tenant log: events the server produced, rows written and rows dropped, read from its
 *   metrics after a graceful stop and from the database (target: rows written = events produced);
 * - the server's RSS idle before the fuzz and idle after it (target: within 1.5x).
 *
 * The routes are the server's own (Fastify's route table of an app built in this process on a
 * throwaway data directory), each `:param` filled with a real id of a fixture the fuzz created, a
 * random id, a name of Object.prototype or a hostile string; query strings, bodies (JSON, form,
 * multipart, XML, raw bytes, truncated), content types in any letter case, repeated parameters,
 * deep nesting, NUL characters and oversized values come from a seeded generator (FUZZ_SEED), so a
 * run can be repeated.
 *
 * Every request goes to the server under test on loopback. So that no value the fuzz sends (a URL,
 * a host name of an SMTP provider) can make the server reach out anywhere, the script re-runs
 * itself in a network namespace of its own with only a loopback interface (`unshare -n`, as root);
 * PostgreSQL is then reached through its Unix socket. FUZZ_NETNS=0 skips that (the server's
 * outbound guard still refuses loopback and private addresses).
 *
 * Settings: FUZZ_REQUESTS (default 150000), FUZZ_CONCURRENCY (32), FUZZ_SEED (1),
 * FUZZ_DATABASE=sqlite|postgres (sqlite), FUZZ_POSTGRES_SOCKET (/var/run/postgresql).
 * Exit status 0 when every target is met, 1 otherwise (or when the fuzz broke).
 */
import { spawnSync } from 'node:child_process';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BenchError,
  freePort,
  log,
  managementCall,
  readAdminCredentials,
  readMemory,
  removeOnCleanup,
  request,
  runMain,
  sleep,
  startGatehouse,
  stopChild,
  type Endpoint,
  type StartedServer,
} from './lib.js';

const REQUESTS = intSetting('FUZZ_REQUESTS', 150_000);
const CONCURRENCY = intSetting('FUZZ_CONCURRENCY', 32);
const SEED = intSetting('FUZZ_SEED', 1);
/** Requests of the same kind sent before the idle RSS is read as the level before the fuzz (pools and caches started). */
const WARMUP = intSetting('FUZZ_WARMUP', 2_000);
const DATABASE = process.env.FUZZ_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const PG_SOCKET = process.env.FUZZ_POSTGRES_SOCKET ?? '/var/run/postgresql';
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789';

function intSetting(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${name} must be a positive integer`);
    process.exit(2);
  }
  return n;
}

// ---------------------------------------------------------------------------
// A seeded generator (mulberry32), so that a run can be repeated with FUZZ_SEED.

let state = SEED >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;
/** encodeURIComponent, but a lone surrogate becomes the bytes of an invalid UTF-8 sequence instead of an exception. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const randomHex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

const PROTO_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
const HOSTILE = [
  '', ' ', 'a', '0', '-1', '1e309', '9'.repeat(400), 'x'.repeat(5000), 'null', 'true', '[]', '{}',
  '\u0000', 'a\u0000b', '%00', '../../etc/passwd', '..%2F..%2F', '\u202e\u0301\ud83d\ude00', '\ud800', '<script>alert(1)</script>',
  "' or 1=1 --", '${7*7}', '{{7*7}}', '*', '**', '"', '\\', 'http://127.0.0.1:1/cb', 'https://localhost:1/', 'javascript:alert(1)',
  'auth0|' + 'a'.repeat(300), 'email:"a@b.c"', 'name:*', 'NOT', '(((((', 'user_id:' + '"'.repeat(50),
];
const ENUMS = [
  'code', 'token', 'id_token', 'code id_token', 'none', 'login', 'consent', 'select_account', 'query', 'fragment', 'form_post', 'web_message',
  'client_credentials', 'password', 'authorization_code', 'refresh_token', 'http://auth0.com/oauth/grant-type/password-realm',
  'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange', 'http://auth0.com/oauth/grant-type/mfa-otp',
  'http://auth0.com/oauth/grant-type/passwordless/otp', 'urn:openid:params:grant-type:ciba', 'openid', 'openid profile email offline_access',
  'S256', 'plain', 'email', 'sms', 'link', 'code', 'auth0', 'samlp', 'waad', 'google-oauth2', 'oidc', 'sms', 'email', 'v3', 'v2', 'true', 'false',
  'regular_web', 'spa', 'native', 'non_interactive', 'client_secret_post', 'client_secret_basic', 'private_key_jwt',
  'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', 'otp', 'push-notification', 'recovery-code', 'webauthn-roaming',
];
const PARAM_NAMES = [
  'grant_type', 'client_id', 'client_secret', 'response_type', 'response_mode', 'redirect_uri', 'scope', 'audience', 'state', 'nonce',
  'connection', 'realm', 'username', 'password', 'prompt', 'page', 'per_page', 'include_totals', 'q', 'search_engine', 'fields',
  'include_fields', 'sort', 'from', 'take', 'code', 'code_verifier', 'code_challenge', 'code_challenge_method', 'login_hint',
  'organization', 'invitation', 'screen_hint', 'ui_locales', 'max_age', 'request', 'request_uri', 'id_token_hint',
  'post_logout_redirect_uri', 'returnTo', 'federated', 'ticket', 'email', 'phone_number', 'send', 'authParams', 'connection_id',
  'strategy', 'name', 'identifier', 'user_id', 'type', 'checkpoint', 'access_token', 'refresh_token', 'token', 'token_type_hint',
  'SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg', 'Signature', 'wa', 'wtrealm', 'wctx', 'wreply', 'login_ticket', 'user_code',
  'auth_req_id', 'binding_message', 'mfa_token', 'otp', 'oob_code', 'binding_code', 'authenticator_types', 'client_assertion',
  'client_assertion_type', 'subject_token', 'subject_token_type', 'verification_code', 'permissions', 'roles', 'users', 'members',
  'enabled_clients', 'options', 'callbacks', 'allowed_logout_urls', 'web_origins', 'app_type', 'is_first_party', 'scopes', 'settings',
  'enabled', 'friendly_name', 'user_metadata', 'app_metadata', 'blocked', 'email_verified', 'given_name', 'picture', 'nickname',
  'flags', 'friendly_name', 'support_email', 'session_lifetime', 'enabled_locales', 'colors', 'logo_url', 'template', 'body', 'from',
  'subject', 'syntax', 'resultUrl', 'urlLifetimeInSeconds', 'includeEmailInRedirect', 'mark_email_as_verified', 'ttl_sec', 'format',
  'limit', 'upsert', 'external_id', 'send_completion_email', 'users_import', 'sink', 'filters', 'status', 'provider', 'credentials',
  'default_from_address', 'domain', 'custom_client_ip_header', 'tls_policy', 'identity', 'provider_id', 'secondary_user_id',
  ...PROTO_NAMES,
];

/** A value of any JSON type, nested up to `depth`; now and then a hostile shape (deep nesting, a big array, a prototype key). */
function jsonValue(depth: number): unknown {
  const r = random();
  if (depth <= 0 || r < 0.45) return scalar();
  if (r < 0.55) return Array.from({ length: Math.floor(random() * 4) }, () => jsonValue(depth - 1));
  if (r < 0.57) return Array.from({ length: 1500 }, () => randomHex(8));
  if (r < 0.58) {
    let nested: unknown = 'deep';
    for (let i = 0; i < 200; i++) nested = { a: nested };
    return nested;
  }
  return jsonObject(depth - 1);
}
function scalar(): unknown {
  const r = random();
  if (r < 0.35) return pick(HOSTILE);
  if (r < 0.6) return pick(ENUMS);
  if (r < 0.7) return pick([0, -1, 1, 1.5, 2 ** 53, 1e308, -0, 100000]);
  if (r < 0.75) return pick([true, false, null]);
  if (r < 0.85) return pick(fixtureIds);
  return pick(PROTO_NAMES);
}
function jsonObject(depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.floor(random() * 6);
  for (let i = 0; i < n; i++) out[pick(PARAM_NAMES)] = jsonValue(depth);
  return out;
}
function jsonText(): string {
  let text = JSON.stringify(jsonObject(3));
  if (chance(0.05)) text = text.replace('{', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},');
  if (chance(0.05)) text = text.slice(0, Math.floor(random() * text.length)); // truncated
  if (chance(0.02)) text = '[' + text + ']';
  return text;
}
function formText(): string {
  const parts: string[] = [];
  const n = Math.floor(random() * 8);
  for (let i = 0; i < n; i++) {
    const name = pick(PARAM_NAMES);
    const value = String(scalar());
    parts.push(`${enc(name)}=${chance(0.05) ? '%00' : ''}${enc(value)}`);
    if (chance(0.1)) parts.push(`${enc(name)}=${enc(String(scalar()))}`); // repeated
  }
  if (chance(0.03)) parts.push('%zz=%');
  return parts.join('&');
}
function multipartText(boundary: string): string {
  const parts: string[] = [];
  for (let i = 0; i < Math.floor(random() * 4); i++) {
    const name = pick([...PARAM_NAMES.slice(0, 20), 'users', 'connection_id', 'upsert']);
    const file = chance(0.5) ? `; filename="${pick(['users.json', 'a', '../../x', ''])}"` : '';
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n${chance(0.5) ? jsonText() : String(scalar())}\r\n`);
  }
  let text = parts.join('') + (chance(0.8) ? `--${boundary}--\r\n` : '');
  if (chance(0.2)) text = text.slice(0, Math.floor(random() * text.length));
  return text;
}

interface Body {
  contentType?: string;
  text: string;
}
function body(): Body | undefined {
  const r = random();
  if (r < 0.1) return undefined;
  const caseOf = (type: string) => pick([type, type.toUpperCase(), type.replace(/\b./g, (c) => c.toUpperCase())]);
  if (r < 0.5) return { contentType: caseOf('application/json') + (chance(0.1) ? '; charset=utf-8' : ''), text: jsonText() };
  if (r < 0.8) return { contentType: caseOf('application/x-www-form-urlencoded') + (chance(0.1) ? '; charset=UTF-8' : ''), text: formText() };
  if (r < 0.9) {
    const boundary = `fuzz${randomHex(8)}`;
    return { contentType: chance(0.85) ? `${caseOf('multipart/form-data')}; boundary=${boundary}` : 'multipart/form-data', text: multipartText(boundary) };
  }
  if (r < 0.95) return { contentType: pick(['text/plain', 'application/xml', 'text/xml', 'application/jwt', 'application/octet-stream', '*/*', ';;', 'application/json; charset=utf-16']), text: chance(0.5) ? '<a><b>' + 'x'.repeat(100) + '</b></a>' : jsonText() };
  return { text: jsonText() }; // no content type
}

function queryString(): string {
  const n = Math.floor(random() * 6);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = pick(PARAM_NAMES);
    const value = chance(0.5) ? String(scalar()) : pick(ENUMS);
    parts.push(`${enc(name)}=${chance(0.03) ? '%00' : ''}${enc(value)}`);
    if (chance(0.08)) parts.push(`${enc(name)}=x`);
    if (chance(0.02)) parts.push(`${enc(name)}[a]=1`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

// ---------------------------------------------------------------------------
// The routes: Fastify's own table, read from an app built in this process.

interface Route {
  method: string;
  /** Segments; a parameter is `{name}`. */
  segments: string[];
}

async function serverRoutes(): Promise<Route[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-fuzz-routes-'));
  removeOnCleanup(dataDir);
  const { loadConfig } = await import('../src/platform/config.js');
  const { createContext } = await import('../src/app/context.js');
  const { buildApp } = await import('../src/app/http.js');
  const pino = (await import('pino')).default;
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DOMAIN: 'routes.invalid', LOG_LEVEL: 'silent' });
  const ctx = await createContext(config, pino({ level: 'silent' }));
  try {
    const app = await buildApp(ctx);
    await app.ready();
    const text = app.printRoutes({ commonPrefix: false });
    await app.close();
    return parseRouteTree(text);
  } finally {
    await ctx.close();
  }
}

/** Fastify's printRoutes({ commonPrefix: false }): one node a line, four characters a level, `segment (METHODS)`. */
export function parseRouteTree(text: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^([│ ├└─]*?)(?:├── |└── )(.*)$/.exec(line);
    if (!match) continue;
    const depth = Math.round(match[1]!.length / 4);
    const node = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(match[2]!)!;
    stack.length = depth;
    stack.push(node[1]!);
    if (!node[2]) continue;
    const full = stack.join('');
    const segments = full
      .split('/')
      .filter(Boolean)
      .map((s) => (s.startsWith(':') ? `{${s.slice(1).split('|')[0]!.replace(/[^A-Za-z0-9_].*$/, '')}}` : s));
    for (const method of node[2].split(', ')) if (method !== 'HEAD' || chance(0.3)) routes.push({ method, segments });
  }
  return routes;
}

// ---------------------------------------------------------------------------
// Fixtures: real objects, so that a share of the requests reach past "does not exist".

let fixtureIds: string[] = ['x'];
const fixtureByResource = new Map<string, string[]>();

async function createFixtures(endpoint: Endpoint, token: string): Promise<{ clientId: string; clientSecret: string }> {
  const call = <T>(method: string, url: string, payload?: unknown) => managementCall<T>(endpoint, token, method, url, payload);
  const api = await call<{ id: string; identifier: string }>('POST', '/resource-servers', { identifier: 'https://fuzz-api.invalid/', scopes: [{ value: 'read:x' }] });
  const client = await call<{ client_id: string; client_secret: string }>('POST', '/clients', {
    name: 'Fuzz app', app_type: 'regular_web', callbacks: ['https://127.0.0.1:1/cb'], is_first_party: true,
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials', 'password', 'http://auth0.com/oauth/grant-type/password-realm'],
    token_endpoint_auth_method: 'client_secret_post',
  });
  const connection = await call<{ id: string; name: string }>('POST', '/connections', { name: 'fuzz-db', strategy: 'auth0', enabled_clients: [client.client_id] });
  const user = await call<{ user_id: string }>('POST', '/users', { connection: 'fuzz-db', email: 'fuzz@example.com', password: 'Fuzz-password-1234!' });
  const role = await call<{ id: string }>('POST', '/roles', { name: 'fuzz-role' });
  const organization = await call<{ id: string; name: string }>('POST', '/organizations', { name: 'fuzz-org' });
  const grant = await call<{ id: string }>('POST', '/client-grants', { client_id: client.client_id, audience: api.identifier, scope: ['read:x'] });
  const set = (resource: string, ...ids: string[]) => fixtureByResource.set(resource, ids);
  set('resource-servers', api.id, enc(api.identifier));
  set('clients', client.client_id);
  set('connections', connection.id);
  set('users', enc(user.user_id));
  set('roles', role.id);
  set('organizations', organization.id);
  set('client-grants', grant.id);
  set('name', 'fuzz-org');
  set('samlp', client.client_id);
  fixtureIds = [api.id, client.client_id, connection.id, user.user_id, role.id, organization.id, grant.id, 'fuzz-db', 'fuzz@example.com'];
  return { clientId: client.client_id, clientSecret: client.client_secret };
}

function fillParameter(previous: string | undefined, method: string): string {
  const r = random();
  const real = previous !== undefined ? fixtureByResource.get(previous) : undefined;
  // A DELETE reaches a fixture only late in the run, so that most requests still find them.
  const realAllowed = method !== 'DELETE' || progress > 0.95;
  if (real && realAllowed && r < 0.6) return pick(real);
  if (r < 0.75) return enc(pick(PROTO_NAMES));
  if (r < 0.9) return enc(pick(HOSTILE) || 'x');
  return randomHex(24);
}

// ---------------------------------------------------------------------------
// The run

let progress = 0;
/** The address `localhost` resolves to, where the server listens (as the other benches do). */
let serverHost = '127.0.0.1';

interface Outcome {
  byClass: Map<string, number>;
  serverErrors: { request: string; status: number; body: string }[];
  transportErrors: Map<string, number>;
  transportSamples: string[];
}

function send(agent: http.Agent, endpoint: Endpoint, method: string, url: string, headers: Record<string, string>, payload?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: serverHost, port: endpoint.port, method, path: url, headers, agent, timeout: 35_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < 2_000) text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function fuzz(endpoint: Endpoint, routes: Route[], auth: { token: string; clientId: string; clientSecret: string }, total = REQUESTS): Promise<Outcome> {
  const outcome: Outcome = { byClass: new Map(), serverErrors: [], transportErrors: new Map(), transportSamples: [] };
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let sent = 0;
  let lastReport = Date.now();
  const worker = async () => {
    while (sent < total) {
      sent++;
      progress = sent / total;
      const route = pick(routes);
      const segments = route.segments.map((s, i) => (s.startsWith('{') ? fillParameter(route.segments[i - 1], route.method) : s === '*' ? enc(pick(HOSTILE) || 'x') : s));
      const url = '/' + segments.join('/') + (chance(0.7) ? queryString() : '');
      const headers: Record<string, string> = { host: chance(0.98) ? `localhost:${endpoint.port}` : pick(['evil.invalid', 'LOCALHOST:' + endpoint.port, '', '127.0.0.1']) };
      const a = random();
      if (a < 0.5) headers.authorization = `Bearer ${auth.token}`;
      else if (a < 0.6) headers.authorization = `Bearer ${pick(['x', 'a.b.c', auth.token.slice(0, -5) + 'AAAAA', 'e30.e30.'])}`;
      else if (a < 0.7) headers.authorization = `Basic ${Buffer.from(`${auth.clientId}:${chance(0.5) ? auth.clientSecret : 'wrong'}`).toString('base64')}`;
      else if (a < 0.72) headers.authorization = pick(['Bearer', 'DPoP x', 'Basic ???', 'Basic ' + Buffer.from('a').toString('base64')]);
      if (chance(0.05)) headers.cookie = `auth0=${randomHex(20)}; did=${pick(HOSTILE).replace(/[^\x21-\x7e]/g, '')}`;
      if (chance(0.05)) headers.origin = pick(['https://127.0.0.1:1', 'null', 'https://evil.invalid']);
      if (chance(0.03)) headers['x-forwarded-for'] = pick(['1.2.3.4', '::1', 'garbage', '1.1.1.1, 2.2.2.2']);
      const withBody = route.method !== 'GET' && route.method !== 'HEAD' ? body() : undefined;
      if (withBody?.contentType !== undefined) headers['content-type'] = withBody.contentType;
      const label = `${route.method} ${url.slice(0, 300)}`;
      try {
        const reply = await send(agent, endpoint, route.method, url, headers, withBody?.text);
        const cls = `${Math.floor(reply.status / 100)}xx`;
        outcome.byClass.set(cls, (outcome.byClass.get(cls) ?? 0) + 1);
        if (reply.status >= 500 && outcome.serverErrors.length < 200) {
          outcome.serverErrors.push({ request: `${label} ${headers['content-type'] ?? ''} ${withBody?.text.slice(0, 300) ?? ''}`, status: reply.status, body: reply.body.slice(0, 300) });
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        outcome.transportErrors.set(code, (outcome.transportErrors.get(code) ?? 0) + 1);
        if (outcome.transportSamples.length < 50) outcome.transportSamples.push(`${code}: ${label} ${headers['content-type'] ?? ''} ${withBody?.text.slice(0, 200) ?? ''}`);
      }
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        log(`  ${sent.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} sent; ${[...outcome.byClass].map(([k, v]) => `${k} ${v}`).join(', ')}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return outcome;
}

async function metricValue(endpoint: Endpoint, name: string, labels: string): Promise<number | undefined> {
  const reply = await request(endpoint, 'GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
  if (reply.status !== 200) return undefined;
  let sum: number | undefined;
  for (const line of reply.body.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (match && match[1] === name && (labels === '' || (match[2] ?? '').includes(labels))) sum = (sum ?? 0) + Number(match[3]);
  }
  return sum;
}

async function tenantLogRows(dataDir: string, databaseUrl: string | undefined): Promise<number> {
  if (databaseUrl) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>('select count(*) as n from tenant_logs')).rows[0]!.n);
    } finally {
      await client.end();
    }
  }
  const SQLite = (await import('better-sqlite3')).default;
  const db = new SQLite(path.join(dataDir, 'gatehouse.db'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from tenant_logs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `gatehouse_fuzz_${process.pid}_${Date.now()}`;
  // The host part is for the URL syntax (Gatehouse parses DATABASE_URL); pg connects to the socket directory in `host`.
  const adminUrl = `postgres://postgres@localhost/postgres?host=${enc(PG_SOCKET)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: `postgres://postgres@localhost/${name}?host=${enc(PG_SOCKET)}`,
    async drop() {
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

async function main(): Promise<number> {
  log(`fuzz: ${REQUESTS.toLocaleString('en-US')} requests, ${CONCURRENCY} at a time, seed ${SEED}, ${DATABASE}; network: ${process.env.GATEHOUSE_FUZZ_NETNS === '1' ? 'a namespace with loopback only' : 'the machine\'s (FUZZ_NETNS=0)'}`);
  const routes = await serverRoutes();
  log(`fuzz: ${routes.length} method and route pairs from the server's route table`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-fuzz-'));
  removeOnCleanup(dataDir);
  const postgres = DATABASE === 'postgres' ? await createPostgresDatabase() : undefined;
  serverHost = (await dns.lookup('localhost')).address;
  const port = await freePort(serverHost);
  const extraEnv: Record<string, string> = {
    GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN,
    GATEHOUSE_TWILIO_URL: 'http://127.0.0.1:1',
    GATEHOUSE_APNS_URL: 'http://127.0.0.1:1',
    GATEHOUSE_SNS_ENDPOINT: 'http://127.0.0.1:1',
    ...(postgres && { DATABASE_URL: postgres.url }),
  };
  let server: StartedServer | undefined;
  try {
    // bench/memory-probe.mjs: on SIGWINCH, two full collections, then the live heap and RSS (as bench/memory.ts reads them).
    const probeLog = path.join(dataDir, 'memory-probe.jsonl');
    server = await startGatehouse({
      host: serverHost, port, dataDir, logLevel: 'warn', extraEnv: { ...extraEnv, BENCH_MEMORY_LOG: probeLog },
      nodeArgs: ['--expose-gc', '--import', pathToFileURL(path.join(import.meta.dirname, 'memory-probe.mjs')).href],
    });
    const probe = async (): Promise<{ rssMiB: number; heapUsedMiB: number; externalMiB: number }> => {
      const before = fs.existsSync(probeLog) ? fs.readFileSync(probeLog, 'utf8').split('\n').filter(Boolean).length : 0;
      server!.child.process.kill('SIGWINCH');
      for (let i = 0; i < 100; i++) {
        await sleep(50);
        const lines = fs.existsSync(probeLog) ? fs.readFileSync(probeLog, 'utf8').split('\n').filter(Boolean) : [];
        if (lines.length > before) return JSON.parse(lines[lines.length - 1]!) as { rssMiB: number; heapUsedMiB: number; externalMiB: number };
      }
      throw new BenchError('the memory probe did not answer');
    };
    const endpoint = server.endpoint;
    const admin = readAdminCredentials(dataDir);
    const tokenReply = await request(endpoint, 'POST', '/oauth/token', JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: admin.audience }));
    if (tokenReply.status !== 200) throw new BenchError(`the admin token: ${tokenReply.status} ${tokenReply.body}`);
    const token = (JSON.parse(tokenReply.body) as { access_token: string }).access_token;
    const fixtures = await createFixtures(endpoint, token);
    // A warm-up of the same kind of requests first: the hashing pool's threads, SQLite's page cache and
    // V8's heap reach their working size, which is no growth the fuzz caused.
    const rssStart = readMemory(server.child.process.pid!)?.rssMB ?? NaN;
    const warm = await fuzz(endpoint, routes, { token, ...fixtures }, WARMUP);
    for (const e of warm.serverErrors) log(`  5xx during the warm-up ${e.status}: ${e.request}\n      → ${e.body}`);
    await sleep(3_000);
    const rssBefore = readMemory(server.child.process.pid!)?.rssMB ?? NaN;
    const liveBefore = await probe();
    log(`fuzz: RSS ${rssStart.toFixed(0)} MiB after start, ${rssBefore.toFixed(0)} MiB after a warm-up of ${WARMUP.toLocaleString('en-US')} requests`);
    const started = Date.now();
    const outcome = await fuzz(endpoint, routes, { token, ...fixtures });
    const seconds = (Date.now() - started) / 1000;
    await sleep(3_000);
    const rssAfter = readMemory(server.child.process.pid!)?.rssMB ?? NaN;
    const liveAfter = await probe();
    log(`fuzz: after two full collections, live JS heap ${liveBefore.heapUsedMiB} MiB before and ${liveAfter.heapUsedMiB} MiB after, external ${liveBefore.externalMiB} and ${liveAfter.externalMiB} MiB, RSS ${liveBefore.rssMiB} and ${liveAfter.rssMiB} MiB`);
    const produced = await metricValue(endpoint, 'gatehouse_tenant_log_events_total', '');
    const dropped = await metricValue(endpoint, 'gatehouse_tenant_log_events_dropped_total', '');
    const alive = server.child.process.exitCode === null;
    // A graceful stop writes what is still buffered; then the rows are counted.
    await stopChild(server.child);
    const exitCode = server.child.process.exitCode;
    const rows = await tenantLogRows(dataDir, postgres?.url);

    const total = [...outcome.byClass.values()].reduce((a, b) => a + b, 0);
    log(`\nfuzz: ${total.toLocaleString('en-US')} answers in ${seconds.toFixed(0)} s (${(total / seconds).toFixed(0)}/s): ${[...outcome.byClass].sort().map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`).join(', ')}`);
    if (outcome.transportErrors.size) log(`fuzz: transport errors: ${[...outcome.transportErrors].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    for (const sample of outcome.transportSamples.slice(0, 10)) log(`  ${sample}`);
    for (const e of outcome.serverErrors.slice(0, 30)) log(`  5xx ${e.status}: ${e.request}\n      → ${e.body}`);
    const fiveXx = (outcome.byClass.get('5xx') ?? 0) + (warm.byClass.get('5xx') ?? 0);
    const rssRatio = rssAfter / rssBefore;
    const checks: [string, boolean][] = [
      [`5xx answers: ${fiveXx}, warm-up included (target 0)`, fiveXx === 0],
      [`server still serving after the fuzz: ${alive ? 'yes' : 'no'}; graceful stop exit code ${exitCode}`, alive && exitCode === 0],
      [`tenant log: ${produced ?? 'unknown'} events produced, ${rows} rows written, ${dropped ?? 0} dropped (target: equal, none dropped)`, produced !== undefined && produced === rows && !dropped],
      [`RSS idle: ${rssBefore.toFixed(0)} MiB before (after the warm-up), ${rssAfter.toFixed(0)} MiB after (${rssRatio.toFixed(2)}x; target at most 1.5x)`, rssRatio <= 1.5],
    ];
    for (const [line, ok] of checks) log(`${ok ? 'met    ' : 'NOT MET'} ${line}`);
    const file = path.join('bench', 'results', `fuzz-${DATABASE}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ requests: REQUESTS, seed: SEED, database: DATABASE, seconds, byClass: Object.fromEntries(outcome.byClass), transportErrors: Object.fromEntries(outcome.transportErrors), transportSamples: outcome.transportSamples, serverErrors: outcome.serverErrors, produced, rows, rssBefore, rssAfter, liveBefore, liveAfter }, null, 2));
    log(`fuzz: details in ${file}`);
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    if (server) await stopChild(server.child);
    await postgres?.drop();
  }
}

// Re-run in a network namespace of our own with only loopback, unless already there or told not to.
if (process.env.GATEHOUSE_FUZZ_NETNS !== '1' && process.env.FUZZ_NETNS !== '0') {
  const result = spawnSync('unshare', ['-n', '--', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, GATEHOUSE_FUZZ_NETNS: '1' },
  });
  if (result.error || result.status === null) {
    console.error(`fuzz: could not start in a network namespace of its own (${result.error?.message ?? result.signal}); run as root, or FUZZ_NETNS=0`);
    process.exit(1);
  }
  process.exit(result.status);
} else {
  void runMain(main);
}
