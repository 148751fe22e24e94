/**
 * What the two surfaces work with: the configuration, the one clock, the
 * stores (as the domain declares them) and the unit of work, and the shared
 * services. The composition root (src/app/context.ts) builds one per process;
 * nothing else builds any of it.
 */
import type { Logger } from 'pino';
import type { InvalidationBus } from '../platform/cache/invalidation.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { GeoLookup } from '../platform/geoip.js';
import type { FormTokens } from '../platform/crypto/form-tokens.js';
import type { SecretBox } from '../platform/crypto/secret-box.js';
import type { CaptchaVerifier } from './attack-protection/captcha.js';
import type { PhoneBackoff } from './attack-protection/phone-backoff.js';
import type { Mailer } from '../platform/mail/index.js';
import type { RateLimiter } from '../platform/rate-limit/rate-limiter.js';
import type { Metrics } from '../platform/metrics.js';
import type { ActionsRuntime } from './actions-runtime/runtime.js';
import type { ConnectionScripts } from './connections/scripts.js';
import type { DeployedActions } from './actions/deployed.js';
import type { BruteForceProtection } from './brute-force.js';
import type { IssuanceLookups } from './issuance/lookups.js';
import type { Keyring } from './keys/keyring.js';
import type { EncryptionKeyring } from './encryption/keyring.js';
import type { TenantLogs } from './logs/tenant-logs.js';
import type { Stores, UnitOfWork } from './stores.js';
import type { TenantService } from './tenants/service.js';

export interface AppContext {
  config: Config;
  logger: Logger;
  /** The one clock. */
  clock: Clock;
  /** `clock.now()`: milliseconds since the epoch. */
  readonly now: () => number;
  /** Every store, built once (src/domain/stores.ts). */
  stores: Stores;
  /** All-or-nothing work on the stores. */
  unitOfWork: UnitOfWork;
  /** Seals and opens secrets at rest under the master key. */
  box: SecretBox;
  /**
   * CSRF tokens of one kind of form (HMAC under a key derived from the master
   * key, which is read once at start and never again: a key file removed
   * later changes nothing, and nothing makes a new key behind the process's back).
   */
  formTokens(purpose: string): FormTokens;
  keyring: Keyring;
  /** The tenants' encryption keys, held in `box` (loaded at start, reloaded on invalidation and every refresh interval). */
  encryptionKeys: EncryptionKeyring;
  tenants: TenantService;
  /** Cached reads of the token endpoint's hot path (clients, APIs, client grants). */
  lookups: IssuanceLookups;
  /**
   * Tells every process a tenant's cached configuration changed. The stores' configuration writes call it
   * themselves once committed (src/app/configuration-writes.ts); only a write that bypasses the stores needs it.
   */
  invalidation: InvalidationBus;
  /** The process's metrics (counters the surfaces move; served by GET /metrics when configured). */
  metrics: Metrics;
  rateLimiter: RateLimiter;
  /** Failed-login counters and blocks of database-connection users (shared through Redis when configured). */
  bruteForce: BruteForceProtection;
  /** Spacing of text messages to one number under phone provider protection (shared through Redis when configured). */
  phoneBackoff: PhoneBackoff;
  /** Checks CAPTCHA tokens with their provider (bot detection's challenge). */
  captcha: CaptchaVerifier;
  /** Mail to users (SMTP or the local outbox). */
  mailer: Mailer;
  /** The tenant log: `record` an event where an outcome is decided; written in batches off the request path. */
  tenantLogs: TenantLogs;
  /** Runs the actions bound to a trigger in the tenant's sandbox processes (src/domain/actions-runtime/). */
  actions: ActionsRuntime;
  /** Runs connections' scripts (custom databases, `oauth2` profiles) in the tenant's sandbox processes (src/domain/connections/scripts.ts). */
  scripts: ConnectionScripts;
  /** The actions bound to each trigger, as deployed (src/domain/actions/deployed.ts): what the Actions runtime runs. */
  deployedActions: DeployedActions;
  /** Where an address is, from the operator's MaxMind databases (GATEHOUSE_GEOIP_DB, GATEHOUSE_ASN_DB); undefined without them. */
  geo?: GeoLookup | undefined;
  /** Resolves when the database answers; rejects otherwise (GET /health, /health/ready). */
  checkDatabase(): Promise<void>;
  /** Resolves when Redis answers, or at once when none is configured; rejects otherwise (GET /health/ready). */
  checkRedis(): Promise<void>;
}
