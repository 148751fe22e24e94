/**
 * GET /api/v2/clients on a tenant of 100 clients and on a tenant of 100,000
 * clients, in the same server, both paging styles:
 *
 *   npm run build --silent && node --import tsx bench/clients.ts
 *
 * Before the server starts, the bench writes the data directly into the
 * database with the project's own code (loadConfig, createContext,
 * ensureDefaultTenant, ctx.tenants.create, newClientConfig/columnsFromConfig,
 * insertClients, secrets sealed with ctx.box): the default tenant
 * (`localhost:PORT`) gets 100 clients, a second tenant (`big.test`) 100,000,
 * both counting their two bootstrap clients. It prints the seeding time and
 * the database size, then the plan and the time of every query the client
 * store issues for each case (the store called directly, on its own
 * connection). Then Gatehouse (bin/gatehouse.cjs, as `npm start` runs it; plain HTTP) is started on
 * that data directory, pinned to one core (`taskset -c 0`) while this process, and so autocannon,
 * runs on the other, and autocannon drives, on each tenant:
 *
 *   1  offset, first page      ?page=0&per_page=50&include_totals=true   (what the auth0 SDK sends)
 *   2  offset, middle page     ?page=<middle>&per_page=50&include_totals=true
 *   3  checkpoint, first page  ?take=50
 *   4  checkpoint, middle      ?take=50&from=<next of the middle>        (every request of the case uses the same from)
 *   5a filtered, checkpoint    ?app_type=spa&take=50
 *   5b filtered, offset        ?is_first_party=true&page=0&per_page=50&include_totals=true
 *
 * Each case runs BENCH_ROUNDS rounds, and each round measures the 100-client
 * tenant and then the 100,000-client one (small, big, small, big, …); the
 * table shows the medians. The target (reported, not asserted): the 100,000
 * figures within 1.5x of the 100 figures, per case, for req/s, p50 and p99. Case 2 depends on the offset
 * anchors (src/clients/offset-anchors.ts): a plain OFFSET walks every skipped
 * row, which the store-query evidence printed before the load still shows.
 *
 * Settings (environment):
 *   BENCH_DURATION      seconds per measurement (default 5)
 *   BENCH_WARMUP        seconds of unrecorded load before each measurement (default min(2, ceil(duration/3)))
 *   BENCH_ROUNDS        rounds per case (default 3)
 *   BENCH_CONNECTIONS   autocannon connections (default 50)
 *   BENCH_PIN           0 pins nothing (default 1)
 *   BENCH_BIG_CLIENTS   clients of the big tenant (default 100000; e.g. 10000 for a quick smoke run)
 *   BENCH_LOG_LEVEL     LOG_LEVEL of the Gatehouse process (default warn)
 *   BENCH_DATABASE_URL  postgres://… of a server where the bench may create a database: the run
 *                       uses a fresh database there (dropped at the end) instead of SQLite
 *
 * Exit status: 0 when the bench ran (the target is reported, not asserted);
 * 1 when it broke; 2 for a bad setting.
 */
import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { columnsFromConfig, newClientConfig, type ClientConfig } from '../src/domain/clients/model.js';
import { KyselyClientStore, insertClients } from '../src/storage/kysely/clients.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext, createLogger, ensureDefaultTenant } from '../src/app/context.js';
import { newClientId, newClientSecret } from '../src/platform/crypto/ids.js';
import type { Database } from '../src/storage/schema.js';
import { clientSecretContext } from '../src/domain/tenants/service.js';
import type { Tenant } from '../src/domain/tenants/tenant.js';
import {
  BenchError,
  ROOT,
  alternate,
  envSeconds,
  failureLine,
  failures,
  fmt,
  fmtInt,
  freePort,
  gatehouseEnv,
  isRunning,
  loadLogLevel,
  loadSettings,
  log,
  logBusyWarning,
  logFailureBanner,
  logHeader,
  machineInfo,
  measure,
  median,
  onCleanup,
  printGatehouseLog,
  printTable,
  readAdminCredentials,
  readCpuSeconds,
  removeOnCleanup,
  request,
  runMain,
  setUpPinning,
  startGatehouse,
  summarize,
  wasBusy,
  writeResults,
  type CaseResult,
  type Endpoint,
  type Summary,
} from './lib.js';
import { type ClientFilter, type ClientPageQuery } from '../src/domain/clients/store.js';
import type { RuntimeContext } from '../src/app/context.js';
import { type ClientRow } from '../src/domain/rows.js';

// ---------------------------------------------------------------------------
// Settings

const SETTINGS = loadSettings({ duration: 5, connections: 50 });
const LOG_LEVEL = loadLogLevel();
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL?.trim() || undefined;
if (PG_ADMIN_URL !== undefined && !/^postgres(ql)?:\/\//.test(PG_ADMIN_URL)) {
  console.error(`bench: BENCH_DATABASE_URL must start with postgres://, got "${PG_ADMIN_URL}"`);
  process.exit(2);
}

