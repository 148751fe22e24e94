/**
 * Configuration from environment variables, validated once at start-up.
 *
 * Every setting is one entry of TABLE below: its name, its meaning, its
 * default (written once) and how it is read. loadConfig reads the
 * environment only through it, `gatehouse --help` prints it, and
 * docs/configuration.md is generated from it (`npm run docs:generate`; a
 * test fails when the page and the table disagree). A bad value stops
 * start-up with a message naming the variable.
 */
import fs from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeoSettings } from './geoip.js';
import { readFederationEndpoints, type FederationEndpointOverrides } from './federation-endpoints.js';
import { parseOutboundAllow, type Cidr, type OutboundPolicy } from './http/outbound-guard.js';
export interface RateLimitSetting {
  /** Bucket size: requests that may arrive at once. */
  burst: number;
  /** Sustained refill rate, requests per second. */
  perSecond: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; otherwise the SQLite file below is used. */
  databaseUrl: string | undefined;
  sqliteFile: string;
  defaultDomain: string;
  adminClientId: string | undefined;
  adminClientSecret: string | undefined;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  plainHttp: boolean;
  /** The built admin console served at /admin/ (GATEHOUSE_CONSOLE_DIR; default `dist/console` of the installation). */
  consoleDir: string;
  masterKey: string | undefined;
  redisUrl: string | undefined;
  logLevel: string;
  /**
   * Which proxies' `X-Forwarded-For` Gatehouse believes, so that the client
   * address (brute-force keys, rate limits, logs) is the end user's behind a
   * load balancer: `false` (none, the default), a hop count, or the proxies'
   * addresses and CIDR ranges. Passed to Fastify's `trustProxy`.
   */
  trustProxy: false | number | string[];
  mail: {
    /** smtp:// or smtps:// URL; unset means the local outbox `<data dir>/outbox.jsonl`. */
    smtpUrl: string | undefined;
    /** Sender address; default `no-reply@<tenant domain>`. */
    from: string | undefined;
    /** PEM of extra certificate authorities trusted for tenants' own SMTP servers (`/api/v2/emails/provider`). */
    tenantSmtpCa: string | undefined;
  };
  sms: {
    /**
     * Base URL of Twilio's REST API (`/2010-04-01/Accounts/{sid}/Messages.json`
     * is appended): https, or http to a loopback address (a local stand-in).
     */
    twilioUrl: string;
  };
  /** Delivery of MFA push notifications (src/platform/push/). */
  push: {
    /**
     * Base URL of APNs (`/3/device/{token}` is appended), overriding the
     * default of each tenant's provider (Apple's production host, or its
     * sandbox host when the provider's `sandbox` is true).
     */
    apnsUrl: string | undefined;
    /** Endpoint of Amazon SNS, overriding the default of the provider's region. */
    snsEndpoint: string | undefined;
    /** Base URL of Firebase Cloud Messaging, and Google's token endpoint for FCM v1 service accounts (src/platform/push/fcm.ts). */
    fcmUrl: string | undefined;
    fcmTokenUrl: string | undefined;
    /** PEM file of extra certificate authorities trusted for APNs, SNS and FCM (besides the system roots). */
    caFile: string | undefined;
  };
  /** Duo's Universal Prompt, the `duo` second factor (src/platform/duo/universal-prompt.ts). */
  duo: {
    /** Base URL of every tenant's Duo API instead of `https://{host}` of its settings (a local stand-in). */
    url: string | undefined;
    /** PEM file of extra certificate authorities trusted when calling Duo (besides the system roots). */
    caFile: string | undefined;
  };
  /** Bot detection's CAPTCHA verification (src/domain/attack-protection/captcha.ts): each provider's verify endpoint, and extra trusted authorities. */
  captcha: {
    recaptchaV2VerifyUrl: string | undefined;
    hcaptchaVerifyUrl: string | undefined;
    friendlyCaptchaVerifyUrl: string | undefined;
    caFile: string | undefined;
  };
  /**
   * Milliseconds a client has to send a whole request (headers and body);
   * past it the connection is answered 408 and closed.
   */
  requestTimeoutMs: number;
  /** Connections one client address may hold open at once; further ones are closed on arrival. */
  maxConnectionsPerAddress: number;
  /** Time a connection has to complete its TLS handshake, from its arrival; past it the connection is closed. */
  tlsHandshakeTimeoutMs: number;
  /** DNS servers (`ip` or `ip:port`) that custom-domain verification asks for TXT records; undefined: the system's. */
  dnsServers: string[] | undefined;
  /** PEM file of extra certificate authorities trusted for back-channel logout deliveries (relying parties on a private PKI). */
  backchannelCaFile: string | undefined;
  /** PEM file of extra certificate authorities trusted when posting events to event streams' webhooks. */
  eventStreamCaFile: string | undefined;
  /** How long a post to an event stream's webhook may take (ms); a claimed batch is leased for as long as its posts can take. */
  eventStreamTimeoutMs: number;
  /** GET /api/v2/events (Server-Sent Events): open subscriptions per tenant and process, and the heartbeat and poll intervals (ms). */
  eventSubscriptions: { maxPerTenant: number; heartbeatMs: number; pollMs: number };
  /** Non-public address ranges that tenants' outbound destinations may reach (GATEHOUSE_OUTBOUND_ALLOW; src/platform/http/outbound-guard.ts). */
  outbound: OutboundPolicy;
  /**
   * The endpoints social strategies use instead of the providers' own
   * (GATEHOUSE_FEDERATION_ENDPOINTS, src/platform/federation-endpoints.ts):
   * tests and staging only; a warning is logged on every start while set.
   */
  federationEndpoints: { file: string; overrides: FederationEndpointOverrides } | undefined;
  /** The operator's MaxMind databases (GATEHOUSE_GEOIP_DB, GATEHOUSE_ASN_DB; src/platform/geoip.ts). */
  geoip: GeoSettings;
  /** Worker processes sharing the port (src/app/cluster.ts); 1 runs the server in this process. */
  workers: number;
  /**
   * On SIGTERM/SIGINT, how long in-flight requests may take to finish
   * (GATEHOUSE_SHUTDOWN_GRACE); connections still busy then are closed.
   */
  shutdownGraceMs: number;
  /** Management API jobs (src/domain/jobs/runner.ts). */
  jobs: {
    /** How long a process holds a job between progress commits; a dead process's job is resumed after it. */
    leaseMs: number;
    /** Largest users file a user import takes (bytes). */
    importMaxBytes: number;
    /** Users a batch commits at once (with the job's progress). */
    importBatch: number;
  };
  /**
   * Inbound directory provisioning of Google Workspace connections
   * (src/domain/directory-provisioning/): where the Admin SDK Directory API
   * is, the extra certificate authorities trusted for it and for Google's
   * token endpoint, and the bound of one synchronization.
   */
  directorySync: {
    googleUrl: string;
    caFile: string | undefined;
    maxUsers: number;
  };
  /** The tenant encryption keys (src/domain/encryption/) and the rekey job that moves sealed values under a new one. */
  encryptionKeys: {
    /** How often every process reloads every tenant's keys; a rekey waits this long before sealing under a new key and before retiring an old one. */
    refreshMs: number;
    /** Rows a rekey reads and rewrites per transaction. */
    batch: number;
    /** Pause between a rekey's batches (0: none). */
    pauseMs: number;
  };
  /** Registry Actions' dependencies are installed from (src/domain/actions/build.ts); undefined: npm's own configuration. */
  actionsRegistry: string | undefined;
  /** Tenant logs (src/domain/logs/) and log streams (src/domain/log-streams/). */
  tenantLogs: {
    /** Whether authentication events are recorded (GATEHOUSE_TENANT_LOGS=off turns them off). */
    enabled: boolean;
    /** Days an event is kept; the purge job deletes older ones. */
    retentionDays: number;
    /** Events held in memory while the database does not take them; beyond, the oldest are dropped with a warning. */
    maxBuffered: number;
    /** PEM file of extra certificate authorities trusted when posting to log stream endpoints. */
    streamCaFile: string | undefined;
  };
  /** The password-hashing pool (src/platform/passwords/hashing.ts). */
  hashing: {
    /** Worker threads hashing at once. */
    threads: number;
    /** Hashes waiting for a thread beyond which logins are refused with 429 and Retry-After. */
    queue: number;
  };
  /** The sandbox processes that run tenants' code: Actions, connection scripts (src/platform/sandbox/pool.ts). */
  actions: {
    /** The user they run as (name or uid[:gid]); undefined: the server's own user (the operator isolates them otherwise: docs/actions.md). */
    user: string | undefined;
    memoryMb: number;
    timeoutMs: number;
    processes: number;
    processesPerTenant: number;
  };
  /** New tenants start with `Username-Password-Authentication`, enabled for their clients and for clients created later. */
  defaultConnection: boolean;
  /** GET /metrics (src/platform/metrics.ts); served only when one of the two is set. */
  metrics: {
    /** Bearer token that opens /metrics on the public listener. */
    token: string | undefined;
    /** Port of a plain-HTTP listener on 127.0.0.1 serving /metrics without a token. */
    port: number | undefined;
  };
  rateLimits: {
    management: RateLimitSetting;
    authentication: RateLimitSetting;
    /** GET /api/v2/clients with `q`: its own, lower bucket (spec, Rate limiting item 2). */
    management_clients_query: RateLimitSetting;
  };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** One environment setting as documented: `gatehouse --help` and docs/configuration.md are made from these. */
export interface Setting {
  name: string;
  /** What it does (Markdown: `code`, [links](relative.md)). */
  meaning: string;
  /** The default, as it is documented; a value default is shown from the value the code uses. */
  default: string;
  /** Where the setting is read when loadConfig does not read it (the OpenTelemetry SDK's variables). */
  readBy?: string;
}

/** A setting of the table: its documentation and how loadConfig reads it. */
interface Entry<T> {
  meaning: string;
  default: string;
  readBy?: string;
  /** The value, from the trimmed variable (undefined when unset or blank); throws ConfigError naming `name`. */
  read(raw: string | undefined, name: string): T;
}

/** The value as given. */
function text(raw: string): string {
  return raw;
}

/** A setting with a value default: the default is written here once, as the value, and shown from it. */
function withDefault<T>(fallback: T, meaning: string, parse: (raw: string, name: string) => T, shown: string = code(String(fallback))): Entry<T> {
  return { meaning, default: shown, read: (raw, name) => (raw === undefined ? fallback : parse(raw, name)) };
}

/** A setting that is absent unless set; `absent` says what happens then. */
function optional<T>(meaning: string, absent: string, parse: (raw: string, name: string) => T): Entry<T | undefined> {
  return { meaning, default: absent, read: (raw, name) => (raw === undefined ? undefined : parse(raw, name)) };
}

/** A setting whose default loadConfig derives from other settings or from the machine (`fallback`); `shown` says how. */
function derived<T>(meaning: string, shown: string, parse: (raw: string, name: string) => T): Entry<T | undefined> {
  return optional(meaning, shown, parse);
}

/** Seconds, read as milliseconds. */
function seconds(fallback: number, meaning: string): Entry<number> {
  return { meaning, default: code(String(fallback)), read: (raw, name) => (raw === undefined ? fallback * 1000 : parseSeconds(name, raw)) };
}

/** A whole number from 1 to 1,000,000. */
function count(fallback: number, meaning: string): Entry<number> {
  return withDefault(fallback, meaning, (raw, name) => parseCount(name, raw));
}

/** 1 or 0 (true or false). */
function flag(fallback: boolean, meaning: string): Entry<boolean> {
  return withDefault(fallback, meaning, (raw, name) => parseFlag(name, raw), code(fallback ? '1' : '0'));
}

/** A bucket as burst/per-second. */
function rate(fallback: RateLimitSetting, meaning: string): Entry<RateLimitSetting> {
  return withDefault(fallback, meaning, (raw, name) => parseRateLimit(name, raw), code(`${fallback.burst}/${fallback.perSecond}`));
}

/** A PEM file of extra certificate authorities: its path, resolved, after checking that it exists. */
function caFile(meaning: string): Entry<string | undefined> {
  return optional(meaning, 'none: the system roots only', (raw, name) => {
    if (!fs.existsSync(raw)) throw new ConfigError(name, `no such file: ${raw}`);
    return path.resolve(raw);
  });
}

/** A data file read at start (its content is checked where it is opened). */
function dataFile(meaning: string, absent: string): Entry<string | undefined> {
  return optional(meaning, absent, (raw, name) => {
    if (!fs.existsSync(raw)) throw new ConfigError(name, `no such file: ${raw}`);
    return path.resolve(raw);
  });
}

/** The URL of a remote endpoint (parseEndpointUrl). */
function endpointUrl(meaning: string, absent: string): Entry<string | undefined> {
  return optional(meaning, absent, (raw, name) => parseEndpointUrl(name, raw));
}

/** The URL of a remote endpoint reached over HTTPS only (parseEndpointUrl, then the scheme). */
function httpsEndpointUrl(meaning: string, absent: string): Entry<string | undefined> {
  return optional(meaning, absent, (raw, name) => {
    const url = parseEndpointUrl(name, raw);
    if (!url.startsWith('https:')) throw new ConfigError(name, 'must be an https:// URL');
    return url;
  });
}

/** The base URL of a remote service (parseServiceUrl). */
function serviceUrl(meaning: string, absent: string): Entry<string | undefined> {
  return optional(meaning, absent, (raw, name) => parseServiceUrl(name, raw));
}

/** Documented here, read elsewhere: the OpenTelemetry SDK's variables (src/platform/tracing/), libuv's pool size (bin/gatehouse.cjs). */
function readElsewhere(readBy: string, meaning: string, shown: string): Entry<undefined> {
  return { meaning, default: shown, readBy, read: () => undefined };
}

/** A value as Markdown code. */
function code(value: string): string {
  return `\`${value}\``;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const ONE_MIB = 1024 * 1024;
const HASH_QUEUE_PER_THREAD = 64;
const USERS_IMPORT_MAX_BYTES = 64 * ONE_MIB;
/** `dist/console` of the installation: this module is `src/platform/config.ts`, or part of `dist/server/main.js` (the bundle the server runs), both two levels below it. */
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/**
 * Every environment setting, in the order `--help` and docs/configuration.md
 * list them: its meaning, its default (written once) and how it is read.
 * loadConfig reads the environment only through this table.
 */
const TABLE = {
  PORT: withDefault(3000, 'TCP port to listen on', (raw) => parsePort(raw)),
  HOST: withDefault('::', 'interface to listen on', text, 'all interfaces (`::`)'),
  GATEHOUSE_DATA_DIR: withDefault('./data', 'data directory: the SQLite database, the master key, the TLS certificate, the admin credentials, the mail outbox', text),
  DATABASE_URL: optional('`postgres://…` for PostgreSQL (see [PostgreSQL and Redis](operations/postgresql-redis.md)); `sqlite:` followed by a file path for another SQLite file; otherwise SQLite', 'SQLite file `<data dir>/gatehouse.db`', (raw, name) => {
    if (!/^postgres(ql)?:\/\//.test(raw) && !/^(sqlite|file):/.test(raw)) throw new ConfigError(name, 'must start with postgres:// (or sqlite: followed by a file path)');
    return raw;
  }),
  GATEHOUSE_DOMAIN: derived('domain (`host[:port]`) of the default tenant', '`localhost:${PORT}`', text),
  GATEHOUSE_ADMIN_CLIENT_ID: optional(
    'client_id of the bootstrap admin client of the default tenant (used when the tenant is first created); set together with `GATEHOUSE_ADMIN_CLIENT_SECRET`, 1 to 64 characters of `[A-Za-z0-9_-]`',
    'generated on first start, printed once, written to `<data dir>/admin-credentials.json` (mode 0600; `admin-credentials-<database>.json` when that file belongs to another database)',
    text,
  ),
  GATEHOUSE_ADMIN_CLIENT_SECRET: optional(
    'client_secret of the bootstrap admin client (at least 16 characters)',
    'generated on first start, printed once, written to `<data dir>/admin-credentials.json`',
    text,
  ),
  TLS_CERT_FILE: optional(
    'PEM certificate (chain) to serve; set together with `TLS_KEY_FILE` (see [TLS](operations/tls.md))',
    'self-signed ECDSA P-256 for `localhost`, `127.0.0.1`, `::1` and the default domain, valid 825 days, generated at `<data dir>/tls/cert.pem` and reused',
    text,
  ),
  TLS_KEY_FILE: optional('PEM private key of that certificate', 'generated at `<data dir>/tls/key.pem`', text),
  GATEHOUSE_HTTP: flag(false, '`1` = serve plain HTTP (behind a TLS-terminating proxy)'),
  GATEHOUSE_MASTER_KEY: optional(
    'key for secrets at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64; keep it apart from the backups (see [Backup and restore](operations/backup.md))',
    'a key file created at `<data dir>/master.key`',
    (raw, name) => {
      if (decodeMasterKey(raw) === undefined) throw new ConfigError(name, 'must be 32 bytes written as 64 hex characters or as base64');
      return raw;
    },
  ),
  REDIS_URL: optional(
    '`redis://…` or `rediss://…`: rate-limit buckets and brute-force blocks shared by every process (blocks then survive restarts), cache invalidation across processes',
    'none (in-process)',
    (raw, name) => {
      if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(name, 'must start with redis:// or rediss://');
      return raw;
    },
  ),
  LOG_LEVEL: withDefault('info', `pino log level: ${LOG_LEVELS.map((l) => `\`${l}\``).join(', ')}`, (raw, name) => {
    if (!LOG_LEVELS.includes(raw)) throw new ConfigError(name, `must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
    return raw;
  }, ),
  GATEHOUSE_TRUST_PROXY: withDefault<false | number | string[]>(
    false,
    'proxies whose `X-Forwarded-For` names the end user (brute-force keys, rate limits, logs): a hop count (e.g. `1` behind one load balancer, at most 16), or a comma-separated list of addresses and CIDR ranges (prefer addresses: a hop count cannot tell a proxy from a client that reaches Gatehouse directly)',
    (raw) => parseTrustProxy(raw),
    'none: the address of the TCP peer',
  ),
  GATEHOUSE_SMTP_URL: optional('`smtp://` or `smtps://` URL of the mail server (email verification, password reset)', 'none: mail is written to `<data dir>/outbox.jsonl`', (raw, name) => {
    if (!/^smtps?:\/\/[^/]/.test(raw)) throw new ConfigError(name, 'must be an smtp:// or smtps:// URL');
    return raw;
  }),
  GATEHOUSE_MAIL_FROM: optional('sender address of that mail', '`no-reply@<tenant domain>`', text),
  GATEHOUSE_TWILIO_URL: withDefault(
    'https://api.twilio.com',
    "base URL of Twilio's REST API, where MFA text messages go (`POST /2010-04-01/Accounts/{sid}/Messages.json`, HTTP Basic with the tenant's account SID and auth token); `https://`, or `http://` only to a loopback address (a local stand-in, as the tests use)",
    (raw, name) => parseServiceUrl(name, raw),
  ),
  GATEHOUSE_APNS_URL: serviceUrl(
    "base URL of Apple Push Notification service, where MFA pushes go when the tenant's push provider is `direct` (or `guardian`): HTTP/2, `POST /3/device/{token}`, the provider's p12 as TLS client certificate; `https://`, or `http://` only to a loopback address",
    "`https://api.push.apple.com`, or `https://api.sandbox.push.apple.com` when the tenant's APNs provider has `sandbox: true`",
  ),
  GATEHOUSE_SNS_ENDPOINT: serviceUrl(
    "endpoint of Amazon SNS, where MFA pushes go when the tenant's push provider is `sns` (`CreatePlatformEndpoint`, `Publish`, through the AWS SDK with the provider's keys); `https://`, or `http://` only to a loopback address",
    "the AWS endpoint of the provider's `aws_region`",
  ),
  GATEHOUSE_FCM_URL: serviceUrl(
    "base URL of Firebase Cloud Messaging, where MFA pushes to Android devices go when the tenant's push provider is `direct` (or `guardian`) and it has an `fcmv1` (`POST /v1/projects/{project}/messages:send`) or `fcm` (`POST /fcm/send`) provider; `https://`, or `http://` only to a loopback address",
    '`https://fcm.googleapis.com`',
  ),
  GATEHOUSE_FCM_TOKEN_URL: endpointUrl(
    "Google's OAuth 2.0 token endpoint, where an `fcmv1` provider's service account exchanges its signed assertion for an access token (the key's own `token_uri` is not followed); `https://`, or `http://` only to a loopback address",
    '`https://oauth2.googleapis.com/token`',
  ),
  GATEHOUSE_GOOGLE_DIRECTORY_URL: withDefault(
    'https://admin.googleapis.com',
    "base URL of Google's Admin SDK Directory API, which a `google-apps` connection's directory provisioning reads (`GET /admin/directory/v1/users`, `…/groups`, `…/groups/{id}/members`, with an access token from the connection's `admin_refresh_token`; see [SCIM provisioning](scim.md)); `https://` only. For tests and staging against a local stand-in; calls still go through the outbound guard",
    (raw, name) => {
      const url = parseServiceUrl(name, raw);
      if (!url.startsWith('https://')) throw new ConfigError(name, 'must be an https:// URL');
      return url;
    },
  ),
  GATEHOUSE_DUO_URL: optional(
    "base URL of Duo's API for every tenant's `duo` factor (the Universal Prompt's `/oauth/v1/authorize`, where the browser is sent, and `/oauth/v1/token`, where the code is redeemed) instead of `https://{host}` of the tenant's Duo settings: a private relay, or a local stand-in as the tests use; `https://` only (the code is redeemed through the outbound guard: a non-public address needs `GATEHOUSE_OUTBOUND_ALLOW`)",
    "`https://{host}` of the tenant's `/guardian/factors/duo/settings`",
    (raw, name) => {
      const url = parseServiceUrl(name, raw);
      if (!url.startsWith('https://')) throw new ConfigError(name, 'must be an https:// URL');
      return url;
    },
  ),
  GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE: caFile("PEM file of extra certificate authorities trusted when a directory synchronization calls Google's token endpoint and Directory API (the tests' stand-in), besides the system roots"),
  GATEHOUSE_DIRECTORY_SYNC_MAX_USERS: count(
    50_000,
    'most directory users one synchronization of a connection reads (pages of at most 500); a directory larger than this is synchronized up to it, and then nobody is blocked for being absent (the run saw only part of the directory), which the synchronization\'s status says',
  ),
  GATEHOUSE_DUO_CA_FILE: caFile('PEM file of extra certificate authorities trusted when redeeming Duo codes (a relay on a private PKI, or the tests\' stand-in), besides the system roots'),
  GATEHOUSE_PUSH_CA_FILE: caFile('PEM file of extra certificate authorities trusted when connecting to APNs, SNS and FCM (a private relay, or the tests\' stand-ins), besides the system roots'),
  GATEHOUSE_RECAPTCHA_VERIFY_URL: httpsEndpointUrl(
    'where reCAPTCHA v2 tokens of the hosted login page are verified (`POST` of `secret`, `response`, `remoteip`; bot detection\'s challenge with the `recaptcha_v2` provider); `https://` only',
    '`https://www.google.com/recaptcha/api/siteverify`',
  ),
  GATEHOUSE_HCAPTCHA_VERIFY_URL: httpsEndpointUrl(
    'where hCaptcha tokens of the hosted login page are verified (`POST` of `secret`, `response`, `remoteip`, `sitekey`; the `hcaptcha` provider); `https://` only',
    '`https://api.hcaptcha.com/siteverify`',
  ),
  GATEHOUSE_FRIENDLY_CAPTCHA_VERIFY_URL: httpsEndpointUrl(
    'where Friendly Captcha solutions of the hosted login page are verified (`POST` of `solution`, `secret`, `sitekey`; the `friendly_captcha` provider, v1 API); `https://` only',
    '`https://api.friendlycaptcha.com/api/v1/siteverify`',
  ),
  GATEHOUSE_CAPTCHA_CA_FILE: caFile('PEM file of extra certificate authorities trusted when verifying CAPTCHA tokens (a private relay, or the tests\' stand-ins), besides the system roots'),
  GATEHOUSE_REQUEST_TIMEOUT: seconds(30, 'seconds a client has to send a whole request, headers and body (0.01 to 3600); a slower one is answered 408 and its connection closed'),
  GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: count(
    256,
    "connections one client IP address may hold open at once; at the limit a new one replaces the address's oldest connection still in its TLS handshake, and is closed as it arrives only when there is none (behind a proxy every client shares the proxy's address: raise it, or let the proxy limit)",
  ),
  GATEHOUSE_TLS_HANDSHAKE_TIMEOUT: seconds(10, 'seconds a connection has, from its arrival, to complete its TLS handshake; a slower one is closed'),
  GATEHOUSE_DNS_SERVERS: optional(
    'comma-separated DNS servers (`ip` or `ip:port`) asked for the TXT records that verify custom domains (`POST /api/v2/custom-domains/{id}/verify`)',
    "the system's resolvers",
    (raw) => parseDnsServers(raw),
  ),
  GATEHOUSE_BACKCHANNEL_CA_FILE: caFile('PEM file of extra certificate authorities trusted when posting back-channel logout tokens to relying parties (on a private PKI), besides the system roots'),
  GATEHOUSE_OUTBOUND_ALLOW: withDefault<Cidr[]>(
    [],
    "comma-separated CIDR ranges beyond the public internet that tenants' outbound destinations may reach: back-channel logout URIs, log stream endpoints, tenants' own SMTP servers (e.g. `10.0.0.0/8,fd00::/8` for relying parties on your private network). Every other loopback, private, link-local, shared or reserved address is refused at connection time (names are resolved and each address checked, so DNS cannot be used to slip past); the delivery fails with a message naming this setting",
    (raw, name) => {
      try {
        return parseOutboundAllow(raw);
      } catch (err) {
        throw new ConfigError(name, (err as Error).message);
      }
    },
    'none: public addresses only',
  ),
  GATEHOUSE_FEDERATION_ENDPOINTS: optional(
    'path of a JSON file mapping a social connection strategy to the endpoints its logins use instead of the provider\'s (`{"github": {"authorization_endpoint": …, "token_endpoint": …, "api_base": …}, "google-oauth2": {"issuer": …}}`; members `issuer` (an OpenID provider whose discovery document is read), `authorization_endpoint`, `token_endpoint`, `api_base`, each https; strategies `google-oauth2`, `github`, `apple`, `windowslive`, `facebook`, `linkedin`, `waad`, `google-apps`; each strategy takes exactly the members it uses, all of them: `issuer` for the OpenID providers, `authorization_endpoint`, `token_endpoint` and `api_base` for `github`, `facebook` and `windowslive`; anything else stops the start), read at start, for tests and staging against local stand-ins (see [Federated login](federation.md)); a warning is logged on every start while it is set. The upstreams are still reached through the outbound guard',
    "none: the providers' own endpoints",
    (raw, name) => {
      try {
        return { file: path.resolve(raw), overrides: readFederationEndpoints(raw) };
      } catch (err) {
        throw new ConfigError(name, (err as Error).message);
      }
    },
  ),
  GATEHOUSE_GEOIP_DB: dataFile(
    'path of a MaxMind City or Country database (`.mmdb`: GeoLite2-City, GeoIP2-Country, …) that network ACL rules by country (`geo_country_codes`) and subdivision (`geo_subdivision_codes`, ISO 3166-2 such as `GB-ENG`) read; Gatehouse ships no geolocation data (see [the Management API](management-api.md))',
    'none: rules by country or subdivision are refused',
  ),
  GATEHOUSE_ASN_DB: dataFile(
    'path of a MaxMind ASN database (`.mmdb`: GeoLite2-ASN) that network ACL rules by autonomous system (`asns`) read',
    'none: rules by ASN are refused',
  ),
  GATEHOUSE_WORKERS: withDefault(
    1,
    'worker processes serving the port (`node:cluster`), or `auto` for one per core (1 to 64); each has its own caches and, without `REDIS_URL`, its own rate-limit buckets and brute-force counters (see [Workers](operations/workers.md))',
    (raw, name) => parseWorkers(name, raw),
    '`1`: this process serves',
  ),
  GATEHOUSE_SHUTDOWN_GRACE: seconds(
    10,
    'seconds in-flight requests get to finish after SIGTERM or SIGINT (the listener closes at once); then the tenant log and the queues are flushed and the process exits',
  ),
  GATEHOUSE_JOB_LEASE: seconds(
    60,
    'seconds a process holds a Management API job (user import or export) between progress commits; the job of a process that stopped without handing it back is resumed by another after it',
  ),
  GATEHOUSE_ENCRYPTION_KEYS_REFRESH: seconds(
    30,
    "seconds between reloads of every tenant's encryption keys in each process (a key operation also reloads them at once in every process when `REDIS_URL` is set); a rekey waits this long before sealing under the new key and again before retiring the old one, so no process seals under a key another does not hold",
  ),
  GATEHOUSE_REKEY_BATCH: count(200, 'rows a rekey reads and rewrites per transaction'),
  GATEHOUSE_REKEY_PAUSE: seconds(0, "seconds a rekey pauses between batches, to leave the database to the traffic (0: no pause)"),
  GATEHOUSE_ACTIONS_REGISTRY: optional(
    "npm registry (or mirror) that Actions' dependencies are installed from by the build step (`npm install --ignore-scripts` into a folder per build under `<data dir>/actions/builds/`); `https://`, or `http://` only to a loopback address (a local mirror or tarball cache)",
    "the registry npm's own configuration names (`.npmrc`, `npm_config_registry`), by default the public npm registry",
    (raw, name) => parseRegistryUrl(name, raw),
  ),
  GATEHOUSE_USERS_IMPORT_MAX_BYTES: withDefault(
    USERS_IMPORT_MAX_BYTES,
    'largest users file `POST /api/v2/jobs/users-imports` takes (413 beyond), 1024 to 1073741824 bytes',
    (raw, name) => {
      if (!/^\d+$/.test(raw) || Number(raw) < 1024 || Number(raw) > 1024 ** 3) throw new ConfigError(name, `must be a number of bytes from 1024 to 1073741824, got "${raw}"`);
      return Number(raw);
    },
    `${code(String(USERS_IMPORT_MAX_BYTES))} (${USERS_IMPORT_MAX_BYTES / ONE_MIB} MiB)`,
  ),
  GATEHOUSE_TENANT_LOGS: withDefault(
    true,
    '`on` records authentication and Management API events in the tenant log (`GET /api/v2/logs`, log streams); `off` records none (e.g. to measure their cost with `npm run bench:logs`)',
    (raw, name) => {
      const value = raw.toLowerCase();
      if (!['on', 'off', '1', '0', 'true', 'false'].includes(value)) throw new ConfigError(name, `must be on or off, got "${value}"`);
      return ['on', '1', 'true'].includes(value);
    },
    '`on`',
  ),
  GATEHOUSE_LOG_RETENTION_DAYS: withDefault(30, 'days tenant log events are kept; the hourly purge deletes older ones (1 to 3650)', (raw, name) => {
    const days = parseCount(name, raw);
    if (days > 3650) throw new ConfigError(name, `must be at most 3650, got "${days}"`);
    return days;
  }),
  GATEHOUSE_LOG_BUFFER: count(
    50_000,
    'tenant log events a process holds in memory while the database does not take them; beyond it the oldest are dropped, counted, and a warning is logged',
  ),
  GATEHOUSE_EVENT_STREAM_CA_FILE: caFile('PEM file of extra certificate authorities trusted when posting events to event streams\' webhook endpoints, besides the system roots'),
  GATEHOUSE_EVENT_STREAM_TIMEOUT: seconds(
    10,
    'seconds a post of an event to an event stream\'s webhook may take (0.01 to 3600) before it counts as a failed attempt; the deliveries a process claims are held for as long as a batch of such posts can take, after which a process that died holding them leaves them to another',
  ),
  GATEHOUSE_EVENTS_MAX_SUBSCRIBERS: count(
    5,
    "subscriptions to a tenant's events (`GET /api/v2/events`, Server-Sent Events) a process keeps open at once; one more is answered 403 until one closes (the limit is per process: N processes hold N times as many)",
  ),
  GATEHOUSE_EVENTS_HEARTBEAT: seconds(15, 'seconds between the heartbeat comments of an open `GET /api/v2/events` stream (0.01 to 3600), which keep proxies from closing an idle stream'),
  GATEHOUSE_EVENTS_POLL: seconds(
    1,
    "seconds between two reads of the tenant's event log by an open `GET /api/v2/events` stream (0.01 to 3600): an event reaches subscribers in every process at most this long after its change commits",
  ),
  GATEHOUSE_LOG_STREAM_CA_FILE: caFile('PEM file of extra certificate authorities trusted when posting log events to log stream endpoints, besides the system roots'),
  GATEHOUSE_SMTP_CA_FILE: optional(
    'PEM file of extra certificate authorities trusted for the SMTP servers tenants configure (`/api/v2/emails/provider`), besides the system roots',
    'none: the system roots only',
    (raw, name) => {
      if (!fs.existsSync(raw)) throw new ConfigError(name, `no such file: ${raw}`);
      return fs.readFileSync(raw, 'utf8');
    },
  ),
  GATEHOUSE_HASH_THREADS: derived(
    'worker threads hashing and verifying passwords (1 to 256), each holding up to 4 hashes, at the priority of the event loop so that logins and token issuance share a busy core',
    'the cores but one, shared among the `GATEHOUSE_WORKERS` processes, at least 1 each',
    (raw, name) => {
      const threads = parseCount(name, raw);
      if (threads > 256) throw new ConfigError(name, `must be at most 256, got "${threads}"`);
      return threads;
    },
  ),
  GATEHOUSE_HASH_QUEUE: derived(
    'password hashes that may wait beyond the 4 each thread holds; beyond it a login is refused at once with 429 `too_many_requests` and `Retry-After: 1`',
    `${HASH_QUEUE_PER_THREAD} per hashing thread`,
    (raw, name) => parseCount(name, raw),
  ),
  GATEHOUSE_ACTIONS_USER: derived(
    "user that the sandbox processes running tenants' code (Actions, connection scripts) run as: a name of /etc/passwd or `uid[:gid]`; it must not be the server's user, whose processes can read the server's environment (`/proc/<pid>/environ`) and files (see [Actions](actions.md))",
    '`nobody` when the server runs as root; otherwise the server\'s own user (then isolate the sandbox yourself: see [Actions](actions.md))',
    text,
  ),
  GATEHOUSE_ACTIONS_MEMORY_MB: count(128, "heap of each sandbox process in MiB (`--max-old-space-size`); a process that exceeds it is stopped and the run fails"),
  GATEHOUSE_ACTIONS_TIMEOUT: seconds(20, "seconds the actions of one trigger may run in all, as the service allows; past it the sandbox process is killed (and replaced) and the trigger fails"),
  GATEHOUSE_ACTIONS_PROCESSES: count(8, 'sandbox processes running at most, all tenants together; an idle process of another tenant is stopped to make room'),
  GATEHOUSE_ACTIONS_PROCESSES_PER_TENANT: count(2, "sandbox processes of one tenant at most (a tenant's processes are never shared with another); further runs wait for one"),
  UV_THREADPOOL_SIZE: readElsewhere(
    'bin/gatehouse.cjs',
    "threads of libuv's pool, on which token signing (RS256) and password hashing run; read by Node.js when the pool is first used, so the launcher sets it before anything else",
    "one per core but one (at least 1), instead of libuv's 4",
  ),
  GATEHOUSE_DEFAULT_CONNECTION: flag(
    true,
    "`1`: every new tenant starts with the `Username-Password-Authentication` database connection, enabled for its clients and (the service's `enable_client_connections`) for clients created later; `0`: tenants start with no connection",
  ),
  GATEHOUSE_CONSOLE_DIR: withDefault(
    DEFAULT_CONSOLE_DIR,
    'directory of the built admin console (`index.html`, `app.js`, `app.css`) served at `https://{domain}/admin/`',
    text,
    '`dist/console` of the installation (built by `npm run build`)',
  ),
  GATEHOUSE_METRICS_TOKEN: optional(
    'serves `GET /metrics` (Prometheus text format) on the public port to requests with `Authorization: Bearer <this token>` (16 to 256 printable characters, compared in constant time); anything else gets 401 and no metrics',
    'none: no `/metrics` on the public port',
    (raw, name) => {
      if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError(name, 'must be 16 to 256 printable characters without spaces');
      return raw;
    },
  ),
  GATEHOUSE_METRICS_PORT: optional(
    'serves `GET /metrics` without a token on a separate plain-HTTP listener bound to `127.0.0.1` at this port (for a local Prometheus agent); it must differ from `PORT`',
    'none: no metrics listener',
    (raw, name) => {
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) throw new ConfigError(name, `must be an integer from 1 to 65535, got "${raw}"`);
      return Number(raw);
    },
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: readElsewhere(
    'src/platform/tracing/',
    "traces over OpenTelemetry, sent to this collector over OTLP/HTTP as JSON (`<endpoint>/v1/traces`; see [Tracing](operations/monitoring.md#traces)). OpenTelemetry's other variables apply as its SDK reads them: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG`, `OTEL_BSP_SCHEDULE_DELAY` and the other `OTEL_BSP_*`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_PROPAGATORS`, `OTEL_SDK_DISABLED=true`, `OTEL_LOG_LEVEL`",
    'none: no tracing, and no OpenTelemetry module is loaded',
  ),
  OTEL_SERVICE_NAME: readElsewhere('src/platform/tracing/', '`service.name` of the traces', '`gatehouse`'),
  GATEHOUSE_RATE_LIMIT_MANAGEMENT: rate({ burst: 50, perSecond: 16 }, 'Management API bucket per tenant, `burst/per-second`'),
  GATEHOUSE_RATE_LIMIT_AUTHENTICATION: rate({ burst: 100, perSecond: 100 }, 'Authentication API bucket per tenant, `burst/per-second`'),
  GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY: rate({ burst: 20, perSecond: 5 }, '`GET /api/v2/clients` with `q`: its own, lower bucket per tenant, `burst/per-second`'),
} satisfies Record<string, Entry<unknown>>;

