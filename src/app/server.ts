/**
 * Starting and stopping the server: TLS material, the default tenant, the
 * listener, and a graceful shutdown that lets in-flight requests finish.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../platform/config.js';
import { bootstrapBanner, createContext, ensureDefaultTenant } from './context.js';
import { createTlsCertificate } from '../platform/crypto/certificates.js';
import { buildApp } from './http.js';
import cluster from 'node:cluster';
import { preflight } from './preflight.js';
import { startMetricsListener } from './metrics.js';
import { PURGE_FIRST_DELAY_MS, PURGE_INTERVAL_MS, purgeExpired } from '../storage/purge.js';
import { BackchannelLogoutDelivery } from '../domain/backchannel-logout/delivery.js';
import { JobRunner } from '../domain/jobs/runner.js';
import { queueAutomaticSynchronizations } from '../domain/directory-provisioning/queue.js';
import { httpsFormPoster, httpsPoster } from '../platform/http/form-poster.js';
import { LogStreamDelivery } from '../domain/log-streams/delivery.js';
import { EventStreamDelivery } from '../domain/event-streams/delivery.js';
import type { Tracing } from '../platform/tracing/tracing.js';

/** How often each process looks for a job to run. */
const JOBS_ROUND_MS = 1000;

/** How often the back-channel logout queue is worked. */
const BACKCHANNEL_ROUND_MS = 1000;

/** How long the event streams' worker waits after a round that found nothing to send. */
const EVENT_STREAMS_IDLE_MS = 250;
import { type AppContext } from '../domain/context.js';

/** How often due automatic directory synchronizations are queued. */
const DIRECTORY_SYNC_ROUND_MS = 5 * 60 * 1000;

export interface TlsFiles {
  key: Buffer;
  cert: Buffer;
  certFile: string;
}

/**
 * TLS_CERT_FILE/TLS_KEY_FILE when set; otherwise the self-signed pair in
 * `<data dir>/tls`, generated on first start and reused afterwards.
 */
export async function loadTls(config: Config): Promise<TlsFiles> {
  if (config.tlsCertFile && config.tlsKeyFile) {
    return { cert: fs.readFileSync(config.tlsCertFile), key: fs.readFileSync(config.tlsKeyFile), certFile: config.tlsCertFile };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const host = config.defaultDomain.replace(/:\d+$/, '');
    const material = await createTlsCertificate([host, 'localhost', '127.0.0.1', '::1']);
    fs.writeFileSync(keyFile, material.keyPem, { mode: 0o600 });
    fs.writeFileSync(certFile, material.certPem, { mode: 0o644 });
  }
  return { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile), certFile };
}

/** A worker's round every BACKCHANNEL_ROUND_MS (not keeping the process alive); `stop` waits for the round under way. */
function everyRound<T>(run: () => Promise<T>, done: (result: T) => void, failed: (err: unknown) => void): { stop(): Promise<void> } {
  let last: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    last = run().then(done, failed);
  }, BACKCHANNEL_ROUND_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await last;
    },
  };
}

/**
 * Rounds back to back while they find work, EVENT_STREAMS_IDLE_MS apart
 * otherwise (not keeping the process alive); `stop` waits for the round
 * under way.
 */
function whileBusy(run: () => Promise<number>, failed: (err: unknown) => void): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const round = () => {
    current = run().then(
      (done) => {
        if (!stopped) timer = setTimeout(round, done > 0 ? 0 : EVENT_STREAMS_IDLE_MS).unref();
      },
      (err: unknown) => {
        failed(err);
        if (!stopped) timer = setTimeout(round, EVENT_STREAMS_IDLE_MS).unref();
      },
    );
  };
  timer = setTimeout(round, EVENT_STREAMS_IDLE_MS).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  /** Graceful shutdown (see `stop` below); resolves with whether every in-flight request finished within the grace. */
  stop(): Promise<boolean>;
}

