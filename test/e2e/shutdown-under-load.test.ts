/**
 * SIGTERM under load, the built server as its own process: requests in
 * flight at the signal all get a complete answer (never a reset), the process
 * exits 0, and the tenant log events of the answered requests are in the
 * database afterwards (the batch writer is flushed before the database
 * closes). With one process and with GATEHOUSE_WORKERS=2.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { freePort, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/app.js';
import { tokenBody, waitFor } from './support/https.js';
import { tracked } from './support/tracked.js';

const { start, dirs } = tracked();

interface Outcome {
  /** The request's number, also in its User-Agent. */
  n: number;
  /** Whether its TLS connection was up (accepted by the server) before SIGTERM was sent. */
  connectedBeforeSignal: boolean;
  /** The HTTP status of a complete response, or the error code of a failed exchange. */
  result: number | string;
}

/**
 * One client_credentials request on a new connection. `hold` keeps the second
 * half of the body back until it resolves (a request in flight for as long as
 * the test wants); such a request asks `Expect: 100-continue` and sends the
 * first half once the server has read its head (`headRead` is called then).
 */
function tokenRequest(server: ServerProcess, ca: Buffer, n: number, body: string, signalled: () => boolean, hold?: Promise<void>, headRead?: () => void): Promise<Outcome> {
  return new Promise((resolve) => {
    let connectedBeforeSignal = false;
    const done = (result: number | string) => resolve({ n, connectedBeforeSignal, result });
    const req = https.request(
      `${server.baseUrl}/oauth/token`,
      {
        method: 'POST',
        ca,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': `shutdown-load/${n}`,
          ...(hold && { expect: '100-continue' }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
      },
    );
    req.on('socket', (socket) => socket.once('secureConnect', () => (connectedBeforeSignal = !signalled())));
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    const half = Math.floor(body.length / 2);
    if (!hold) return req.end(body);
    req.once('continue', () => {
      req.write(body.slice(0, half));
      headRead?.();
      void hold.then(() => req.end(body.slice(half)));
    });
  });
}

async function shutdownUnderLoad(env: Record<string, string>): Promise<void> {
  const server = await start({ env: { GATEHOUSE_SHUTDOWN_GRACE: '30', ...env } });
  const ca = fs.readFileSync(server.certFile);
  const admin = server.admin();
  const body = tokenBody(admin.client_id, admin.client_secret, admin.audience);
  let signalled = false;
  let n = 0;
  const outcomes: Promise<Outcome>[] = [];

  // Requests held in flight across the signal: headers and half the body sent before it, the rest after.
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  for (let i = 0; i < 4; i++) outcomes.push(tokenRequest(server, ca, n++, body, () => signalled, hold));

  // And a steady load: 6 loops of one request after another, each on a new connection, until the listener is gone.
  const loops = Array.from({ length: 6 }, async () => {
    for (;;) {
      const outcome = tokenRequest(server, ca, n++, body, () => signalled);
      outcomes.push(outcome);
      const { result } = await outcome;
      if (signalled && typeof result === 'string') return;
    }
  });
  assert.ok(await waitFor(async () => (await Promise.all(outcomes.slice(4))).filter((o) => o.result === 200).length >= 20, 60_000), 'the load did not get going');

  const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
  signalled = true;
  server.child.kill('SIGTERM');
  assert.ok(await waitFor(() => server.output().includes('shutting down'), 10_000), server.output());
  // The held requests go on only once every serving process has begun closing (it logs that, then closes its listener).
  const serving = Number(env.GATEHOUSE_WORKERS ?? 1);
  const closing = () => server.output().split('shutting down: finishing in-flight requests').length - 1;
  assert.ok(await waitFor(() => closing() >= serving, 10_000), `not every process began shutting down: ${server.output().slice(-2000)}`);
  release();
  await Promise.all(loops);
  const all = await Promise.all(outcomes);
  const code = await exited;
  assert.equal(code, 0, server.output().slice(-3000));

  // Every request whose connection the server had accepted before the signal got a whole answer.
  const inFlight = all.filter((o) => o.connectedBeforeSignal);
  const broken = inFlight.filter((o) => typeof o.result !== 'number');
  assert.deepEqual(broken, [], 'requests in flight at SIGTERM did not get an answer');
  for (const o of all.slice(0, 4)) assert.equal(o.result, 200, `held request ${o.n}: ${o.result}`);
  // Those that arrived after the signal found the port closed or got 503; none was served half.
  for (const o of all.filter((x) => !x.connectedBeforeSignal)) assert.ok([200, 503, 'ECONNREFUSED', 'ECONNRESET'].includes(o.result), String(o.result));

  // The tenant log has an event for every request answered 200, written before the process exited.
  const served = all.filter((o) => o.result === 200).map((o) => `shutdown-load/${o.n}`);
  const db = new SQLite(path.join(server.dataDir, 'gatehouse.db'), { readonly: true });
  try {
    const logged = new Set(
      (db.prepare("select user_agent from tenant_logs where type = 'seccft' and user_agent like 'shutdown-load/%'").all() as { user_agent: string }[]).map(
        (r) => r.user_agent,
      ),
    );
    const missing = served.filter((ua) => !logged.has(ua));
    assert.deepEqual(missing, [], `${missing.length} of ${served.length} served requests have no tenant log event`);
  } finally {
    db.close();
  }
}

describe('SIGTERM under load', () => {
  test('GATEHOUSE_SHUTDOWN_GRACE: a request still unfinished when the grace is over has its connection closed, and the exit is 1', async () => {
    const server = await start({ env: { GATEHOUSE_SHUTDOWN_GRACE: '1' } });
    const admin = server.admin();
    const body = tokenBody(admin.client_id, admin.client_secret, admin.audience);
    // Half a request whose rest never comes.
    let headRead!: () => void;
    const inFlight = new Promise<void>((resolve) => (headRead = resolve));
    const stuck = tokenRequest(server, fs.readFileSync(server.certFile), 0, body, () => false, new Promise<void>(() => undefined), headRead);
    await inFlight;
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    assert.equal(await exited, 1, server.output().slice(-2000));
    assert.match(server.output(), /shutdown grace over: closing the connections still busy/);
    assert.equal(typeof (await stuck).result, 'string', 'the unfinished request got an answer');
  });

  test('a SIGTERM while the server is still starting is acted on once it is up: it logs the shutdown and exits 0', async () => {
    // The first start prints the admin credentials before it makes its TLS certificate and builds the app:
    // the signal is sent at that line, while the listener is not up yet.
    const dataDir = tempDir('gatehouse-e2e-');
    dirs.push(dataDir);
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/gatehouse.cjs')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(await freePort()), GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'info', GATEHOUSE_DEFAULT_CONNECTION: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let signalledBeforeListening: boolean | undefined;
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (signalledBeforeListening === undefined && output.includes('Created the default tenant')) {
        signalledBeforeListening = !output.includes('Gatehouse is listening');
        child.kill('SIGTERM');
      }
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    assert.equal(signalledBeforeListening, true, output);
    assert.deepEqual([code, signal], [0, null], output);
    assert.match(output, /Gatehouse is listening[\s\S]*shutting down: finishing in-flight requests/);
  });

  test('one process: in-flight requests answered, exit 0, their tenant log events written', () => shutdownUnderLoad({}));
  test('GATEHOUSE_WORKERS=2: the same through the cluster', () => shutdownUnderLoad({ GATEHOUSE_WORKERS: '2' }));
});