/** Clients per tenant, bootstrap clients (the global client and the admin client) included. */
const SMALL = 100;
/** The big tenant (BENCH_BIG_CLIENTS, default 100,000; fewer only for a quick smoke run, which then seeds in seconds). */
const BIG = Math.round(envSeconds('BENCH_BIG_CLIENTS', 100_000, 1_000, 1_000_000));
const BIG_DOMAIN = 'big.test';
const PER_PAGE = 50;
/** Rows per INSERT (16 columns: 16,000 parameters, under SQLite's and PostgreSQL's limits). */
const INSERT_BATCH = 1_000;
/** Rows per transaction. */
const TRANSACTION_ROWS = 10_000;
/** Within this factor of the 100-client figures. */
const TARGET_FACTOR = 1.5;

// ---------------------------------------------------------------------------
// Seeding

/** mulberry32: a small seeded PRNG, so every run seeds the same mix. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * The mix of seeded clients, in exact proportions, shuffled. SPAs are more
 * than half and first-party clients 60%, so that the two filtered cases return
 * full pages of 50 on the 100-client tenant too: both tenants then answer with
 * the same amount of data and only the table size differs.
 */
const APP_TYPE_MIX: readonly [string | null, number][] = [
  ['spa', 0.55],
  ['regular_web', 0.2],
  ['native', 0.1],
  ['non_interactive', 0.1],
  [null, 0.05], // created with a name only
];
const FIRST_PARTY_SHARE = 0.6;

function exactMix<T>(n: number, mix: readonly [T, number][], random: () => number): T[] {
  const out: T[] = [];
  for (const [value, share] of mix) for (let i = Math.floor(n * share); i > 0; i--) out.push(value);
  while (out.length < n) out.push(mix[0]![0]);
  return shuffle(out, random);
}

/** A request body like the ones a dashboard or an automation sends to POST /clients. */
function clientBody(appType: string | null, firstParty: boolean, i: number, random: () => number): ClientConfig {
  const slug = `customer-${i}-${Math.floor(random() * 1e6).toString(36)}`;
  const web = `https://${slug}.example.com`;
  const common = { name: `${appType ?? 'app'} ${slug}`, is_first_party: firstParty };
  const metadata = random() < 0.5 ? { client_metadata: { customer_id: `cus_${i}`, tier: random() < 0.2 ? 'enterprise' : 'standard' } } : {};
  switch (appType) {
    case 'spa':
      return {
        ...common,
        ...metadata,
        description: `Single-page app of ${slug}`,
        app_type: 'spa',
        oidc_conformant: true,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        callbacks: [`${web}/callback`, 'http://localhost:3000/callback'],
        allowed_logout_urls: [web],
        web_origins: [web],
        allowed_origins: [web],
        refresh_token: {
          rotation_type: 'rotating',
          expiration_type: 'expiring',
          leeway: 0,
          token_lifetime: 2_592_000,
          infinite_token_lifetime: false,
          idle_token_lifetime: 1_296_000,
          infinite_idle_token_lifetime: false,
        },
      };
    case 'regular_web':
      return {
        ...common,
        ...metadata,
        description: `Web app of ${slug}`,
        app_type: 'regular_web',
        oidc_conformant: true,
        token_endpoint_auth_method: 'client_secret_post',
        callbacks: [`${web}/auth/callback`],
        allowed_logout_urls: [`${web}/logged-out`],
        initiate_login_uri: `${web}/login`,
      };
    case 'native':
      return {
        ...common,
        ...metadata,
        description: `Mobile app of ${slug}`,
        app_type: 'native',
        oidc_conformant: true,
        token_endpoint_auth_method: 'none',
        callbacks: [`com.example.${slug.replace(/-/g, '')}://callback`],
      };
    case 'non_interactive':
      return {
        ...common,
        ...metadata,
        description: `Backend service of ${slug}`,
        app_type: 'non_interactive',
        oidc_conformant: true,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
      };
    default:
      return common;
  }
}

interface SeedResult {
  domain: string;
  /** Clients of the tenant after seeding, bootstrap clients included (from the store's count). */
  clients: number;
  seeded: number;
  firstParty: number;
  spa: number;
  seconds: number;
}

