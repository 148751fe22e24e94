/**
 * The composition root: builds, once per process, every store (on the
 * database, src/storage/kysely/index.ts), the unit of work, the clock and the
 * shared services, and hands them to the surfaces as the domain's AppContext
 * (src/domain/context.ts). No other module constructs a store or a service
 * that the context carries.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import { lazyModule } from '../platform/lazy.js';
import { pino, type Logger } from 'pino';
import { BruteForceProtection } from '../domain/brute-force.js';
import { CaptchaVerifier } from '../domain/attack-protection/captcha.js';
import { PhoneBackoff } from '../domain/attack-protection/phone-backoff.js';
import { upstreamFetch } from '../platform/http/upstream-fetch.js';
import type { AppContext } from '../domain/context.js';
import { IssuanceLookups } from '../domain/issuance/lookups.js';
import { DeployedActionsReader } from '../domain/actions/deployed.js';
import { BufferedExecutionStore } from '../domain/actions/buffered-executions.js';
import { Keyring } from '../domain/keys/keyring.js';
import { EncryptionKeyring } from '../domain/encryption/keyring.js';
import { BufferedTenantLogs, DISABLED_TENANT_LOGS } from '../domain/logs/tenant-logs.js';
import { TenantError, TenantService, clientSecretContext } from '../domain/tenants/service.js';
import type { Tenant } from '../domain/tenants/tenant.js';
import type { Stores } from '../domain/stores.js';
import { InvalidationBus } from '../platform/cache/invalidation.js';
import { ProcessClock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { FormTokens } from '../platform/crypto/form-tokens.js';
import { loadMasterKey } from '../platform/crypto/master-key.js';
import { secureDataDirectory } from '../platform/data-directory.js';
import { SecretBox } from '../platform/crypto/secret-box.js';
import { Mailer } from '../platform/mail/index.js';
import { openTenantSmtp } from '../domain/email/provider.js';
import { configureHashing, hashingPoolStats } from '../platform/passwords/hashing.js';
import { Metrics, metricsServed } from '../platform/metrics.js';
import { RateLimiter } from '../platform/rate-limit/rate-limiter.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../storage/database.js';
import { databaseIdentity } from '../storage/probe.js';
import { invalidatingStores } from './configuration-writes.js';
import { sealingConnections } from './sealed-connections.js';
import { kyselyStores } from '../storage/kysely/index.js';
import { loopbackAliases } from './loopback-aliases.js';
import { consoleHosts } from './console-client.js';
import { issueSetupLink } from '../domain/console/setup.js';
import { SandboxPool, sandboxSettings } from '../platform/sandbox/pool.js';
import { openGeoDatabases } from '../platform/geoip.js';
import { ActionsRuntime, executionRow } from '../domain/actions-runtime/runtime.js';
import { CachedActionSource } from '../domain/actions-runtime/cached-source.js';
import { ConnectionScripts } from '../domain/connections/scripts.js';

/** The context of a running process: the surfaces' AppContext, plus what only the process itself touches. */
export interface RuntimeContext extends AppContext {
  clock: ProcessClock;
  /** The database handle (migrations, purging, tests' direct reads); the surfaces use `stores`. */
  database: DatabaseHandle;
  /** The Redis connection when REDIS_URL is set (shared buckets, blocks and invalidation). */
  redis: Redis | undefined;
  close(): Promise<void>;
}

