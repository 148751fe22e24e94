/**
 * Configuration from environment variables, validated once at start-up.
 *
 * Every setting is documented here, beside its default; `gatehouse --help`
 * prints this table, and the README repeats it. A bad value stops start-up
 * with a message naming the variable.
 */
import fs from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOutboundAllow, type OutboundPolicy } from './http/outbound-guard.js';

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
    /** PEM file of extra certificate authorities trusted for APNs and SNS (besides the system roots). */
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
  /** Non-public address ranges that tenants' outbound destinations may reach (GATEHOUSE_OUTBOUND_ALLOW; src/platform/http/outbound-guard.ts). */
  outbound: OutboundPolicy;
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

interface Setting {
  name: string;
  meaning: string;
  default: string;
}

/** The documented settings, in the order `--help` prints them. */
export const SETTINGS: readonly Setting[] = [
  { name: 'PORT', meaning: 'TCP port to listen on', default: '3000' },
  { name: 'HOST', meaning: 'interface to listen on', default: 'all interfaces' },
  { name: 'GATEHOUSE_DATA_DIR', meaning: 'data directory (SQLite file, keys, TLS certificate)', default: './data' },
  { name: 'DATABASE_URL', meaning: 'postgres://… for PostgreSQL; otherwise SQLite', default: 'SQLite file <data dir>/gatehouse.db' },
  { name: 'GATEHOUSE_DOMAIN', meaning: 'domain (host[:port]) of the default tenant', default: 'localhost:${PORT}' },
  {
    name: 'GATEHOUSE_ADMIN_CLIENT_ID',
    meaning: 'client_id of the bootstrap admin client of the default tenant',
    default: 'generated on first start, written to <data dir>/admin-credentials.json',
  },
  {
    name: 'GATEHOUSE_ADMIN_CLIENT_SECRET',
    meaning: 'client_secret of the bootstrap admin client',
    default: 'generated on first start, written to <data dir>/admin-credentials.json',
  },
  { name: 'TLS_CERT_FILE', meaning: 'PEM certificate (chain) to serve', default: 'self-signed, <data dir>/tls/cert.pem' },
  { name: 'TLS_KEY_FILE', meaning: 'PEM private key of that certificate', default: 'generated, <data dir>/tls/key.pem' },
  { name: 'GATEHOUSE_HTTP', meaning: '1 = serve plain HTTP (behind a TLS-terminating proxy)', default: 'off' },
  {
    name: 'GATEHOUSE_MASTER_KEY',
    meaning: 'key for secrets at rest: 32 bytes as 64 hex characters or base64',
    default: 'a key file created at <data dir>/master.key',
  },
  { name: 'REDIS_URL', meaning: 'redis://… to share rate-limit buckets across processes', default: 'none (in-process)' },
  { name: 'LOG_LEVEL', meaning: 'pino log level (fatal, error, warn, info, debug, trace, silent)', default: 'info' },
  {
    name: 'GATEHOUSE_TRUST_PROXY',
    meaning:
      'proxies whose X-Forwarded-For gives the end-user address: a hop count (e.g. 1 behind one load balancer), or a comma-separated list of addresses and CIDR ranges',
    default: 'none: the address of the TCP peer',
  },
  { name: 'GATEHOUSE_SMTP_URL', meaning: 'smtp:// or smtps:// URL of the mail server (verification and reset mail)', default: 'none: mail goes to <data dir>/outbox.jsonl' },
  { name: 'GATEHOUSE_MAIL_FROM', meaning: 'sender address of that mail', default: 'no-reply@<tenant domain>' },
  {
    name: 'GATEHOUSE_TWILIO_URL',
    meaning: "base URL of Twilio's REST API for MFA text messages (https, or http to a loopback address for a local stand-in)",
    default: 'https://api.twilio.com',
  },
  {
    name: 'GATEHOUSE_APNS_URL',
    meaning: 'base URL of Apple Push Notification service for MFA pushes (HTTP/2, the provider\'s p12 as client certificate); https, or http to a loopback address',
    default: "https://api.push.apple.com, or https://api.sandbox.push.apple.com when the tenant's APNs provider has sandbox true",
  },
  {
    name: 'GATEHOUSE_SNS_ENDPOINT',
    meaning: 'endpoint of Amazon SNS for MFA pushes (CreatePlatformEndpoint, Publish); https, or http to a loopback address',
    default: "the AWS endpoint of the SNS provider's region",
  },
  {
    name: 'GATEHOUSE_PUSH_CA_FILE',
    meaning: 'PEM file of extra certificate authorities trusted when connecting to APNs and SNS (besides the system roots)',
    default: 'none: the system roots only',
  },
  {
    name: 'GATEHOUSE_REQUEST_TIMEOUT',
    meaning: 'seconds a client has to send a whole request, headers and body (slower ones get 408 and are closed)',
    default: '30',
  },
  {
    name: 'GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS',
    meaning:
      'connections one client IP address may hold open at once; at the limit a new one replaces the oldest still in its TLS handshake, else it is closed (behind a proxy, raise it or rely on the proxy)',
    default: '256',
  },
  {
    name: 'GATEHOUSE_TLS_HANDSHAKE_TIMEOUT',
    meaning: 'seconds a connection has, from its arrival, to complete the TLS handshake; a slower one is closed',
    default: '10',
  },
  {
    name: 'GATEHOUSE_DNS_SERVERS',
    meaning: 'comma-separated DNS servers (ip or ip:port) asked for the TXT records that verify custom domains',
    default: "the system's resolvers",
  },
  {
    name: 'GATEHOUSE_BACKCHANNEL_CA_FILE',
    meaning: 'PEM file of extra certificate authorities trusted when posting back-channel logout tokens to relying parties (besides the system roots)',
    default: 'none: the system roots only',
  },
  {
    name: 'GATEHOUSE_WORKERS',
    meaning: 'worker processes serving the port (node:cluster), or auto for one per core; each has its own caches and, without REDIS_URL, its own rate-limit buckets and brute-force counters',
    default: '1 (this process serves)',
  },
  {
    name: 'GATEHOUSE_SHUTDOWN_GRACE',
    meaning:
      'seconds in-flight requests get to finish after SIGTERM or SIGINT (the listener closes at once); then the tenant log and the queues are flushed and the process exits',
    default: '10',
  },
  {
    name: 'GATEHOUSE_JOB_LEASE',
    meaning: 'seconds a process holds a Management API job (user import/export) between progress commits; a job of a stopped process is resumed by another after it',
    default: '60',
  },
  {
    name: 'GATEHOUSE_USERS_IMPORT_MAX_BYTES',
    meaning: 'largest users file POST /api/v2/jobs/users-imports takes (413 beyond)',
    default: '67108864 (64 MiB)',
  },
  {
    name: 'GATEHOUSE_TENANT_LOGS',
    meaning: 'on = record authentication and Management API events in the tenant log (GET /api/v2/logs, log streams); off = record none',
    default: 'on',
  },
  { name: 'GATEHOUSE_LOG_RETENTION_DAYS', meaning: 'days tenant log events are kept before the hourly purge deletes them (1 to 3650)', default: '30' },
  {
    name: 'GATEHOUSE_LOG_BUFFER',
    meaning: 'tenant log events a process holds in memory while the database does not take them; beyond, the oldest are dropped and a warning logged',
    default: '50000',
  },
  {
    name: 'GATEHOUSE_LOG_STREAM_CA_FILE',
    meaning: 'PEM file of extra certificate authorities trusted when posting tenant log events to log stream endpoints (besides the system roots)',
    default: 'none: the system roots only',
  },
  {
    name: 'GATEHOUSE_SMTP_CA_FILE',
    meaning: "PEM file of extra certificate authorities trusted for the SMTP servers tenants configure (/api/v2/emails/provider), besides the system roots",
    default: 'none: the system roots only',
  },
  {
    name: 'GATEHOUSE_HASH_THREADS',
    meaning: 'worker threads hashing and verifying passwords, at the priority of the event loop so logins and token issuance share a busy core',
    default: 'the cores but one, shared among GATEHOUSE_WORKERS (at least 1 each)',
  },
  {
    name: 'GATEHOUSE_HASH_QUEUE',
    meaning: 'password hashes that may wait for a thread; beyond it logins get 429 too_many_requests with Retry-After: 1',
    default: '64 per hashing thread',
  },
  {
    name: 'GATEHOUSE_DEFAULT_CONNECTION',
    meaning:
      '1 = every new tenant starts with the Username-Password-Authentication database connection, enabled for its clients and for clients created later (the service\'s enable_client_connections); 0 = tenants start with no connection',
    default: '1',
  },
  {
    name: 'GATEHOUSE_CONSOLE_DIR',
    meaning: 'directory of the built admin console (index.html, app.js, app.css) served at https://{domain}/admin/',
    default: 'dist/console of the installation (built by npm run build)',
  },
  {
    name: 'GATEHOUSE_METRICS_TOKEN',
    meaning: 'serves GET /metrics (Prometheus) on the public port to requests with Authorization: Bearer <this token> (16 to 256 characters); others get 401',
    default: 'none: no /metrics on the public port',
  },
  {
    name: 'GATEHOUSE_METRICS_PORT',
    meaning: 'serves GET /metrics (Prometheus) without a token on a plain-HTTP listener bound to 127.0.0.1 at this port',
    default: 'none: no metrics listener',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    meaning:
      'traces over OpenTelemetry (OTLP/HTTP, JSON) to this collector (spans sent to <endpoint>/v1/traces); the other OTEL_* variables the OpenTelemetry SDK reads apply (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_*, OTEL_RESOURCE_ATTRIBUTES, OTEL_SDK_DISABLED)',
    default: 'none: no tracing, and OpenTelemetry is not loaded',
  },
  { name: 'OTEL_SERVICE_NAME', meaning: 'service.name of the traces', default: 'gatehouse' },
  {
    name: 'GATEHOUSE_RATE_LIMIT_MANAGEMENT',
    meaning: 'Management API bucket per tenant, as burst/per-second',
    default: '50/16',
  },
  {
    name: 'GATEHOUSE_RATE_LIMIT_AUTHENTICATION',
    meaning: 'Authentication API bucket per tenant, as burst/per-second',
    default: '100/100',
  },
  {
    name: 'GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY',
    meaning: 'GET /api/v2/clients with q (its own, lower bucket per tenant), as burst/per-second',
    default: '20/5',
  },
];

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