/** Adds clients to the tenant until it has `total`, in batches inside transactions, through insertClients so client_counts stays right. */
async function seedTenant(ctx: RuntimeContext, tenant: Tenant, total: number, seed: number): Promise<SeedResult> {
  const t0 = performance.now();
  const existing = await ctx.stores.clients.count(tenant.id, {});
  const n = total - existing;
  const random = prng(seed);
  const appTypes = exactMix(n, APP_TYPE_MIX, random);
  const firstParty = exactMix(n, [[true, FIRST_PARTY_SHARE], [false, 1 - FIRST_PARTY_SHARE]], random);
  const yearAgo = ctx.now() - 365 * 86_400_000;
  let done = 0;
  while (done < n) {
    const end = Math.min(n, done + TRANSACTION_ROWS);
    await ctx.database.db.transaction().execute(async (trx) => {
      for (let start = done; start < end; start += INSERT_BATCH) {
        const rows: ClientRow[] = [];
        for (let i = start; i < Math.min(end, start + INSERT_BATCH); i++) {
          const config = newClientConfig(clientBody(appTypes[i]!, firstParty[i]!, i, random));
          const clientId = newClientId();
          const at = new Date(yearAgo + Math.floor((i / n) * 365 * 86_400_000)).toISOString();
          rows.push({
            tenant_id: tenant.id,
            client_id: clientId,
            global: 0,
            ...columnsFromConfig(config),
            client_secret_enc: ctx.box.seal(newClientSecret(), clientSecretContext(tenant.id, clientId)),
            created_at: at,
            updated_at: at,
            config,
          });
        }
        await insertClients(trx, rows);
      }
    });
    done = end;
  }
  return {
    domain: tenant.domain,
    clients: await ctx.stores.clients.count(tenant.id, {}),
    seeded: n,
    firstParty: await ctx.stores.clients.count(tenant.id, { isFirstParty: true }),
    spa: await ctx.stores.clients.count(tenant.id, { appTypes: ['spa'] }),
    seconds: (performance.now() - t0) / 1000,
  };
}

// ---------------------------------------------------------------------------
// Cases

type CaseKey = '1' | '2' | '3' | '4' | '5a' | '5b';

interface CaseSpec {
  key: CaseKey;
  label: string;
  /** The query string for a tenant of `total` clients; `from` is the checkpoint of the middle (case 4). */
  query(total: number, from: string | undefined): string;
  /** What the service asks the store for. */
  store(total: number, middleKey: string | undefined): { filter: ClientFilter; page: ClientPageQuery; count: boolean };
  note?: string;
}

const middlePage = (total: number) => Math.floor(total / 2 / PER_PAGE);

const CASES: readonly CaseSpec[] = [
  {
    key: '1',
    label: 'offset, first page',
    query: () => `page=0&per_page=${PER_PAGE}&include_totals=true`,
    store: () => ({ filter: {}, page: { kind: 'offset', offset: 0, limit: PER_PAGE }, count: true }),
  },
  {
    key: '2',
    label: 'offset, middle page',
    query: (total) => `page=${middlePage(total)}&per_page=${PER_PAGE}&include_totals=true`,
    store: (total) => ({ filter: {}, page: { kind: 'offset', offset: middlePage(total) * PER_PAGE, limit: PER_PAGE }, count: true }),
  },
  {
    key: '3',
    label: 'checkpoint, first page',
    query: () => `take=${PER_PAGE}`,
    store: () => ({ filter: {}, page: { kind: 'keyset', limit: PER_PAGE + 1 }, count: false }),
  },
  {
    key: '4',
    label: 'checkpoint, middle',
    query: (_total, from) => `take=${PER_PAGE}&from=${encodeURIComponent(from ?? '')}`,
    store: (_total, middleKey) => ({ filter: {}, page: { kind: 'keyset', after: middleKey!, limit: PER_PAGE + 1 }, count: false }),
  },
  {
    key: '5a',
    label: 'filtered app_type=spa, checkpoint',
    query: () => `app_type=spa&take=${PER_PAGE}`,
    store: () => ({ filter: { appTypes: ['spa'] }, page: { kind: 'keyset', limit: PER_PAGE + 1 }, count: false }),
  },
  {
    key: '5b',
    label: 'filtered is_first_party=true, offset',
    query: () => `is_first_party=true&page=0&per_page=${PER_PAGE}&include_totals=true`,
    store: () => ({ filter: { isFirstParty: true }, page: { kind: 'offset', offset: 0, limit: PER_PAGE }, count: true }),
  },
];

const displayQuery = (q: string) => q.replace(/from=[^&]+/, 'from=<middle>');

// ---------------------------------------------------------------------------
// The store's queries, called directly: their SQL, plan and time

interface StoreQuery {
  sql: string;
  parameters: readonly unknown[];
  plan: string[];
}

interface StoreTiming {
  case: CaseKey;
  tenant: string;
  /** Median time of what the service asks the store for (list, and count with include_totals), in ms. */
  medianMs: number;
  runs: number;
  rows: number;
  queries: StoreQuery[];
}

interface TenantInfo {
  label: string;
  domain: string;
  tenantId: string;
  total: number;
  /** client_id of the row at position total/2 in client_id order (the key a checkpoint of the middle holds). */
  middleKey: string;
}

