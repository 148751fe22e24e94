/**
 * Event stream delivery: how many events per second Gatehouse delivers to a
 * webhook from one core, beside the posting limit measured in the same run
 * (bench/references/https-poster.mjs: the same number of CloudEvent-sized
 * posts over kept-alive HTTPS from the same core, with no database and no
 * queue), and that none is lost across a restart (target: at least 500
 * events/s, none missing).
 *
 * Gatehouse (SQLite, plain HTTP for the Management API) and the reference are
 * pinned to one core; the HTTPS receiver runs in this process on the other.
 * Each round queues BENCH_EVENTS test events (POST /event-streams/{id}/test)
 * on a disabled stream, enables it, and times the drain from the enabling
 * PATCH to the last event received; the reference posts as many in turn.
 * Then the kill test: another batch is queued and, a third of it received,
 * the server is killed with SIGKILL and started again on the same data
 * directory; the run waits for every event, counting those missing and those
 * received twice (delivery is at least once: a post the receiver took before
 * the kill but that the dead process had not recorded is sent again).
 *
 *   npm run bench:events
 *   BENCH_EVENTS=1000 BENCH_ROUNDS=1 npm run bench:events   (a quick smoke run)
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTlsCertificate } from '../src/platform/crypto/certificates.js';
import { leaseFor } from '../src/domain/event-streams/delivery.js';
import {
  adminTokenBody,
  BenchError,
  childEnv,
  envSeconds,
  fmt,
  fmtInt,
  fmtRatio,
  freePort,
  loadLogLevel,
  log,
  logHeader,
  managementCall,
  median,
  printTable,
  readAdminCredentials,
  readCpuSeconds,
  REFERENCES_DIR,
  removeOnCleanup,
  requestToken,
  ROOT,
  runMain,
  setUpPinning,
  sleep,
  startChild,
  startGatehouse,
  writeResults,
  type Endpoint,
  type StartedServer,
} from './lib.js';

const EVENTS = Math.round(envSeconds('BENCH_EVENTS', 3000, 100, 1_000_000));
const ROUNDS = Math.round(envSeconds('BENCH_ROUNDS', 3, 1, 50));
const LOG_LEVEL = loadLogLevel();
const TARGET = 500;
/** Seconds a webhook post may take: also what a killed process's claimed events wait for (its lease). */
const POST_TIMEOUT_S = 2;

