/**
 * The process's metrics, in Prometheus's text format through prom-client: one
 * registry per process (built by the composition root, src/app/context.ts,
 * and handed down in the context; prom-client's global registry is not used),
 * read by GET /metrics (src/app/metrics.ts) only when the operator configured
 * it (GATEHOUSE_METRICS_TOKEN / GATEHOUSE_METRICS_PORT).
 *
 * The hot path only increments counters and observes one histogram, through
 * children looked up by positional labels (no label objects built per
 * request). Gauges of pools and the event loop are read when scraped.
 * Labels are bounded: the route pattern (never the raw URL), the status code,
 * the grant type of a registered grant, the name of a tenant's connection,
 * the name of a rate-limit bucket.
 *
 * A process whose metrics nobody can read (neither GATEHOUSE_METRICS_TOKEN
 * nor GATEHOUSE_METRICS_PORT) records nothing and never loads prom-client
 * (with its OpenTelemetry dependency, about ninety modules).
 *
 * With GATEHOUSE_WORKERS > 1 (src/app/cluster.ts) a scrape reaches whichever
 * worker takes the connection; that worker asks the primary over the cluster's
 * IPC channel, the primary gathers every worker's registry with prom-client's
 * AggregatorRegistry (counters and histograms summed; each gauge by its
 * `aggregator`) and the worker answers with the whole: every scrape sees the
 * server's totals, whichever worker answers it.
 */
import cluster from 'node:cluster';
import type * as PromClient from 'prom-client';
import type { Counter, Histogram, Registry } from 'prom-client';
import { lazyModule } from './lazy.js';

const promClient = lazyModule<typeof PromClient>('prom-client');

/** Whether anything can read the metrics: GATEHOUSE_METRICS_TOKEN or GATEHOUSE_METRICS_PORT is set. */
export function metricsServed(config: { metrics: { token?: string | undefined; port?: number | undefined } }): boolean {
  return config.metrics.token !== undefined || config.metrics.port !== undefined;
}

/** What the gauges read when scraped; each source is optional (e.g. SQLite has no connection pool). */
export interface MetricsSources {
  /** The password-hashing pool (src/platform/passwords/hashing.ts `hashingPoolStats`). */
  hashingPool?: () => { queueSize: number; utilization: number; threads: number };
  /** The database connection pool (PostgreSQL): connections open, idle, and requests waiting for one. */
  databasePool?: () => { total: number; idle: number; waiting: number } | undefined;
}

/** Status codes as label values, made once. */
const STATUS = Array.from({ length: 600 }, (_, code) => String(code));

export class Metrics {
  /** Undefined when the metrics are not served: then nothing is recorded. */
  readonly registry: Registry | undefined;
  readonly #requests: Counter<'method' | 'route' | 'status'> | undefined;
  readonly #duration: Histogram<'method' | 'route' | 'status'> | undefined;
  readonly #tokens: Counter<'grant_type'> | undefined;
  readonly #logins: Counter<'connection' | 'result'> | undefined;
  readonly #rateLimited: Counter<'bucket'> | undefined;
  readonly #blocks: Counter | undefined;
  readonly #logDropped: Counter<'reason'> | undefined;
  readonly #logRecorded: Counter | undefined;
  /** A cluster worker's scrape is answered with every worker's metrics, gathered by the primary. */
  readonly #fromPrimary: boolean = false;