function nonEmpty(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 3000;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

/** An IPv4/IPv6 address, or one with a /prefix of the right size. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseDnsServers(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
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

function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === '0' || value === 'false') return false;
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

function parseRateLimit(name: string, value: string | undefined, fallback: RateLimitSetting): RateLimitSetting {
  if (value === undefined) return fallback;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) {
    throw new ConfigError(name, `must be burst/per-second with positive numbers, e.g. "50/16", got "${value}"`);
  }
  return { burst: Number(match[1]), perSecond: Number(match[2]) };
}

function parseSeconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback * 1000;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 0.01 && seconds <= 3600)) {
    throw new ConfigError(name, `must be a number of seconds from 0.01 to 3600, got "${value}"`);
  }
  return Math.round(seconds * 1000);
}

/** GATEHOUSE_WORKERS: `auto` (one per core) or 1 to 64. */
function parseWorkers(env: NodeJS.ProcessEnv): number {
  const value = nonEmpty(env, 'GATEHOUSE_WORKERS');
  if (value === 'auto') return os.availableParallelism();
  const workers = value === undefined ? 1 : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(workers >= 1 && workers <= 64)) throw new ConfigError('GATEHOUSE_WORKERS', `must be auto or a whole number from 1 to 64, got "${value}"`);
  return workers;
}