/** The webhook: counts the reference's posts, and Gatehouse's events by id. */
class Receiver {
  referencePosts = 0;
  readonly ids = new Set<string>();
  duplicates = 0;
  last = 0;
  url = '';
  #server: https.Server | undefined;
  async up(tls: { cert: string; key: string }, host: string): Promise<void> {
    this.#server = https.createServer({ ...tls, keepAliveTimeout: 30_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/reference') this.referencePosts += 1;
        else {
          const id = (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id;
          if (this.ids.has(id)) this.duplicates += 1;
          else this.ids.add(id);
        }
        this.last = performance.now();
        res.writeHead(200, { 'content-length': '0' }).end();
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, host, resolve));
    this.url = `https://${host}:${(this.#server!.address() as AddressInfo).port}`;
  }
  async down(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

/** Resolves once `check` holds, polling every 10 ms; throws after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new BenchError(`${what}: not done within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

interface Drain {
  events: number;
  ms: number;
  perSecond: number;
  serverCpuPercent: number;
  perCpuSecond: number;
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build`');
  logHeader('Gatehouse bench: event stream delivery to a local HTTPS webhook', `${ROUNDS} rounds × ${fmtInt(EVENTS)} events, SQLite`, pinning);
  const { address: host } = await dns.lookup('localhost');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-events-'));
  removeOnCleanup(dataDir);
  const material = await createTlsCertificate(['127.0.0.1', 'localhost', host]);
  const caFile = path.join(dataDir, 'receiver-ca.pem');
  fs.writeFileSync(caFile, material.certPem);
  const receiver = new Receiver();
  await receiver.up({ cert: material.certPem, key: material.keyPem }, host);

  const port = await freePort(host);
  const start = () =>
    startGatehouse({
      host,
      port,
      dataDir,
      logLevel: LOG_LEVEL,
      cpus: pinning.serverCpus,
      timeoutMs: 60_000,
      extraEnv: { GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128', GATEHOUSE_EVENT_STREAM_CA_FILE: caFile, GATEHOUSE_EVENT_STREAM_TIMEOUT: String(POST_TIMEOUT_S) },
    });
  let gatehouse: StartedServer = await start();
  const endpoint: Endpoint = gatehouse.endpoint;
  const admin = readAdminCredentials(dataDir);
  const token = (await requestToken(endpoint, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const stream = await managementCall<{ id: string }>(endpoint, token, 'POST', '/event-streams', {
    name: 'bench',
    status: 'disabled',
    subscriptions: [{ event_type: 'user.created' }],
    destination: { type: 'webhook', configuration: { webhook_endpoint: `${receiver.url}/events`, webhook_authorization: { method: 'bearer', token: 'bench-secret' } } },
  });
  log(`  gatehouse: port ${port}, ready in ${fmtInt(gatehouse.readyMs)} ms; stream ${stream.id} → ${receiver.url}/events`);

  /** Queues `count` test events on the disabled stream, 16 requests at a time. */
  const queue = async (count: number) => {
    await managementCall(endpoint, token, 'PATCH', `/event-streams/${stream.id}`, { status: 'disabled' });
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) {
          next += 1;
          await managementCall(endpoint, token, 'POST', `/event-streams/${stream.id}/test`, { event_type: 'user.created', data: { n: next, email: 'bench@example.com' } });
        }
      }),
    );
  };

  const drains: Drain[] = [];
  const references: Drain[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // The reference: the same number of posts from the same core, nothing else.
    const before = receiver.referencePosts;
    const reference = startChild('https-poster', [path.join(REFERENCES_DIR, 'https-poster.mjs')], childEnv({ BENCH_URL: `${receiver.url}/reference`, BENCH_COUNT: String(EVENTS), BENCH_CA_FILE: caFile }), {
      ...(pinning.serverCpus && { cpus: pinning.serverCpus }),
    });
    const code = await reference.exited;
    const line = reference.output().trim().split('\n').at(-1) ?? '';
    if (code !== 0) throw new BenchError(`the reference poster failed (${code}): ${reference.output()}`);
    const result = JSON.parse(line) as { posted: number; failed: number; ms: number; cpuMs: number };
    if (result.failed > 0 || receiver.referencePosts - before !== EVENTS) throw new BenchError(`the reference poster lost posts: ${line}`);
    references.push({ events: EVENTS, ms: result.ms, perSecond: (EVENTS * 1000) / result.ms, serverCpuPercent: (result.cpuMs * 100) / result.ms, perCpuSecond: (EVENTS * 1000) / result.cpuMs });

    // Gatehouse: a queued batch, drained once the stream is enabled.
    await queue(EVENTS);
    const seen = receiver.ids.size;
    const pid = gatehouse.child.process.pid!;
    const cpu0 = readCpuSeconds(pid) ?? NaN;
    const t0 = performance.now();
    await managementCall(endpoint, token, 'PATCH', `/event-streams/${stream.id}`, { status: 'enabled' });
    await until(() => receiver.ids.size - seen >= EVENTS, 300_000, `round ${round}: the drain`);
    const ms = receiver.last - t0;
    const cpu = (readCpuSeconds(pid) ?? NaN) - cpu0;
    drains.push({ events: EVENTS, ms, perSecond: (EVENTS * 1000) / ms, serverCpuPercent: (cpu * 100_000) / ms, perCpuSecond: EVENTS / cpu });
    log(`  round ${round}/${ROUNDS}: gatehouse ${fmtInt(drains.at(-1)!.perSecond)} events/s, reference ${fmtInt(references.at(-1)!.perSecond)} posts/s`);
  }

  // The kill test: SIGKILL a third of the way through a drain, start again, wait for every event.
  await queue(EVENTS);
  const seen = receiver.ids.size;
  const duplicatesBefore = receiver.duplicates;
  await managementCall(endpoint, token, 'PATCH', `/event-streams/${stream.id}`, { status: 'enabled' });
  await until(() => receiver.ids.size - seen >= EVENTS / 3, 300_000, 'the drain before the kill');
  gatehouse.child.process.kill('SIGKILL');
  await gatehouse.child.exited;
  const atKill = receiver.ids.size - seen;
  const t0 = performance.now();
  gatehouse = await start();
  try {
    await until(() => receiver.ids.size - seen >= EVENTS, 300_000, 'the drain after the restart');
  } catch (error) {
    if (!(error instanceof BenchError)) throw error;
  }
  const afterRestartMs = receiver.last - t0;
  const missing = EVENTS - (receiver.ids.size - seen);
  const duplicates = receiver.duplicates - duplicatesBefore;

  const g = median(drains.map((d) => d.perSecond));
  const r = median(references.map((d) => d.perSecond));
  const gc = median(drains.map((d) => d.perCpuSecond));
  const rc = median(references.map((d) => d.perCpuSecond));
  log('\nMedians of the rounds; ratio = Gatehouse ÷ the reference (the posts alone, same core, same receiver);');
  log('CPU % is of the sender\'s core; per CPU-s (events per CPU-second of the sender) is what one core would deliver with the core to itself.');
  printTable(
    [
      ['sender', 'events/s', 'CPU %', 'per CPU-s', 'ratio', 'ratio per CPU-s'],
      ['gatehouse (outbox → webhook)', fmtInt(g), fmt(median(drains.map((d) => d.serverCpuPercent)), 0), fmtInt(gc), fmtRatio(g / r), fmtRatio(gc / rc)],
      ['reference (posts only)', fmtInt(r), fmt(median(references.map((d) => d.serverCpuPercent)), 0), fmtInt(rc), fmtRatio(1), fmtRatio(1)],
    ],
    'lrrrrr',
  );
  log(
    `\nkill test: ${fmtInt(EVENTS)} events queued; ${fmtInt(atKill)} received before SIGKILL; after the restart the rest arrived within ${fmt(afterRestartMs / 1000)} s ` +
      `(the killed process's claimed events wait for their lease, ${fmt(leaseFor(POST_TIMEOUT_S * 1000) / 1000, 0)} s); missing ${fmtInt(missing)}, received twice ${fmtInt(duplicates)}.`,
  );
  log(`gatehouse: ${fmtInt(g)} events/s measured, ${fmtInt(gc)} per CPU-second: ${Math.min(g, gc) >= TARGET ? 'both at least' : Math.max(g, gc) >= TARGET ? 'one of them at least' : 'BELOW'} the target ${TARGET}`);
  if (missing > 0) log(`!!! ${missing} events were lost across the restart`);
  const file = writeResults('events', startedAt, { events: EVENTS, rounds: ROUNDS, pinning, drains, references, kill: { atKill, afterRestartMs, missing, duplicates }, target: TARGET });
  log(`\nresults: ${file}`);
  await receiver.down();
  return missing > 0 ? 1 : 0;
}

await runMain(main);