/** Paths of request and log fields that may carry secrets; pino replaces them. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["client-certificate"]',
  'res.headers["set-cookie"]',
  '*.client_secret',
  '*.app_secret',
  '*.password',
  '*.private_key',
  '*.client_assertion',
  '*.aws_secret_access_key',
  '*.aws_access_key_id',
  '*.p12',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  'adminClientSecret',
];

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

export async function createContext(config: Config, logger: Logger = createLogger(config)): Promise<RuntimeContext> {
  // The data directory holds the master key, the database and the TLS key: the server's user only.
  for (const line of secureDataDirectory(config.dataDir, config.databaseUrl ? undefined : config.sqliteFile)) logger.warn(line);
  if (config.federationEndpoints) {
    logger.warn(
      { file: config.federationEndpoints.file, strategies: Object.keys(config.federationEndpoints.overrides) },
      'GATEHOUSE_FEDERATION_ENDPOINTS is set: these social connections log in through the endpoints it names instead of the providers\' (for tests and staging only)',
    );
  }
  // Read before the database is opened: a file that cannot serve stops the start (also checked by ./preflight.ts).
  const geo = await openGeoDatabases(config.geoip);
  configureHashing(config.hashing);
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: config.sqliteFile,
    onIdleError: (err) => logger.warn({ err }, 'an idle PostgreSQL connection failed; it will be replaced'),
  });
  const migrated = await migrateToLatest(database.db).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  if (migrated.length > 0) logger.info({ migrations: migrated, database: database.dialect }, `applied ${migrated.length} database migration(s): ${migrated.join(', ')}`);
  const clock = new ProcessClock();
  const masterKey = loadMasterKey(config.masterKey, config.dataDir);
  const box = new SecretBox(masterKey);
  const formTokens = new Map<string, FormTokens>();
  // The Redis client is loaded only when REDIS_URL is set (platform/lazy.ts).
  const redis = config.redisUrl
    ? new (lazyModule<typeof import('ioredis')>('ioredis')().Redis)(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err }, 'redis error; rate limits fall back to in-process buckets'));
  const invalidation = new InvalidationBus(redis, logger);
  const kysely = kyselyStores(database.db, clock);
  // Connections' upstream secrets are sealed at rest and opened on read (src/app/sealed-connections.ts).
  const sealed = sealingConnections(kysely.stores, kysely.unitOfWork, box);
  // Configuration writes invalidate the tenant's cached copies once committed (src/app/configuration-writes.ts).
  const { stores: invalidating, unitOfWork } = invalidatingStores(sealed.stores, sealed.unitOfWork, (tenantId) => invalidation.invalidate(tenantId));
  // Actions' execution records are written in batches, off the request path (src/domain/actions/buffered-executions.ts).
  const executions = new BufferedExecutionStore(invalidating.actionExecutions, logger);
  const stores: Stores = { ...invalidating, actionExecutions: executions };
  // The tenants' encryption keys are in the box before anything is sealed or opened.
  const encryptionKeys = new EncryptionKeyring(stores.encryptionKeys, box, logger);
  await encryptionKeys.loadAll().catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  encryptionKeys.start(config.encryptionKeys.refreshMs);
  const keyring = new Keyring(stores.signingKeys, box, () => clock.now(), stores.customSigningKeys);
  const aliases = loopbackAliases(config);
  const tenants = new TenantService(stores.tenants, keyring, box, () => clock.now(), stores.customDomains, {
    defaultConnection: config.defaultConnection,
    aliases,
  });
  const lookups = new IssuanceLookups({ stores, box, clock, consoleHosts: consoleHosts(stores, aliases) });
  const mailer = new Mailer(config.mail, config.dataDir, () => clock.now(), config.outbound);
  mailer.useTenantServers((tenantId) => openTenantSmtp({ stores, box }, tenantId));
  // One registry per process, when metrics are served; otherwise nothing is recorded (and prom-client is not loaded).
  const metrics = new Metrics(
    { hashingPool: hashingPoolStats, ...(database.poolStats && { databasePool: database.poolStats }) },
    // A cluster worker answers a scrape with every worker's metrics, gathered by the primary (src/app/cluster.ts).
    { served: metricsServed(config), clusterWorker: cluster.isWorker },
  );
  const tenantLogs = config.tenantLogs.enabled
    ? new BufferedTenantLogs(stores.tenantLogs, () => clock.now(), logger, {
        maxBuffered: config.tenantLogs.maxBuffered,
        onDropped: (reason, count) => metrics.tenantLogEventsDropped(reason, count),
        onRecorded: () => metrics.tenantLogEventRecorded(),
      })
    : DISABLED_TENANT_LOGS;
  const sandbox = new SandboxPool(sandboxSettings(config.actions, config.outbound));
  const deployedActions = new DeployedActionsReader({ box, config, stores });
  const boundActions = new CachedActionSource(deployedActions);
  const actions = new ActionsRuntime({ logger, tenantLogs, now: () => clock.now() }, sandbox, boundActions, config.actions.timeoutMs, {
    recordExecution: (tenantId, execution) => stores.actionExecutions.record(executionRow(tenantId, execution)),
  });
  invalidation.onInvalidate((tenantId) => {
    lookups.invalidateTenant(tenantId);
    stores.clientAnchors.invalidateTenant(tenantId);
    tenants.forget(tenantId);
    keyring.invalidate(tenantId);
    boundActions.forget(tenantId);
    encryptionKeys.reload(tenantId).catch((err: unknown) => logger.warn({ err, tenant: tenantId }, "reloading the tenant's encryption keys failed"));
  });
  return {
    config,
    logger,
    clock,
    now: () => clock.now(),
    stores,
    unitOfWork,
    box,
    formTokens(purpose) {
      let tokens = formTokens.get(purpose);
      if (!tokens) formTokens.set(purpose, (tokens = new FormTokens(masterKey, purpose)));
      return tokens;
    },
    keyring,
    encryptionKeys,
    tenants,
    lookups,
    invalidation,
    metrics,
    rateLimiter: new RateLimiter(redis, clock, (bucket) => metrics.rateLimited(bucket)),
    bruteForce: new BruteForceProtection(redis, () => clock.now(), {
      login: (connection, success) => metrics.login(connection, success),
      blocked: () => metrics.bruteForceBlock(),
    }),
    phoneBackoff: new PhoneBackoff(redis),
    captcha: new CaptchaVerifier(upstreamFetch({ outbound: config.outbound, timeoutMs: 5_000, ...(config.captcha.caFile && { ca: fs.readFileSync(config.captcha.caFile) }) }), {
      ...(config.captcha.recaptchaV2VerifyUrl && { recaptcha_v2: config.captcha.recaptchaV2VerifyUrl }),
      ...(config.captcha.hcaptchaVerifyUrl && { hcaptcha: config.captcha.hcaptchaVerifyUrl }),
      ...(config.captcha.friendlyCaptchaVerifyUrl && { friendly_captcha: config.captcha.friendlyCaptchaVerifyUrl }),
    }, (provider, reason) => logger.warn({ provider, reason }, 'a CAPTCHA token could not be verified: the attempt is refused')),
    mailer,
    tenantLogs,
    actions,
    scripts: new ConnectionScripts(sandbox, config.actions.timeoutMs),
    deployedActions,
    geo,
    async checkDatabase() {
      await sql`select 1`.execute(database.db);
    },
    async checkRedis() {
      if (redis && (await redis.ping()) !== 'PONG') throw new Error('Redis did not answer PONG');
    },
    database,
    redis,
    async close() {
      encryptionKeys.stop();
      invalidation.close();
      mailer.close();
      redis?.disconnect();
      await sandbox.close();
      // Buffered log events are written before the database goes.
      await tenantLogs.close().catch((err: unknown) => logger.warn({ err }, 'writing the last tenant log events failed'));
      await executions.close().catch((err: unknown) => logger.warn({ err }, 'writing the last action execution records failed'));
      await database.close();
    },
  };
}

export interface AdminCredentials {
  domain: string;
  client_id: string;
  client_secret: string;
  audience: string;
  token_endpoint: string;
  /** The database the tenant lives in (no credentials): the file is per database. */
  database?: string;
  /** The one-time link that creates the first operator of the admin console (src/domain/console/setup.ts). */
  admin_console_setup_link?: string;
}