function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) {
    throw new ConfigError(name, `must be an integer from 1 to 1000000, got "${value}"`);
  }
  return Number(value);
}

/** `dist/console` of the installation: this module is `src/platform/config.ts`, or part of `dist/server/main.js` (the bundle the server runs), both two levels below it. */
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/** A domain is host[:port]; no scheme, path or trailing slash. */
export function isValidDomain(domain: string): boolean {
  return /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i.test(domain);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(nonEmpty(env, 'PORT'));
  const dataDir = path.resolve(nonEmpty(env, 'GATEHOUSE_DATA_DIR') ?? './data');
  const workers = parseWorkers(env);

  const databaseUrl = nonEmpty(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl) && !/^(sqlite|file):/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// (or sqlite: followed by a file path)');
  }
  const sqliteFile =
    databaseUrl && /^(sqlite|file):/.test(databaseUrl)
      ? path.resolve(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, ''))
      : path.join(dataDir, 'gatehouse.db');

  const defaultDomain = (nonEmpty(env, 'GATEHOUSE_DOMAIN') ?? `localhost:${port}`).toLowerCase();
  if (!isValidDomain(defaultDomain)) {
    throw new ConfigError('GATEHOUSE_DOMAIN', `must be a host name with an optional :port, got "${defaultDomain}"`);
  }

  const adminClientId = nonEmpty(env, 'GATEHOUSE_ADMIN_CLIENT_ID');
  const adminClientSecret = nonEmpty(env, 'GATEHOUSE_ADMIN_CLIENT_SECRET');
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

  const tlsCertFile = nonEmpty(env, 'TLS_CERT_FILE');
  const tlsKeyFile = nonEmpty(env, 'TLS_KEY_FILE');
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) {
    throw new ConfigError(tlsCertFile === undefined ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE', 'TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }

  const httpFlag = nonEmpty(env, 'GATEHOUSE_HTTP');
  if (httpFlag !== undefined && !['0', '1', 'true', 'false'].includes(httpFlag)) {
    throw new ConfigError('GATEHOUSE_HTTP', `must be 1 or 0, got "${httpFlag}"`);
  }

  const masterKey = nonEmpty(env, 'GATEHOUSE_MASTER_KEY');
  if (masterKey !== undefined && decodeMasterKey(masterKey) === undefined) {
    throw new ConfigError('GATEHOUSE_MASTER_KEY', 'must be 32 bytes written as 64 hex characters or as base64');
  }

  const redisUrl = nonEmpty(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  }

  const logLevel = nonEmpty(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.has(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${[...LOG_LEVELS].join(', ')}, got "${logLevel}"`);
  }

  const smtpUrl = nonEmpty(env, 'GATEHOUSE_SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(smtpUrl)) {
    throw new ConfigError('GATEHOUSE_SMTP_URL', 'must be an smtp:// or smtps:// URL');
  }

  const defaultConnection = nonEmpty(env, 'GATEHOUSE_DEFAULT_CONNECTION');
  if (defaultConnection !== undefined && !['0', '1', 'true', 'false'].includes(defaultConnection)) {
    throw new ConfigError('GATEHOUSE_DEFAULT_CONNECTION', `must be 1 or 0, got "${defaultConnection}"`);
  }

  const metricsToken = nonEmpty(env, 'GATEHOUSE_METRICS_TOKEN');
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    throw new ConfigError('GATEHOUSE_METRICS_TOKEN', 'must be 16 to 256 printable characters without spaces');
  }
  const metricsPortValue = nonEmpty(env, 'GATEHOUSE_METRICS_PORT');
  let metricsPort: number | undefined;
  if (metricsPortValue !== undefined) {
    if (!/^\d+$/.test(metricsPortValue) || Number(metricsPortValue) < 1 || Number(metricsPortValue) > 65535) {
      throw new ConfigError('GATEHOUSE_METRICS_PORT', `must be an integer from 1 to 65535, got "${metricsPortValue}"`);
    }
    metricsPort = Number(metricsPortValue);
    if (metricsPort === port) throw new ConfigError('GATEHOUSE_METRICS_PORT', `must differ from PORT (${port})`);
  }

  const twilioUrl = parseServiceUrl('GATEHOUSE_TWILIO_URL', nonEmpty(env, 'GATEHOUSE_TWILIO_URL'), 'https://api.twilio.com');

  return {
    port,
    host: nonEmpty(env, 'HOST') ?? '::',
    dataDir,
    databaseUrl: databaseUrl && /^postgres/.test(databaseUrl) ? databaseUrl : undefined,
    sqliteFile,
    defaultDomain,
    adminClientId,
    adminClientSecret,
    tlsCertFile: tlsCertFile && path.resolve(tlsCertFile),
    tlsKeyFile: tlsKeyFile && path.resolve(tlsKeyFile),
    plainHttp: httpFlag === '1' || httpFlag === 'true',
    consoleDir: path.resolve(nonEmpty(env, 'GATEHOUSE_CONSOLE_DIR') ?? DEFAULT_CONSOLE_DIR),
    masterKey,
    redisUrl,
    logLevel,
    trustProxy: parseTrustProxy(nonEmpty(env, 'GATEHOUSE_TRUST_PROXY')),
    mail: {
      smtpUrl,
      from: nonEmpty(env, 'GATEHOUSE_MAIL_FROM'),
      tenantSmtpCa: (() => {
        const file = nonEmpty(env, 'GATEHOUSE_SMTP_CA_FILE');
        if (file === undefined) return undefined;
        if (!fs.existsSync(file)) throw new ConfigError('GATEHOUSE_SMTP_CA_FILE', `no such file: ${file}`);
        return fs.readFileSync(file, 'utf8');
      })(),
    },
    sms: { twilioUrl },
    push: {
      apnsUrl: (() => {
        const value = nonEmpty(env, 'GATEHOUSE_APNS_URL');
        return value === undefined ? undefined : parseServiceUrl('GATEHOUSE_APNS_URL', value, '');
      })(),
      snsEndpoint: (() => {
        const value = nonEmpty(env, 'GATEHOUSE_SNS_ENDPOINT');
        return value === undefined ? undefined : parseServiceUrl('GATEHOUSE_SNS_ENDPOINT', value, '');
      })(),
      caFile: (() => {
        const file = nonEmpty(env, 'GATEHOUSE_PUSH_CA_FILE');
        if (file !== undefined && !fs.existsSync(file)) throw new ConfigError('GATEHOUSE_PUSH_CA_FILE', `no such file: ${file}`);
        return file && path.resolve(file);
      })(),
    },
    requestTimeoutMs: parseSeconds('GATEHOUSE_REQUEST_TIMEOUT', nonEmpty(env, 'GATEHOUSE_REQUEST_TIMEOUT'), 30),
    maxConnectionsPerAddress: parseCount('GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS', nonEmpty(env, 'GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS'), 256),
    tlsHandshakeTimeoutMs: parseSeconds('GATEHOUSE_TLS_HANDSHAKE_TIMEOUT', nonEmpty(env, 'GATEHOUSE_TLS_HANDSHAKE_TIMEOUT'), 10),
    dnsServers: parseDnsServers(nonEmpty(env, 'GATEHOUSE_DNS_SERVERS')),
    outbound: (() => {
      try {
        return { allow: parseOutboundAllow(nonEmpty(env, 'GATEHOUSE_OUTBOUND_ALLOW')) };
      } catch (err) {
        throw new ConfigError('GATEHOUSE_OUTBOUND_ALLOW', (err as Error).message);
      }
    })(),
    backchannelCaFile: (() => {
      const file = nonEmpty(env, 'GATEHOUSE_BACKCHANNEL_CA_FILE');
      if (file !== undefined && !fs.existsSync(file)) throw new ConfigError('GATEHOUSE_BACKCHANNEL_CA_FILE', `no such file: ${file}`);
      return file && path.resolve(file);
    })(),
    workers,
    shutdownGraceMs: parseSeconds('GATEHOUSE_SHUTDOWN_GRACE', nonEmpty(env, 'GATEHOUSE_SHUTDOWN_GRACE'), 10),
    jobs: {
      leaseMs: parseSeconds('GATEHOUSE_JOB_LEASE', nonEmpty(env, 'GATEHOUSE_JOB_LEASE'), 60),
      importMaxBytes: (() => {
        const value = nonEmpty(env, 'GATEHOUSE_USERS_IMPORT_MAX_BYTES');
        if (value === undefined) return 64 * 1024 * 1024;
        if (!/^\d+$/.test(value) || Number(value) < 1024 || Number(value) > 1024 ** 3) {
          throw new ConfigError('GATEHOUSE_USERS_IMPORT_MAX_BYTES', `must be a number of bytes from 1024 to 1073741824, got "${value}"`);
        }
        return Number(value);
      })(),
      importBatch: 500,
    },
    tenantLogs: (() => {
      const flag = (nonEmpty(env, 'GATEHOUSE_TENANT_LOGS') ?? 'on').toLowerCase();
      if (!['on', 'off', '1', '0', 'true', 'false'].includes(flag)) throw new ConfigError('GATEHOUSE_TENANT_LOGS', `must be on or off, got "${flag}"`);
      const retentionDays = parseCount('GATEHOUSE_LOG_RETENTION_DAYS', nonEmpty(env, 'GATEHOUSE_LOG_RETENTION_DAYS'), 30);
      if (retentionDays > 3650) throw new ConfigError('GATEHOUSE_LOG_RETENTION_DAYS', `must be at most 3650, got "${retentionDays}"`);
      const streamCaFile = nonEmpty(env, 'GATEHOUSE_LOG_STREAM_CA_FILE');
      if (streamCaFile !== undefined && !fs.existsSync(streamCaFile)) throw new ConfigError('GATEHOUSE_LOG_STREAM_CA_FILE', `no such file: ${streamCaFile}`);
      return {
        enabled: ['on', '1', 'true'].includes(flag),
        retentionDays,
        maxBuffered: parseCount('GATEHOUSE_LOG_BUFFER', nonEmpty(env, 'GATEHOUSE_LOG_BUFFER'), 50_000),
        streamCaFile: streamCaFile && path.resolve(streamCaFile),
      };
    })(),
    hashing: (() => {
      // The cores but one, shared among the worker processes.
      const threads = parseCount('GATEHOUSE_HASH_THREADS', nonEmpty(env, 'GATEHOUSE_HASH_THREADS'), Math.max(1, Math.floor((os.availableParallelism() - 1) / workers)));
      if (threads > 256) throw new ConfigError('GATEHOUSE_HASH_THREADS', `must be at most 256, got "${threads}"`);
      return { threads, queue: parseCount('GATEHOUSE_HASH_QUEUE', nonEmpty(env, 'GATEHOUSE_HASH_QUEUE'), 64 * threads) };
    })(),
    defaultConnection: defaultConnection === undefined || defaultConnection === '1' || defaultConnection === 'true',
    metrics: { token: metricsToken, port: metricsPort },
    rateLimits: {
      management: parseRateLimit('GATEHOUSE_RATE_LIMIT_MANAGEMENT', nonEmpty(env, 'GATEHOUSE_RATE_LIMIT_MANAGEMENT'), {
        burst: 50,
        perSecond: 16,
      }),
      authentication: parseRateLimit(
        'GATEHOUSE_RATE_LIMIT_AUTHENTICATION',
        nonEmpty(env, 'GATEHOUSE_RATE_LIMIT_AUTHENTICATION'),
        { burst: 100, perSecond: 100 },
      ),
      management_clients_query: parseRateLimit(
        'GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY',
        nonEmpty(env, 'GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY'),
        { burst: 20, perSecond: 5 },
      ),
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

export function helpText(): string {
  const width = Math.max(...SETTINGS.map((s) => s.name.length));
  const rows = SETTINGS.map((s) => `  ${s.name.padEnd(width)}  ${s.meaning}\n  ${' '.repeat(width)}  default: ${s.default}`);
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
    'Environment variables:',
    ...rows,
    '',
  ].join('\n');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The base URL of a remote service: https, or http only to a loopback address (a local stand-in); no path, query or credentials. */
function parseServiceUrl(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an https:// URL');
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new ConfigError(name, 'must be an https:// URL (http:// only to a loopback address)');
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError(name, 'must be a base URL without credentials, path, query or fragment');
  }
  return url.origin;
}