export async function startServer(config: Config, print: (line: string) => void = console.log, tracing?: Tracing): Promise<RunningServer> {
  // Every check before anything is created or written (./preflight.ts); a cluster worker's primary made them
  // (its port is the primary's listener by then).
  if (!cluster.isWorker) await preflight(config);
  const ctx = await createContext(config);
  const bootstrap = await ensureDefaultTenant(ctx);
  const { tenant } = bootstrap;
  for (const line of bootstrapBanner(bootstrap)) print(line);
  const tls = config.plainHttp ? undefined : await loadTls(config);
  const app = await buildApp(ctx, { https: tls ? { key: tls.key, cert: tls.cert } : null, ...(tracing && { tracing }) });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // "All interfaces" is '::' (dual stack); a host without IPv6 gets 0.0.0.0 instead.
    if ((error as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT' || config.host !== '::') throw error;
    await app.listen({ port: config.port, host: '0.0.0.0' });
  }
  const metricsListener = await startMetricsListener(ctx);
  const scheme = tls ? 'https' : 'http';
  const url = `${scheme}://${tenant.domain}`;
  // startMs: from the process's start (node's own boot included) to listening.
  ctx.logger.info(
    {
      url,
      tenant: tenant.name,
      tracing: tracing ? 'otlp' : 'off',
      database: ctx.database.dialect,
      tls: tls?.certFile ?? 'off (GATEHOUSE_HTTP=1)',
      node: process.version,
      startMs: Math.round(process.uptime() * 1000),
    },
    'Gatehouse is listening',
  );

  // Expired codes, sessions, tickets, refresh tokens and old log events go once an hour (every
  // process does it; the deletes are idempotent), and once soon after start, so that a process
  // restarted more often than hourly still purges.
  const runPurge = () =>
    purgeExpired(ctx.database.db, ctx.now(), { logRetentionDays: config.tenantLogs.retentionDays }).then(
      (removed) => ctx.logger.debug({ removed }, 'purged expired artefacts'),
      (err: unknown) => ctx.logger.warn({ err }, 'purging expired artefacts failed'),
    );
  const firstPurge = setTimeout(runPurge, PURGE_FIRST_DELAY_MS).unref();
  const purge = setInterval(() => {
    void runPurge();
    // The users table's planner statistics, whether or not autovacuum runs (a sampled ANALYZE).
    ctx.stores.users.refreshStatistics().catch((err: unknown) => ctx.logger.warn({ err }, 'refreshing the users table statistics failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();

  // Back-channel logout: the durable queue is worked every second by every
  // process (rows are claimed, never posted twice); what a stopped process
  // left is taken up by the next round of any process.
  const backchannel = new BackchannelLogoutDelivery(
    ctx,
    httpsFormPoster({ outbound: config.outbound, ...(config.backchannelCaFile && { ca: fs.readFileSync(config.backchannelCaFile) }) }),
  );
  const deliver = everyRound(
    () => backchannel.runOnce(),
    (round) => (round.delivered || round.failed ? ctx.logger.debug({ round }, 'back-channel logout deliveries') : undefined),
    (err) => ctx.logger.warn({ err }, 'back-channel logout deliveries failed'),
  );

  // Log streams: every process works them every second; each stream is leased
  // for a round, so one process sends a batch and the cursor in the database
  // says where the next round starts.
  const logStreams = new LogStreamDelivery(
    ctx,
    httpsPoster({ timeoutMs: 10_000, outbound: config.outbound, ...(config.tenantLogs.streamCaFile && { ca: fs.readFileSync(config.tenantLogs.streamCaFile) }) }),
  );
  const stream = everyRound(
    () => logStreams.runOnce(),
    (round) => (round.delivered || round.failed ? ctx.logger.debug({ round }, 'log stream deliveries') : undefined),
    (err) => ctx.logger.warn({ err }, 'log stream deliveries failed'),
  );

  // Event streams: the outbox is worked by every process, rounds back to back
  // while there is work; deliveries are claimed under a lease (PostgreSQL
  // skips rows another process is claiming), so none goes out twice at once,
  // and what a stopped process held is due again once its lease ends.
  const eventStreams = new EventStreamDelivery(
    ctx,
    httpsPoster({ timeoutMs: config.eventStreamTimeoutMs, keepAliveSockets: 32, outbound: config.outbound, ...(config.eventStreamCaFile && { ca: fs.readFileSync(config.eventStreamCaFile) }) }),
    config.eventStreamTimeoutMs,
  );
  const events = whileBusy(
    async () => {
      const round = await eventStreams.runOnce();
      if (round.delivered || round.failed) ctx.logger.debug({ round }, 'event stream deliveries');
      return round.delivered + round.failed;
    },
    (err) => ctx.logger.warn({ err }, 'event stream deliveries failed'),
  );

  // Management API jobs (user imports and exports): every process works the
  // durable queue; a job is claimed under a lease, and a job a stopped process
  // left is resumed from its committed progress once the lease runs out.
  const jobs = new JobRunner(ctx);
  let running: Promise<unknown> = Promise.resolve();
  let jobsBusy = false;
  const runJobs = setInterval(() => {
    if (jobsBusy) return;
    jobsBusy = true;
    running = jobs
      .runOnce()
      .catch((err: unknown) => ctx.logger.warn({ err }, 'running jobs failed'))
      .finally(() => (jobsBusy = false));
  }, JOBS_ROUND_MS);
  runJobs.unref();

  // Directory provisioning with `synchronize_automatically`: every process looks for due
  // configurations every few minutes; a synchronization already queued or running is not queued twice.
  const automaticSync = setInterval(() => {
    queueAutomaticSynchronizations(ctx.unitOfWork, ctx.stores.directoryProvisioning, ctx.now()).catch((err: unknown) =>
      ctx.logger.warn({ err }, 'queueing automatic directory synchronizations failed'),
    );
  }, DIRECTORY_SYNC_ROUND_MS);
  automaticSync.unref();

  let stopping: Promise<boolean> | undefined;
  return {
    app,
    ctx,
    url,
    stop() {
      stopping ??= (async () => {
        // Fastify stops accepting at once, closes idle kept-alive connections, answers 503 to a new
        // request on a busy one, and resolves once in-flight requests have finished; connections
        // still busy after the grace are closed.
        let graceful = true;
        const closed = app.close();
        const grace = setTimeout(() => {
          graceful = false;
          ctx.logger.warn({ graceMs: config.shutdownGraceMs }, 'shutdown grace over: closing the connections still busy');
          app.server.closeAllConnections();
        }, config.shutdownGraceMs);
        grace.unref();
        // The rounds of the durable queues finish the one under way; what is left stays queued in the database.
        clearInterval(purge);
        clearTimeout(firstPurge);
        clearInterval(runJobs);
        clearInterval(automaticSync);
        jobs.stop();
        await Promise.all([deliver.stop(), stream.stop(), events.stop(), running, closed]);
        clearTimeout(grace);
        await metricsListener?.close();
        // Writes the tenant log events still buffered (those of the last requests too), then closes the database.
        await ctx.close();
        // The spans of the last requests.
        await tracing?.shutdown().catch((err: unknown) => ctx.logger.warn({ err }, 'sending the last traces failed'));
        return graceful;
      })();
      return stopping;
    },
  };
}