/** A Kysely of its own over the bench's database, logging the SQL the store compiles. */
function openInspector(dataDir: string, databaseUrl: string | undefined) {
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];
  const logQuery = (event: LogEvent) => {
    if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: logQuery });
    const explain = async (q: { sql: string; parameters: readonly unknown[] }) => {
      const result = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${q.sql}`, [...q.parameters]);
      return result.rows.map((r) => r['QUERY PLAN']);
    };
    return { db, captured, explain, close: () => db.destroy() };
  }
  const raw = new SQLite(path.join(dataDir, 'gatehouse.db'));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }), log: logQuery });
  const explain = async (q: { sql: string; parameters: readonly unknown[] }) => {
    const rows = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { id: number; parent: number; detail: string }[];
    const depth = new Map<number, number>([[0, -1]]);
    return rows.map((r) => {
      const d = (depth.get(r.parent) ?? -1) + 1;
      depth.set(r.id, d);
      return `${'  '.repeat(d)}${r.detail}`;
    });
  };
  return { db, captured, explain, close: () => db.destroy() };
}

async function inspectStore(dataDir: string, databaseUrl: string | undefined, tenants: TenantInfo[]): Promise<StoreTiming[]> {
  const inspector = openInspector(dataDir, databaseUrl);
  try {
    const store = new KyselyClientStore(inspector.db);
    const out: StoreTiming[] = [];
    for (const spec of CASES) {
      for (const t of tenants) {
        const { filter, page, count } = spec.store(t.total, t.middleKey);
        // As the service does: list with the sealed secret (the admin token may read it), then the count for include_totals.
        const run = async () => {
          const rows = await store.list(t.tenantId, filter, page, true);
          if (count) await store.count(t.tenantId, filter);
          return rows.length;
        };
        inspector.captured.length = 0;
        const rows = await run();
        const queries = inspector.captured.map((q) => ({ ...q, plan: [] as string[] }));
        for (const q of queries) q.plan = await inspector.explain(q);
        // Warm, then time for about half a second (at least 5 runs).
        const times: number[] = [];
        const deadline = performance.now() + 500;
        while (times.length < 5 || (performance.now() < deadline && times.length < 200)) {
          const t0 = performance.now();
          await run();
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        out.push({ case: spec.key, tenant: t.label, medianMs: times[Math.floor(times.length / 2)]!, runs: times.length, rows, queries });
      }
    }
    return out;
  } finally {
    await inspector.close();
  }
}

// ---------------------------------------------------------------------------
// PostgreSQL: a fresh database per run

async function createPostgresDatabase(adminUrl: string): Promise<string> {
  const name = `gatehouse_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new BenchError(`cannot connect to BENCH_DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  onCleanup(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * CPU seconds used so far by the PostgreSQL backends serving `database` on this
 * machine (found by their process title, `postgres: <user> <database> …`);
 * undefined when there are none to see (a remote server, or no /proc).
 */
function postgresBackendsCpuSeconds(database: string): number | undefined {
  let total = 0;
  let found = false;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let title: string;
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!title.startsWith('postgres: ') || !title.split(/[\s\0]+/).includes(database)) continue;
    const seconds = readCpuSeconds(Number(pid));
    if (seconds === undefined) continue;
    total += seconds;
    found = true;
  }
  return found ? total : undefined;
}

// ---------------------------------------------------------------------------
// Talking to the server

interface TenantAccess extends TenantInfo {
  token: string;
  /** The Host header that selects the tenant. */
  host: string;
  firstParty: number;
  spa: number;
}

/** The tenant's Host header on the server's endpoint. */
const tenantEndpoint = (g: Endpoint, t: { host: string }): Endpoint => ({ ...g, host: t.host });

async function getToken(g: Endpoint, host: string, credentials: { client_id: string; client_secret: string }, audience: string): Promise<string> {
  const body = JSON.stringify({ grant_type: 'client_credentials', client_id: credentials.client_id, client_secret: credentials.client_secret, audience });
  const reply = await request(tenantEndpoint(g, { host }), 'POST', '/oauth/token', body);
  if (reply.status !== 200) throw new BenchError(`POST /oauth/token (Host ${host}) answered ${reply.status}: ${reply.body.slice(0, 500)}`);
  const token = (JSON.parse(reply.body) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new BenchError(`POST /oauth/token (Host ${host}): no access_token in ${reply.body.slice(0, 300)}`);
  return token;
}

interface ClientPage {
  total?: number;
  start?: number;
  limit?: number;
  clients: Record<string, unknown>[];
  next?: string;
}

async function getClients(g: Endpoint, t: TenantAccess, query: string): Promise<{ page: ClientPage; bytes: number }> {
  const reply = await request(tenantEndpoint(g, t), 'GET', `/api/v2/clients?${query}`, undefined, { authorization: `Bearer ${t.token}` });
  if (reply.status !== 200) throw new BenchError(`GET /api/v2/clients?${displayQuery(query)} (Host ${t.host}) answered ${reply.status}: ${reply.body.slice(0, 500)}`);
  const parsed = JSON.parse(reply.body) as ClientPage | Record<string, unknown>[];
  return { page: Array.isArray(parsed) ? { clients: parsed } : parsed, bytes: Buffer.byteLength(reply.body) };
}

/** The `next` checkpoint after the first total/2 clients, by walking pages of up to 100. */
async function walkToMiddle(g: Endpoint, t: TenantAccess): Promise<{ from: string; requests: number; seconds: number }> {
  const t0 = performance.now();
  let remaining = Math.floor(t.total / 2);
  let from: string | undefined;
  let requests = 0;
  while (remaining > 0) {
    const take = Math.min(100, remaining);
    const { page } = await getClients(g, t, `take=${take}${from ? `&from=${encodeURIComponent(from)}` : ''}`);
    requests++;
    if (!page.next || page.clients.length !== take) throw new BenchError(`walking ${t.domain} to its middle: a page of ${page.clients.length} clients without next`);
    from = page.next;
    remaining -= page.clients.length;
  }
  return { from: from!, requests, seconds: (performance.now() - t0) / 1000 };
}

/** One request of the case, and checks of its answer. */
async function preflight(g: Endpoint, t: TenantAccess, spec: CaseSpec, query: string): Promise<{ bytes: number; clients: number }> {
  const { page, bytes } = await getClients(g, t, query);
  const fail = (why: string) => new BenchError(`preflight of case ${spec.key} on ${t.domain} (?${displayQuery(query)}): ${why}`);
  if (page.clients.length !== PER_PAGE) throw fail(`${page.clients.length} clients instead of ${PER_PAGE}`);
  if (!page.clients.every((c) => typeof c.client_id === 'string' && typeof c.client_secret === 'string')) throw fail('a client without client_id or client_secret');
  const expectedTotal = spec.key === '5b' ? t.firstParty : t.total;
  if (/include_totals=true/.test(query) && page.total !== expectedTotal) throw fail(`total ${String(page.total)} instead of ${expectedTotal}`);
  if (spec.key === '5a' && !page.clients.every((c) => c.app_type === 'spa')) throw fail('a client that is not a spa');
  if (spec.key === '5b' && !page.clients.every((c) => c.is_first_party === true)) throw fail('a client that is not first-party');
  if (spec.key === '2' && page.start !== middlePage(t.total) * PER_PAGE) throw fail(`start ${String(page.start)}`);
  return { bytes, clients: page.clients.length };
}

// ---------------------------------------------------------------------------
// Output

function fileBytes(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

const mb = (bytes: number) => `${fmt(bytes / 1048576)} MB`;

// ---------------------------------------------------------------------------
// Main

interface MeasuredCase {
  spec: CaseSpec;
  query: Record<string, string>;
  bodyBytes: Record<string, number>;
  /** Every round's measurement, in round order. */
  small: CaseResult[];
  big: CaseResult[];
  /** Their medians. */
  smallSummary: Summary;
  bigSummary: Summary;
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const mainJs = path.join(ROOT, 'dist', 'server', 'main.js');
  if (!fs.existsSync(mainJs)) throw new BenchError(`${mainJs} is missing; run \`npm run build\` first`);
  const startedAt = new Date();
  const database = PG_ADMIN_URL ? 'postgres' : 'sqlite';
  logHeader(
    'Gatehouse GET /api/v2/clients bench',
    `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per tenant and case, warm-up ${SETTINGS.warmup} s, ${SETTINGS.connections} connections, ${database}, plain HTTP`,
    pinning,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-clients-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  const databaseUrl = PG_ADMIN_URL ? await createPostgresDatabase(PG_ADMIN_URL) : undefined;
  const extraEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const env = gatehouseEnv(host, port, dataDir, LOG_LEVEL, extraEnv);
  const databaseName = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : undefined;
  const databaseCpuSeconds = databaseName ? () => postgresBackendsCpuSeconds(databaseName) : undefined;

  // ---- 1. Seed, with the server's own configuration and code, before it starts.
  log(`\n[1/4] seeding ${databaseName ? `PostgreSQL database ${databaseName}` : `SQLite ${path.join(dataDir, 'gatehouse.db')}`}`);
  const config = loadConfig(env);
  const seedStart = performance.now();
  const ctx = await createContext(config, createLogger({ logLevel: 'warn' }));
  let seeds: SeedResult[];
  let bigCredentials: { client_id: string; client_secret: string };
  let smallTenant: Tenant;
  let bigTenant: Tenant;
  let dbBytes: Record<string, number>;
  let vacuumAnalyzeSeconds: number | undefined;
  try {
    smallTenant = (await ensureDefaultTenant(ctx)).tenant;
    const big = await ctx.tenants.create({ domain: BIG_DOMAIN });
    bigTenant = big.tenant;
    bigCredentials = { client_id: big.adminClientId, client_secret: big.adminClientSecret };
    seeds = [];
    for (const [tenant, total, seed] of [
      [smallTenant, SMALL, 1],
      [bigTenant, BIG, 2],
    ] as const) {
      const result = await seedTenant(ctx, tenant, total, seed);
      if (result.clients !== total) throw new BenchError(`${tenant.domain} has ${result.clients} clients after seeding, not ${total}`);
      log(
        `  ${tenant.domain}: ${fmtInt(result.seeded)} clients inserted in ${fmt(result.seconds, 2)} s → ${fmtInt(result.clients)} clients ` +
          `(${fmtInt(result.spa)} spa, ${fmtInt(result.firstParty)} first-party)`,
      );
      seeds.push(result);
    }
    if (databaseUrl) {
      // What autovacuum would do on its own shortly after a bulk load (the per-row upserts of
      // client_counts leave ~100,000 dead row versions); done now so that it does not happen mid-measurement.
      const t0 = performance.now();
      await sql`VACUUM (ANALYZE)`.execute(ctx.database.db);
      vacuumAnalyzeSeconds = (performance.now() - t0) / 1000;
      const sizes = await sql<{ database: string; clients: string; indexes: string }>`
        select pg_database_size(current_database())::text as database,
               pg_table_size('clients')::text as clients,
               pg_indexes_size('clients')::text as indexes`.execute(ctx.database.db);
      const row = sizes.rows[0]!;
      dbBytes = { database: Number(row.database), clientsTable: Number(row.clients), clientsIndexes: Number(row.indexes) };
    } else {
      dbBytes = {};
    }
  } finally {
    await ctx.close();
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;
  if (!databaseUrl) {
    const file = config.sqliteFile;
    dbBytes = { database: fileBytes(file), wal: fileBytes(`${file}-wal`) };
  }
  log(
    `  seeding took ${fmt(seedSeconds, 2)} s in all (migrations, both tenants, ${fmtInt(seeds.reduce((a, s) => a + s.seeded, 0))} sealed secrets` +
      `${vacuumAnalyzeSeconds !== undefined ? `, VACUUM (ANALYZE) ${fmt(vacuumAnalyzeSeconds, 2)} s` : ''})`,
  );
  log(
    databaseUrl
      ? `  database size ${mb(dbBytes.database!)} (clients table ${mb(dbBytes.clientsTable!)}, its indexes ${mb(dbBytes.clientsIndexes!)})`
      : `  database file ${mb(dbBytes.database!)}${dbBytes.wal ? ` + WAL ${mb(dbBytes.wal)}` : ''}`,
  );

  // ---- 2. The store's queries, directly.
  const middleKeyOf = async (tenantId: string, total: number): Promise<string> => {
    const inspector = openInspector(dataDir, databaseUrl);
    try {
      const row = await inspector.db
        .selectFrom('clients')
        .select('client_id')
        .where('tenant_id', '=', tenantId)
        .orderBy('client_id')
        .limit(1)
        .offset(Math.floor(total / 2) - 1)
        .executeTakeFirstOrThrow();
      return row.client_id;
    } finally {
      await inspector.close();
    }
  };
  const tenantInfos: TenantInfo[] = [
    { label: fmtInt(SMALL), domain: smallTenant.domain, tenantId: smallTenant.id, total: SMALL, middleKey: await middleKeyOf(smallTenant.id, SMALL) },
    { label: fmtInt(BIG), domain: bigTenant.domain, tenantId: bigTenant.id, total: BIG, middleKey: await middleKeyOf(bigTenant.id, BIG) },
  ];
  log(`\n[2/4] the client store's queries per case, called directly (KyselyClientStore on its own connection, no HTTP)`);
  const storeTimings = await inspectStore(dataDir, databaseUrl, tenantInfos);
  {
    const rows = [['case', 'store calls', `${fmtInt(SMALL)}: ms`, `${fmtInt(BIG)}: ms`, 'ratio']];
    for (const spec of CASES) {
      const [s, b] = [storeTimings.find((t) => t.case === spec.key && t.tenant === fmtInt(SMALL))!, storeTimings.find((t) => t.case === spec.key && t.tenant === fmtInt(BIG))!];
      rows.push([`(${spec.key}) ${spec.label}`, spec.store(BIG, 'x').count ? 'list + count' : 'list', fmt(s.medianMs, 3), fmt(b.medianMs, 3), `${fmt(b.medianMs / s.medianMs, 2)}x`]);
    }
    printTable(rows, 'llrrr');
    log(`  (median of repeated runs; list reads ${PER_PAGE} or ${PER_PAGE + 1} rows with config and sealed secret, as the service asks)`);
    log(`\n  Query plans on the ${fmtInt(BIG)}-client tenant (${databaseUrl ? 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)' : 'EXPLAIN QUERY PLAN'}):`);
    for (const t of storeTimings.filter((x) => x.tenant === fmtInt(BIG))) {
      const spec = CASES.find((c) => c.key === t.case)!;
      log(`  (${spec.key}) ${spec.label}`);
      for (const q of t.queries) {
        log(`    ${q.sql}`);
        log(`      parameters: ${JSON.stringify(q.parameters.map((p) => (typeof p === 'string' && p.length > 40 ? `${p.slice(0, 37)}…` : p)))}`);
        for (const line of q.plan) log(`      ${line}`);
      }
    }
  }

  // ---- 3. The server.
  log(`\n[3/4] starting Gatehouse (bin/gatehouse.cjs${pinning.serverCpus ? `, core ${pinning.serverCpus}` : ''}, data dir ${dataDir}${databaseUrl ? ', DATABASE_URL set' : ''})`);
  const started = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, extraEnv, cpus: pinning.serverCpus });
  const gatehouse = started.child;
  const g = started.endpoint;
  const admin = readAdminCredentials(dataDir);
  log(`  listening on http://localhost:${port} (pid ${gatehouse.process.pid}), ready in ${fmtInt(started.readyMs)} ms; tenants ${smallTenant.domain} and ${bigTenant.domain} (Host header)`);
  const access: TenantAccess[] = [];
  for (const [info, seedResult, credentials] of [
    [tenantInfos[0]!, seeds[0]!, admin],
    [tenantInfos[1]!, seeds[1]!, bigCredentials],
  ] as const) {
    const token = await getToken(g, info.domain, credentials, `https://${info.domain}/api/v2/`);
    access.push({ ...info, token, host: info.domain, firstParty: seedResult.firstParty, spa: seedResult.spa });
  }
  const [small, big] = access as [TenantAccess, TenantAccess];
  const froms = new Map<TenantAccess, string>();
  for (const t of access) {
    const walk = await walkToMiddle(g, t);
    froms.set(t, walk.from);
    log(`  ${t.domain}: checkpoint of the middle (after ${fmtInt(t.total / 2)} clients) by ${walk.requests} requests in ${fmt(walk.seconds, 2)} s`);
  }

  // ---- 4. Load: per case, rounds of the small tenant then the big one.
  log(`\n[4/4] load: ${SETTINGS.rounds} round(s) per case, the ${fmtInt(SMALL)}-client tenant then the ${fmtInt(BIG)}-client one in each`);
  const measured: MeasuredCase[] = [];
  for (const spec of CASES) {
    const query: Record<string, string> = {};
    const bodyBytes: Record<string, number> = {};
    for (const t of [small, big]) {
      query[t.label] = spec.query(t.total, froms.get(t));
      bodyBytes[t.label] = (await preflight(g, t, spec, query[t.label]!)).bytes;
    }
    log(`  (${spec.key}) ${spec.label}`);
    const results = await alternate(
      SETTINGS.rounds,
      [small, big].map((t) => ({
        key: t.label,
        run: (round: number) =>
          measure(
            {
              name: `(${spec.key}) ${t.label} clients`,
              method: 'GET',
              path: `/api/v2/clients?${query[t.label]}`,
              headers: { authorization: `Bearer ${t.token}` },
              endpoint: tenantEndpoint(g, t),
              server: gatehouse,
              ...(databaseCpuSeconds && { databaseCpuSeconds }),
            },
            SETTINGS,
            `round ${round}/${SETTINGS.rounds} ${t.label} clients`,
          ),
      })),
    );
    const [smallResults, bigResults] = [results.get(small.label)!, results.get(big.label)!];
    measured.push({ spec, query, bodyBytes, small: smallResults, big: bigResults, smallSummary: summarize(smallResults), bigSummary: summarize(bigResults) });
  }
  const gatehouseAlive = isRunning(gatehouse);

  // ---- Report
  const all = measured.flatMap((m) => [...m.small, ...m.big]);
  log('');
  log(`Medians of ${SETTINGS.rounds} round(s); ±% is half the range of req/s over the rounds, in % of the median.`);
  const withDatabaseCpu = all.some((r) => r.databaseCpuPercent !== undefined);
  const table = [
    ['case', 'clients', 'req/s', '±%', 'p50 ms', 'p99 ms', 'body KB', 'server CPU %', ...(withDatabaseCpu ? ['PostgreSQL CPU %'] : []), 'load CPU %', 'other CPU %', 'failed'],
  ];
  for (const m of measured) {
    for (const [label, s, results] of [
      [fmtInt(SMALL), m.smallSummary, m.small],
      [fmtInt(BIG), m.bigSummary, m.big],
    ] as const) {
      table.push([
        label === fmtInt(SMALL) ? `(${m.spec.key}) ${m.spec.label}` : '',
        label,
        fmtInt(s.reqPerSec),
        fmt(s.spreadPercent / 2, 0),
        fmt(s.p50Ms, 2),
        fmt(s.p99Ms, 2),
        fmt(m.bodyBytes[label]! / 1024),
        fmt(s.serverCpuPercent, 0),
        ...(withDatabaseCpu ? [fmt(median(results.map((r) => r.databaseCpuPercent ?? NaN)), 0)] : []),
        fmt(s.loadCpuPercent, 0),
        fmt(s.otherCpuPercent, 0),
        s.failed ? `${s.failed} !!!` : '0',
      ]);
    }
  }
  printTable(table, `llrrrrrr${withDatabaseCpu ? 'r' : ''}rrr`);
  log('');
  log(`Requests (GET /api/v2/clients?…, on the ${fmtInt(BIG)}-client tenant; the ${fmtInt(SMALL)}-client one differs only in the middle page and checkpoint):`);
  for (const m of measured) log(`  (${m.spec.key}) ?${displayQuery(m.query[fmtInt(BIG)]!)}${m.spec.key === '2' ? `   (page ${middlePage(SMALL)} on the ${fmtInt(SMALL)}-client tenant)` : ''}`);
  log(
    `req/s counts 2xx responses only; latencies are of 2xx responses; every response holds ${PER_PAGE} clients with all fields and the client_secret (admin token). ` +
      `CPU in % of one core: server = Gatehouse${pinning.serverCpus ? ` (on core ${pinning.serverCpus})` : ''}, load = autocannon's process, other = every other process on the machine. ` +
      `Server peak RSS ${fmt(Math.max(...all.map((r) => r.server.hwmMB)))} MiB (VmHWM).`,
  );

  const verdicts = measured.map((m) => {
    const reqRatio = m.smallSummary.reqPerSec / m.bigSummary.reqPerSec;
    const p50Ratio = m.bigSummary.p50Ms / m.smallSummary.p50Ms;
    const p99Ratio = m.bigSummary.p99Ms / m.smallSummary.p99Ms;
    const pass = reqRatio <= TARGET_FACTOR && p50Ratio <= TARGET_FACTOR && p99Ratio <= TARGET_FACTOR;
    const trustworthy = m.smallSummary.failed === 0 && m.bigSummary.failed === 0;
    return { case: m.spec.key, label: m.spec.label, reqPerSecRatio: reqRatio, p50Ratio, p99Ratio, pass, trustworthy, expectedToFail: m.spec.note !== undefined };
  });
  log('');
  log(`Target (reported, not asserted): the ${fmtInt(BIG)} figures within ${TARGET_FACTOR}x of the ${fmtInt(SMALL)} figures (medians)`);
  log(`  (req/s ratio = ${fmtInt(SMALL)} req/s ÷ ${fmtInt(BIG)} req/s; p50 and p99 ratios = ${fmtInt(BIG)} ÷ ${fmtInt(SMALL)}; each must be ≤ ${TARGET_FACTOR})`);
  const vrows = [['case', 'req/s ratio', 'p50 ratio', 'p99 ratio', 'verdict']];
  for (const v of verdicts) {
    const m = measured.find((x) => x.spec.key === v.case)!;
    vrows.push([
      `(${v.case}) ${v.label}`,
      `${fmt(v.reqPerSecRatio, 2)}x`,
      `${fmt(v.p50Ratio, 2)}x`,
      `${fmt(v.p99Ratio, 2)}x`,
      `${v.pass ? 'PASS' : 'FAIL'}${m.spec.note ? ` (${m.spec.note})` : ''}${v.trustworthy ? '' : '  <-- NOT TRUSTWORTHY: failed requests'}`,
    ]);
  }
  printTable(vrows, 'lrrrl');
  if (!pinning.pinned) log(`  (${pinning.note})`);

  logBusyWarning(
    all.filter((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)).map((r) => ({ what: r.case, other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    all.length,
  );
  const withFailures = all.filter((r) => failures(r) > 0);
  logFailureBanner(withFailures.map(failureLine));
  printGatehouseLog(gatehouse, LOG_LEVEL);

  const file = writeResults('clients-', startedAt, {
    bench: 'clients',
    environment: machineInfo(pinning),
    settings: { ...SETTINGS, logLevel: LOG_LEVEL, perPage: PER_PAGE, database, targetFactor: TARGET_FACTOR },
    seeding: { seconds: seedSeconds, tenants: seeds, databaseBytes: dbBytes, vacuumAnalyzeSeconds },
    store: storeTimings,
    cases: measured.map((m) => ({
      case: m.spec.key,
      label: m.spec.label,
      note: m.spec.note,
      query: m.query,
      bodyBytes: m.bodyBytes,
      small: { summary: m.smallSummary, rounds: m.small },
      big: { summary: m.bigSummary, rounds: m.big },
    })),
    verdicts,
    healthy: withFailures.length === 0 && gatehouseAlive,
    machineWasBusy: all.some((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)),
  });
  log(`\nResults: ${file}`);

  const broken = all.filter((r) => r.ok === 0);
  if (broken.length) {
    console.error(`bench: no successful response at all in: ${broken.map((r) => r.case).join(', ')}`);
    return 1;
  }
  return gatehouseAlive ? 0 : 1;
}

await runMain(main);