type SettingName = keyof typeof TABLE;
type SettingValue<K extends SettingName> = ReturnType<(typeof TABLE)[K]['read']>;

/** The documented settings, in the order `--help` prints them. */
export const SETTINGS: readonly Setting[] = Object.entries(TABLE).map(([name, entry]: [string, Entry<unknown>]) => ({
  name,
  meaning: entry.meaning,
  default: entry.default,
  ...(entry.readBy !== undefined && { readBy: entry.readBy }),
}));

/** A setting's value from the environment: the variable trimmed, blank as unset, read by its entry. */
function read<K extends SettingName>(env: NodeJS.ProcessEnv, name: K): SettingValue<K> {
  const value = env[name];
  const raw = value === undefined || value.trim() === '' ? undefined : value.trim();
  return (TABLE[name] as Entry<unknown>).read(raw, name) as SettingValue<K>;
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

function parseFlag(name: string, value: string): boolean {
  if (!['0', '1', 'true', 'false'].includes(value)) throw new ConfigError(name, `must be 1 or 0, got "${value}"`);
  return value === '1' || value === 'true';
}

/** An IPv4/IPv6 address, or one with a /prefix of the right size. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseDnsServers(value: string): string[] | undefined {
  const servers = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of servers) {
    const match = /^(?:\[([0-9a-fA-F:]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(server);
    const ip = match?.[1] ?? match?.[2];
    const port = match?.[3] === undefined ? 53 : Number(match[3]);
    if (!ip || isIP(ip) === 0 || port < 1 || port > 65535) {
      throw new ConfigError('GATEHOUSE_DNS_SERVERS', `"${server}" is not an IP address with an optional :port`);
    }
  }
  return servers.length ? servers : undefined;
}

function parseTrustProxy(value: string): false | number | string[] {
  if (value === '0' || value === 'false') return false;
  if (/^\d+$/.test(value)) {
    if (Number(value) > 16) throw new ConfigError('GATEHOUSE_TRUST_PROXY', `a hop count must be at most 16, got "${value}"`);
    return Number(value);
  }
  const entries = value.split(',').map((v) => v.trim()).filter(Boolean);
  const bad = entries.find((e) => !isAddressOrCidr(e));
  if (bad !== undefined || entries.length === 0) {
    throw new ConfigError(
      'GATEHOUSE_TRUST_PROXY',
      `must be a hop count or a comma-separated list of IP addresses and CIDR ranges (e.g. "10.0.0.0/8,192.168.1.7"), got "${bad ?? value}"`,
    );
  }
  return entries;
}

function parseRateLimit(name: string, value: string): RateLimitSetting {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) {
    throw new ConfigError(name, `must be burst/per-second with positive numbers, e.g. "50/16", got "${value}"`);
  }
  return { burst: Number(match[1]), perSecond: Number(match[2]) };
}

/** Seconds from 0.01 to 3600, as milliseconds. */
function parseSeconds(name: string, value: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 0.01 && seconds <= 3600)) {
    throw new ConfigError(name, `must be a number of seconds from 0.01 to 3600, got "${value}"`);
  }
  return Math.round(seconds * 1000);
}

