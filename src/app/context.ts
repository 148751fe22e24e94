/**
 * The application context: configuration and every service, passed explicitly
 * (no global singletons). Built once per process by `createContext`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { BruteForceProtection } from '../domain/brute-force.js';
import { InvalidationBus } from '../platform/cache/invalidation.js';
import { IssuanceLookups } from '../domain/issuance/lookups.js';
import { KyselyClientGrantStore } from '../storage/kysely/client-grants.js';
import { KyselyClientStore } from '../storage/kysely/clients.js';
import type { Config } from '../platform/config.js';
import { FormTokens } from '../platform/crypto/form-tokens.js';
import { loadMasterKey } from '../platform/crypto/master-key.js';
import { SecretBox } from '../platform/crypto/secret-box.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../storage/database.js';
import { Keyring } from '../domain/keys/keyring.js';
import { KyselySigningKeyStore } from '../storage/kysely/signing-keys.js';
import { RateLimiter } from '../platform/rate-limit/rate-limiter.js';
import type { EffectivePermissions } from '../authentication/token/user-tokens.js';
import { KyselyRbacStore } from '../storage/kysely/rbac.js';
import { KyselyResourceServerStore } from '../storage/kysely/resource-servers.js';
import { TenantService, clientSecretContext } from '../domain/tenants/service.js';
import { KyselyTenantStore } from '../storage/kysely/tenants.js';
import type { Tenant } from '../domain/tenants/tenant.js';
import { type ResourceServerStore } from '../domain/resource-servers/store.js';
import { type ClientStore } from '../domain/clients/store.js';
import { type ClientGrantStore } from '../domain/client-grants/store.js';

export interface AppContext {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  box: SecretBox;
  /**
   * CSRF tokens of one kind of form (HMAC under a key derived from the master
   * key, which is read once at start and never again: a key file removed
   * later changes nothing, and nothing makes a new key behind the process's back).
   */
  formTokens(purpose: string): FormTokens;
  keyring: Keyring;
  tenants: TenantService;
  clients: ClientStore;
  resourceServers: ResourceServerStore;
  clientGrants: ClientGrantStore;
  rateLimiter: RateLimiter;
  /** Failed-login counters and blocks of database-connection users (shared through Redis when configured). */
  bruteForce: BruteForceProtection;
  /** Cached reads of the token endpoint's hot path. */
  lookups: IssuanceLookups;
  /** Users' permissions per API (RBAC), read on every user token for an API that uses them: not cached, so a role change counts at once. */
  permissions: EffectivePermissions;
  /** Call `invalidation.invalidate(tenantId)` after any write to a tenant's configuration. */
  invalidation: InvalidationBus;
  redis: Redis | undefined;
  now: () => number;
  close(): Promise<void>;
}

/** Paths of request and log fields that may carry secrets; pino replaces them. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["client-certificate"]',
  'res.headers["set-cookie"]',
  '*.client_secret',
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

export async function createContext(config: Config, logger: Logger = createLogger(config)): Promise<AppContext> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: config.sqliteFile,
    onIdleError: (err) => logger.warn({ err }, 'an idle PostgreSQL connection failed; it will be replaced'),
  });
  await migrateToLatest(database.db);
  const masterKey = loadMasterKey(config.masterKey, config.dataDir);
  const box = new SecretBox(masterKey);
  const formTokens = new Map<string, FormTokens>();
  const keyring = new Keyring(new KyselySigningKeyStore(database.db), box);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err }, 'redis error; rate limits fall back to in-process buckets'));
  const invalidation = new InvalidationBus(redis, logger);
  const tenants = new TenantService(new KyselyTenantStore(database.db), keyring, box);
  const ctx: AppContext = {
    config,
    logger,
    database,
    box,
    formTokens(purpose) {
      let tokens = formTokens.get(purpose);
      if (!tokens) formTokens.set(purpose, (tokens = new FormTokens(masterKey, purpose)));
      return tokens;
    },
    keyring,
    tenants,
    clients: new KyselyClientStore(database.db),
    resourceServers: new KyselyResourceServerStore(database.db),
    clientGrants: new KyselyClientGrantStore(database.db),
    rateLimiter: new RateLimiter(redis),
    bruteForce: new BruteForceProtection(redis),
    lookups: undefined as unknown as IssuanceLookups,
    permissions: new KyselyRbacStore(database.db),
    invalidation,
    redis,
    now: Date.now,
    async close() {
      invalidation.close();
      redis?.disconnect();
      await database.close();
    },
  };
  ctx.lookups = new IssuanceLookups(ctx);
  invalidation.onInvalidate((tenantId) => {
    ctx.lookups.invalidateTenant(tenantId);
    tenants.forget(tenantId);
  });
  return ctx;
}

export interface AdminCredentials {
  domain: string;
  client_id: string;
  client_secret: string;
  audience: string;
  token_endpoint: string;
}

/**
 * Creates the default tenant on first start. Generated admin credentials are
 * written to `<data dir>/admin-credentials.json` (mode 0600) and returned so
 * the caller can print them once.
 */
export async function ensureDefaultTenant(
  ctx: AppContext,
): Promise<{ tenant: Tenant; created: boolean; credentials?: AdminCredentials }> {
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
  const created = await ctx.tenants.create({
    domain: config.defaultDomain,
    ...(config.adminClientId !== undefined && { adminClientId: config.adminClientId }),
    ...(config.adminClientSecret !== undefined && { adminClientSecret: config.adminClientSecret }),
  });
  if (config.adminClientId !== undefined) return { tenant: created.tenant, created: true };
  const credentials: AdminCredentials = {
    domain: created.tenant.domain,
    client_id: created.adminClientId,
    client_secret: created.adminClientSecret,
    audience: `https://${created.tenant.domain}/api/v2/`,
    token_endpoint: `https://${created.tenant.domain}/oauth/token`,
  };
  fs.writeFileSync(path.join(config.dataDir, 'admin-credentials.json'), JSON.stringify(credentials, null, 2) + '\n', {
    mode: 0o600,
  });
  return { tenant: created.tenant, created: true, credentials };
}

/** The admin client's secret, for `gatehouse tenants credentials`. */
export async function adminCredentialsOf(ctx: AppContext, tenant: Tenant): Promise<AdminCredentials> {
  const client = await ctx.clients.get(tenant.id, tenant.settings.admin_client_id);
  if (!client?.client_secret_enc) throw new Error(`the admin client of ${tenant.domain} is missing`);
  return {
    domain: tenant.domain,
    client_id: client.client_id,
    client_secret: ctx.box.openString(client.client_secret_enc, clientSecretContext(tenant.id, client.client_id)),
    audience: `https://${tenant.domain}/api/v2/`,
    token_endpoint: `https://${tenant.domain}/oauth/token`,
  };
}
