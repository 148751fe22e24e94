/**
 * More cores on one machine: `GATEHOUSE_WORKERS=N` runs N worker processes
 * with node:cluster, all listening on the one port (the primary hands out
 * connections round-robin). Nothing new is shared between them: they are
 * the same stateless processes the README describes behind a load
 * balancer, on one database (SQLite in WAL mode, or PostgreSQL) and, when
 * REDIS_URL is set, one Redis for rate-limit buckets, brute-force blocks and
 * cache invalidation. Without Redis each worker keeps its own buckets and
 * caches (a write through one worker reaches the others' caches within
 * their expiry), as documented in the README.
 *
 * Metrics (when served) are the exception: the primary gathers every
 * worker's registry for the worker that a scrape reached.
 *
 * The primary prepares what must happen exactly once before any worker
 * starts (migrations, the default tenant and its printed credentials, the
 * generated TLS certificate), serves nothing itself, replaces a worker that
 * dies unexpectedly (at most once a second per slot, so a worker that
 * cannot start does not spin; a connection handed to it as it died is reset,
 * ./cluster-handoffs.ts), and on SIGTERM/SIGINT asks every worker to
 * finish its in-flight requests and exits when they have.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../platform/config.js';
import { bootstrapBanner, createContext, ensureDefaultTenant } from './context.js';
import { preflight } from './preflight.js';
import { loadTls } from './server.js';
import { resetUntakenConnections } from './cluster-handoffs.js';
import { metricsServed, serveWorkersMetrics } from '../platform/metrics.js';

/** Shortest time between two starts of one worker slot. */
const RESTART_INTERVAL_MS = 1000;

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/**
 * Runs the primary: prepares the data, forks `config.workers` workers and
 * keeps them running until a signal stops them all. Resolves when the
 * workers are up; the process stays alive through them.
 */
export async function runPrimary(config: Config, print: (line: string) => void = console.log): Promise<void> {
  // Every check before anything is created or written (./preflight.ts).
  await preflight(config);
  const ctx = await createContext(config);
  try {
    const bootstrap = await ensureDefaultTenant(ctx);
    for (const line of bootstrapBanner(bootstrap)) print(line);
    if (!config.plainHttp) await loadTls(config);
  } finally {
    await ctx.close();
  }
  const logger = ctx.logger;

  let stopping = false;
  const lastStart = new Map<number, number>();
  const slotOf = new Map<Worker, number>();
  const fork = (slot: number) => {
    lastStart.set(slot, Date.now());
    const worker = cluster.fork({ GATEHOUSE_WORKER_SLOT: String(slot) });
    resetUntakenConnections(worker);
    slotOf.set(worker, slot);
  };
  cluster.on('exit', (worker, code, signal) => {
    const slot = slotOf.get(worker);
    slotOf.delete(worker);
    if (stopping) {
      if (slotOf.size === 0) process.exit(0);
      return;
    }
    if (slot === undefined) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'a worker process ended; starting another');
    const wait = Math.max(0, (lastStart.get(slot) ?? 0) + RESTART_INTERVAL_MS - Date.now());
    setTimeout(() => {
      if (!stopping) fork(slot);
    }, wait);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: slotOf.size }, 'shutting down the workers');
    if (slotOf.size === 0) process.exit(0);
    for (const worker of slotOf.keys()) worker.process.kill(signal);
    // A worker's own shutdown gives up 5 s after GATEHOUSE_SHUTDOWN_GRACE (src/main.ts); so does the primary, a little later.
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 7_000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  // A scrape reaches one worker, which asks here for every worker's metrics (src/platform/metrics.ts).
  if (metricsServed(config)) serveWorkersMetrics();
  for (let slot = 0; slot < config.workers; slot++) fork(slot);
  logger.info({ workers: config.workers, pid: process.pid }, 'Gatehouse primary started its workers');
}