/** GATEHOUSE_WORKERS: `auto` (one per core) or 1 to 64. */
function parseWorkers(name: string, value: string): number {
  if (value === 'auto') return os.availableParallelism();
  const workers = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(workers >= 1 && workers <= 64)) throw new ConfigError(name, `must be auto or a whole number from 1 to 64, got "${value}"`);
  return workers;
}

function parseCount(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) {
    throw new ConfigError(name, `must be an integer from 1 to 1000000, got "${value}"`);
  }
  return Number(value);
}

/** A domain is host[:port]; no scheme, path or trailing slash. */
export function isValidDomain(domain: string): boolean {
  return /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i.test(domain);
}

/** The password-hashing threads by default: the cores but one, shared among the worker processes. */
function defaultHashThreads(workers: number): number {
  return Math.max(1, Math.floor((os.availableParallelism() - 1) / workers));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = read(env, 'PORT');
  const dataDir = path.resolve(read(env, 'GATEHOUSE_DATA_DIR'));
  const workers = read(env, 'GATEHOUSE_WORKERS');

  const databaseUrl = read(env, 'DATABASE_URL');
  const sqliteFile =
    databaseUrl && /^(sqlite|file):/.test(databaseUrl)
      ? path.resolve(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, ''))
      : path.join(dataDir, 'gatehouse.db');

  const defaultDomain = (read(env, 'GATEHOUSE_DOMAIN') ?? `localhost:${port}`).toLowerCase();
  if (!isValidDomain(defaultDomain)) {
    throw new ConfigError('GATEHOUSE_DOMAIN', `must be a host name with an optional :port, got "${defaultDomain}"`);
  }

  const adminClientId = read(env, 'GATEHOUSE_ADMIN_CLIENT_ID');
  const adminClientSecret = read(env, 'GATEHOUSE_ADMIN_CLIENT_SECRET');
  if ((adminClientId === undefined) !== (adminClientSecret === undefined)) {
    throw new ConfigError(
      adminClientId === undefined ? 'GATEHOUSE_ADMIN_CLIENT_ID' : 'GATEHOUSE_ADMIN_CLIENT_SECRET',
      'GATEHOUSE_ADMIN_CLIENT_ID and GATEHOUSE_ADMIN_CLIENT_SECRET must be set together',
    );
  }
  if (adminClientId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(adminClientId)) {
    throw new ConfigError('GATEHOUSE_ADMIN_CLIENT_ID', 'must be 1 to 64 characters of [A-Za-z0-9_-]');
  }
  if (adminClientSecret !== undefined && adminClientSecret.length < 16) {
    throw new ConfigError('GATEHOUSE_ADMIN_CLIENT_SECRET', 'must be at least 16 characters');
  }

  const tlsCertFile = read(env, 'TLS_CERT_FILE');
  const tlsKeyFile = read(env, 'TLS_KEY_FILE');
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) {
    throw new ConfigError(tlsCertFile === undefined ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE', 'TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }

  const plainHttp = read(env, 'GATEHOUSE_HTTP');
  const masterKey = read(env, 'GATEHOUSE_MASTER_KEY');
  const redisUrl = read(env, 'REDIS_URL');
  const logLevel = read(env, 'LOG_LEVEL');
  const smtpUrl = read(env, 'GATEHOUSE_SMTP_URL');
  const defaultConnection = read(env, 'GATEHOUSE_DEFAULT_CONNECTION');
  const metricsToken = read(env, 'GATEHOUSE_METRICS_TOKEN');
  const metricsPort = read(env, 'GATEHOUSE_METRICS_PORT');
  if (metricsPort === port) throw new ConfigError('GATEHOUSE_METRICS_PORT', `must differ from PORT (${port})`);
  const twilioUrl = read(env, 'GATEHOUSE_TWILIO_URL');

  return {
    port,
    host: read(env, 'HOST'),
    dataDir,
    databaseUrl: databaseUrl && /^postgres/.test(databaseUrl) ? databaseUrl : undefined,
    sqliteFile,
    defaultDomain,
    adminClientId,
    adminClientSecret,
    tlsCertFile: tlsCertFile && path.resolve(tlsCertFile),
    tlsKeyFile: tlsKeyFile && path.resolve(tlsKeyFile),
    plainHttp,
    consoleDir: path.resolve(read(env, 'GATEHOUSE_CONSOLE_DIR')),
    masterKey,
    redisUrl,
    logLevel,
    trustProxy: read(env, 'GATEHOUSE_TRUST_PROXY'),
    mail: {
      smtpUrl,
      from: read(env, 'GATEHOUSE_MAIL_FROM'),
      tenantSmtpCa: read(env, 'GATEHOUSE_SMTP_CA_FILE'),
    },
    sms: { twilioUrl },
    push: {
      apnsUrl: read(env, 'GATEHOUSE_APNS_URL'),
      snsEndpoint: read(env, 'GATEHOUSE_SNS_ENDPOINT'),
      fcmUrl: read(env, 'GATEHOUSE_FCM_URL'),
      fcmTokenUrl: read(env, 'GATEHOUSE_FCM_TOKEN_URL'),
      caFile: read(env, 'GATEHOUSE_PUSH_CA_FILE'),
    },
    duo: { url: read(env, 'GATEHOUSE_DUO_URL'), caFile: read(env, 'GATEHOUSE_DUO_CA_FILE') },
    captcha: {
      recaptchaV2VerifyUrl: read(env, 'GATEHOUSE_RECAPTCHA_VERIFY_URL'),
      hcaptchaVerifyUrl: read(env, 'GATEHOUSE_HCAPTCHA_VERIFY_URL'),
      friendlyCaptchaVerifyUrl: read(env, 'GATEHOUSE_FRIENDLY_CAPTCHA_VERIFY_URL'),
      caFile: read(env, 'GATEHOUSE_CAPTCHA_CA_FILE'),
    },
    requestTimeoutMs: read(env, 'GATEHOUSE_REQUEST_TIMEOUT'),
    maxConnectionsPerAddress: read(env, 'GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS'),
    tlsHandshakeTimeoutMs: read(env, 'GATEHOUSE_TLS_HANDSHAKE_TIMEOUT'),
    dnsServers: read(env, 'GATEHOUSE_DNS_SERVERS'),
    outbound: { allow: read(env, 'GATEHOUSE_OUTBOUND_ALLOW') },
    federationEndpoints: read(env, 'GATEHOUSE_FEDERATION_ENDPOINTS'),
    backchannelCaFile: read(env, 'GATEHOUSE_BACKCHANNEL_CA_FILE'),
    geoip: { database: read(env, 'GATEHOUSE_GEOIP_DB'), asnDatabase: read(env, 'GATEHOUSE_ASN_DB') },
    eventStreamCaFile: read(env, 'GATEHOUSE_EVENT_STREAM_CA_FILE'),
    eventStreamTimeoutMs: read(env, 'GATEHOUSE_EVENT_STREAM_TIMEOUT'),
    eventSubscriptions: {
      maxPerTenant: read(env, 'GATEHOUSE_EVENTS_MAX_SUBSCRIBERS'),
      heartbeatMs: read(env, 'GATEHOUSE_EVENTS_HEARTBEAT'),
      pollMs: read(env, 'GATEHOUSE_EVENTS_POLL'),
    },
    workers,
    shutdownGraceMs: read(env, 'GATEHOUSE_SHUTDOWN_GRACE'),
    jobs: {
      leaseMs: read(env, 'GATEHOUSE_JOB_LEASE'),
      importMaxBytes: read(env, 'GATEHOUSE_USERS_IMPORT_MAX_BYTES'),
      importBatch: 500,
    },
    directorySync: {
      googleUrl: read(env, 'GATEHOUSE_GOOGLE_DIRECTORY_URL'),
      caFile: read(env, 'GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE'),
      maxUsers: read(env, 'GATEHOUSE_DIRECTORY_SYNC_MAX_USERS'),
    },
    encryptionKeys: {
      refreshMs: read(env, 'GATEHOUSE_ENCRYPTION_KEYS_REFRESH'),
      batch: read(env, 'GATEHOUSE_REKEY_BATCH'),
      pauseMs: read(env, 'GATEHOUSE_REKEY_PAUSE'),
    },
    actionsRegistry: read(env, 'GATEHOUSE_ACTIONS_REGISTRY'),
    tenantLogs: (() => {
      const enabled = read(env, 'GATEHOUSE_TENANT_LOGS');
      const retentionDays = read(env, 'GATEHOUSE_LOG_RETENTION_DAYS');
      const streamCaFile = read(env, 'GATEHOUSE_LOG_STREAM_CA_FILE');
      return { enabled, retentionDays, maxBuffered: read(env, 'GATEHOUSE_LOG_BUFFER'), streamCaFile };
    })(),
    hashing: (() => {
      const threads = read(env, 'GATEHOUSE_HASH_THREADS') ?? defaultHashThreads(workers);
      return { threads, queue: read(env, 'GATEHOUSE_HASH_QUEUE') ?? HASH_QUEUE_PER_THREAD * threads };
    })(),
    actions: {
      user: read(env, 'GATEHOUSE_ACTIONS_USER') ?? (process.getuid?.() === 0 ? 'nobody' : undefined),
      memoryMb: read(env, 'GATEHOUSE_ACTIONS_MEMORY_MB'),
      timeoutMs: read(env, 'GATEHOUSE_ACTIONS_TIMEOUT'),
      processes: read(env, 'GATEHOUSE_ACTIONS_PROCESSES'),
      processesPerTenant: read(env, 'GATEHOUSE_ACTIONS_PROCESSES_PER_TENANT'),
    },
    defaultConnection,
    metrics: { token: metricsToken, port: metricsPort },
    rateLimits: {
      management: read(env, 'GATEHOUSE_RATE_LIMIT_MANAGEMENT'),
      authentication: read(env, 'GATEHOUSE_RATE_LIMIT_AUTHENTICATION'),
      management_clients_query: read(env, 'GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY'),
    },
  };
}