  /**
   * `served`: whether anything reads the metrics (GET /metrics); only then are they recorded, with
   * the process's own metrics (event-loop lag, heap, GC, CPU) from prom-client's default collectors.
   */
  constructor(sources: MetricsSources = {}, options: { served?: boolean; clusterWorker?: boolean } = {}) {
    if (options.served === false) return;
    const { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = promClient();
    this.registry = new Registry();
    if (options.clusterWorker) {
      // Answers the primary's requests for this worker's metrics (prom-client's own IPC messages) from this registry.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([this.registry]);
      this.#fromPrimary = true;
    }
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'gatehouse_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#duration = new Histogram({
      name: 'gatehouse_http_request_duration_seconds',
      help: 'Time from a request to its response, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#tokens = new Counter({
      name: 'gatehouse_tokens_issued_total',
      help: 'Successful token endpoint responses, by grant type',
      labelNames: ['grant_type'],
      registers,
    });
    this.#logins = new Counter({
      name: 'gatehouse_logins_total',
      help: 'Password checks of database-connection logins (hosted login page and password grants), by connection and result (success, failure)',
      labelNames: ['connection', 'result'],
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'gatehouse_rate_limit_rejections_total',
      help: 'Requests refused by a rate limit, by bucket',
      labelNames: ['bucket'],
      registers,
    });
    this.#blocks = new Counter({
      name: 'gatehouse_brute_force_blocks_total',
      help: 'Identifier and IP pairs blocked by brute-force protection after too many failed logins',
      registers,
    });
    this.#logRecorded = new Counter({
      name: 'gatehouse_tenant_log_events_total',
      help: 'Tenant log events produced and taken for writing (each is written, or counted in gatehouse_tenant_log_events_dropped_total)',
      registers,
    });
    this.#logDropped = new Counter({
      name: 'gatehouse_tenant_log_events_dropped_total',
      help: 'Tenant log events not written, by reason (buffer_full: the database did not take them for too long; refused: the database refused them; shutdown: not written before the process stopped; invalid_type)',
      labelNames: ['reason'],
      registers,
    });
    const { hashingPool, databasePool } = sources;
    if (hashingPool) {
      new Gauge({
        name: 'gatehouse_hashing_queue_size',
        help: 'Password hashes waiting for a hashing thread',
        registers,
        collect() {
          this.set(hashingPool().queueSize);
        },
      });
      new Gauge({
        name: 'gatehouse_hashing_utilization_ratio',
        help: "The hashing pool's utilisation (0 to 1, piscina's measure)",
        registers,
        // Across cluster workers: the mean of the workers' pools, not their sum.
        aggregator: 'average',
        collect() {
          this.set(hashingPool().utilization);
        },
      });
      new Gauge({
        name: 'gatehouse_hashing_threads',
        help: 'Hashing threads running now',
        registers,
        collect() {
          this.set(hashingPool().threads);
        },
      });
    }
    if (databasePool) {
      new Gauge({
        name: 'gatehouse_database_pool_connections',
        help: 'Database pool connections, by state (total, idle, waiting: requests waiting for a connection)',
        labelNames: ['state'],
        registers,
        collect() {
          const pool = databasePool();
          if (!pool) return;
          this.set({ state: 'total' }, pool.total);
          this.set({ state: 'idle' }, pool.idle);
          this.set({ state: 'waiting' }, pool.waiting);
        },
      });
    }
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  /** One answered request; `route` is the route's pattern (`/api/v2/clients/:id`), `seconds` its duration. */
  request(method: string, route: string, status: number, seconds: number): void {
    const code = STATUS[status] ?? String(status);
    this.#requests?.labels(method, route, code).inc();
    this.#duration?.labels(method, route, code).observe(seconds);
  }

  tokenIssued(grantType: string): void {
    this.#tokens?.labels(grantType).inc();
  }

  login(connection: string, success: boolean): void {
    this.#logins?.labels(connection, success ? 'success' : 'failure').inc();
  }

  rateLimited(bucket: string): void {
    this.#rateLimited?.labels(bucket).inc();
  }

  bruteForceBlock(): void {
    this.#blocks?.inc();
  }

  tenantLogEventRecorded(): void {
    this.#logRecorded?.inc();
  }

  tenantLogEventsDropped(reason: string, count: number): void {
    this.#logDropped?.labels(reason).inc(count);
  }

  get contentType(): string {
    return this.registry?.contentType ?? promClient().Registry.PROMETHEUS_CONTENT_TYPE;
  }

  /** The exposition text of every metric (none when they are not served); in a cluster worker, every worker's. */
  text(): Promise<string> {
    if (!this.registry) return Promise.resolve('');
    return this.#fromPrimary ? askPrimary() : this.registry.metrics();
  }
}

const METRICS_REQUEST = 'gatehouse:metrics-request';
const METRICS_RESPONSE = 'gatehouse:metrics-response';
/** How long a worker waits for the primary's answer (prom-client's primary gives each worker 5 s). */
const PRIMARY_TIMEOUT_MS = 6_000;

interface MetricsResponse {
  type: typeof METRICS_RESPONSE;
  id: number;
  text?: string;
  error?: string;
}

const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
let nextRequest = 0;
let answersHeard = false;

/** A worker's request for the whole cluster's metrics, answered by `serveWorkersMetrics` in the primary. */
function askPrimary(): Promise<string> {
  if (!answersHeard) {
    answersHeard = true;
    process.on('message', (message: MetricsResponse) => {
      if (message?.type !== METRICS_RESPONSE) return;
      const request = waiting.get(message.id);
      if (!request) return;
      waiting.delete(message.id);
      clearTimeout(request.timer);
      if (typeof message.text === 'string') request.resolve(message.text);
      else request.reject(new Error(`the primary could not gather the workers' metrics: ${message.error ?? 'no answer'}`));
    });
  }
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`the primary did not send the workers' metrics within ${PRIMARY_TIMEOUT_MS} ms`));
    }, PRIMARY_TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
    process.send!({ type: METRICS_REQUEST, id });
  });
}

/**
 * In the cluster's primary, when metrics are served: answers each worker's request with every
 * worker's metrics, aggregated.
 */
export function serveWorkersMetrics(): void {
  const aggregator = new (promClient().AggregatorRegistry)();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== METRICS_REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    const answer = (response: Omit<MetricsResponse, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: METRICS_RESPONSE, id, ...response });
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