/**
 * Where the bootstrap admin credentials of this database are written:
 * `<data dir>/admin-credentials.json`, unless that file holds another
 * database's credentials (or ones written before files named their database);
 * then `admin-credentials-<database>.json`. Another database's file is never
 * overwritten.
 */
export function adminCredentialsFile(dataDir: string, database: string): string {
  const shared = path.join(dataDir, 'admin-credentials.json');
  if (!fs.existsSync(shared)) return shared;
  try {
    if ((JSON.parse(fs.readFileSync(shared, 'utf8')) as AdminCredentials).database === database) return shared;
  } catch {
    // Unreadable: treated as another database's.
  }
  const slug = database.replace(/^[a-z]+:\/*/, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(-80);
  return path.join(dataDir, `admin-credentials-${slug}.json`);
}

/**
 * Creates the default tenant on first start. Generated admin credentials are
 * written to this database's credentials file (mode 0600,
 * adminCredentialsFile) and returned so the caller can print them once.
 */
export async function ensureDefaultTenant(
  ctx: RuntimeContext,
): Promise<{ tenant: Tenant; created: boolean; credentials?: AdminCredentials; credentialsFile?: string; setupLink?: string }> {
  const { config } = ctx;
  const existing = await ctx.tenants.byDomain(config.defaultDomain);
  if (existing) {
    if (config.adminClientId !== undefined && config.adminClientId !== existing.settings.admin_client_id) {
      ctx.logger.warn(
        'GATEHOUSE_ADMIN_CLIENT_ID differs from the admin client of the existing default tenant; the existing one is kept',
      );
    }
    return { tenant: existing, created: false };
  }
  // A database that already has tenants but none on this domain: most often a restore or a start on
  // another port (the default domain is `localhost:PORT`). Said at once, so that a second default
  // tenant and credentials file do not appear unnoticed.
  const others = (await ctx.stores.tenants.list()).map((t) => t.domain);
  if (others.length > 0) {
    ctx.logger.warn(
      { defaultDomain: config.defaultDomain, tenants: others.slice(0, 10) },
      `the default domain ${config.defaultDomain} is no tenant's of this database (it has ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}); ` +
        'a new default tenant is created for it. To serve an existing tenant instead, set GATEHOUSE_DOMAIN (or PORT) to its domain',
    );
  }
  let created: Awaited<ReturnType<typeof ctx.tenants.create>>;
  try {
    created = await ctx.tenants.create({
      domain: config.defaultDomain,
      ...(config.adminClientId !== undefined && { adminClientId: config.adminClientId }),
      ...(config.adminClientSecret !== undefined && { adminClientSecret: config.adminClientSecret }),
    });
  } catch (error) {
    // Processes started together on one new database (behind one load balancer): another one
    // created the default tenant between our look-up and our insert; it is the one to serve.
    const other = error instanceof TenantError ? await ctx.tenants.byDomain(config.defaultDomain) : undefined;
    if (!other) throw error;
    return { tenant: other, created: false };
  }
  // The admin console's first operator comes in through a one-time link, printed with the banner.
  const setupLink = (await issueSetupLink(ctx, created.tenant)).url;
  if (config.adminClientId !== undefined) return { tenant: created.tenant, created: true, setupLink };
  const database = databaseIdentity(config);
  const credentials: AdminCredentials = {
    domain: created.tenant.domain,
    client_id: created.adminClientId,
    client_secret: created.adminClientSecret,
    audience: `https://${created.tenant.domain}/api/v2/`,
    token_endpoint: `https://${created.tenant.domain}/oauth/token`,
    database,
    admin_console_setup_link: setupLink,
  };
  const credentialsFile = adminCredentialsFile(config.dataDir, database);
  fs.writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return { tenant: created.tenant, created: true, credentials, credentialsFile, setupLink };
}

/** The lines printed once when the default tenant is created: its admin client's credentials and the console's setup link. */
export function bootstrapBanner(bootstrap: { credentials?: AdminCredentials; credentialsFile?: string; setupLink?: string }): string[] {
  const { credentials, credentialsFile, setupLink } = bootstrap;
  return [
    ...(credentials
      ? [
          `Created the default tenant. Its admin client credentials (shown once, also in ${credentialsFile}):`,
          `  client_id:     ${credentials.client_id}`,
          `  client_secret: ${credentials.client_secret}`,
          `  audience:      ${credentials.audience}`,
        ]
      : []),
    ...(setupLink
      ? ['The admin console\'s first administrator is created through this one-time link (7 days; a new one: gatehouse admin-link):', `  ${setupLink}`]
      : []),
  ];
}

/** The admin client's secret, for `gatehouse tenants credentials`. */
export async function adminCredentialsOf(ctx: AppContext, tenant: Tenant): Promise<AdminCredentials> {
  const client = await ctx.stores.clients.get(tenant.id, tenant.settings.admin_client_id);
  if (!client?.client_secret_enc) throw new Error(`the admin client of ${tenant.domain} is missing`);
  return {
    domain: tenant.domain,
    client_id: client.client_id,
    client_secret: ctx.box.openString(client.client_secret_enc, clientSecretContext(tenant.id, client.client_id)),
    audience: `https://${tenant.domain}/api/v2/`,
    token_endpoint: `https://${tenant.domain}/oauth/token`,
  };
}