/** 32 bytes as 64 hex characters or base64/base64url; undefined when it is neither. */
export function decodeMasterKey(value: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes;
  }
  return undefined;
}

/** Markdown as plain text for a terminal: pointers into the docs dropped, a link's text kept, code marks dropped. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\s*\(see \[[^\]]+\]\([^)]+\)\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/`/g, '');
}

/** `text` broken into lines of at most `width` characters, each after `indent`. */
function wrap(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(indent + line);
  return lines;
}

export function helpText(): string {
  const indent = '      ';
  const rows = SETTINGS.flatMap((s) => [
    `  ${s.name}`,
    ...wrap(plainText(s.meaning), indent, 100),
    ...wrap(`default: ${plainText(s.default)}`, indent, 100),
  ]);
  return [
    'Gatehouse: self-hostable identity platform (Management API v2 and Authentication API).',
    '',
    'Usage:',
    '  gatehouse [serve]                        start the server',
    '  gatehouse tenants create <domain> [--name <name>]',
    '  gatehouse tenants list',
    '  gatehouse tenants credentials <domain>   print the admin client credentials of a tenant',
    '  gatehouse tenants set-rate-limit <domain> <management|authentication|management_clients_query> <burst>/<per-second>',
    '  gatehouse admin-link [--tenant <domain>]  print a new one-time link that creates an admin console operator',
    '  gatehouse backup --out <file>             copy the SQLite database while it serves (PostgreSQL: use pg_dump)',
    '  gatehouse restore <file> [--force]       replace the SQLite database by a backup (the server stopped)',
    '  gatehouse --help',
    '',
    'Environment variables (docs/configuration.md describes each):',
    ...rows,
    '',
  ].join('\n');
}

/** An npm registry: https, or http only to a loopback address; a path is kept (mirrors serve under one), credentials are not taken here (.npmrc holds them). */
function parseRegistryUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an https:// URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) throw new ConfigError(name, 'must be an https:// URL (http:// only to a loopback address)');
  if (url.username || url.password || url.search || url.hash) throw new ConfigError(name, 'must be a base URL without credentials, path, query or fragment');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The base URL of a remote service: https, or http only to a loopback address (a local stand-in); no path, query or credentials. */
/** As parseServiceUrl, for an endpoint: a path is kept. */
function parseEndpointUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an https:// URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) throw new ConfigError(name, 'must be an https:// URL (http:// only to a loopback address)');
  if (url.username || url.password || url.search || url.hash) throw new ConfigError(name, 'must be a base URL without credentials, path, query or fragment');
  return url.href;
}

function parseServiceUrl(name: string, value: string): string {
  const url = new URL(parseEndpointUrl(name, value));
  if (url.pathname !== '/' && url.pathname !== '') throw new ConfigError(name, 'must be a base URL without credentials, path, query or fragment');
  return url.origin;
}
