/**
 * GATEHOUSE_WORKERS=2 (src/app/cluster.ts), the built server as a process
 * over HTTPS: the primary prepares the data once and starts two workers on
 * one port; a token one worker issued is accepted by whichever answers the
 * next request; a scrape of /metrics shows every worker's counts, whichever
 * worker answers it; a worker that dies is replaced while the other keeps
 * serving; a connection caught in a worker's death (handed to it, or with a
 * request in flight) gets an error at once rather than hanging; SIGTERM ends the workers and the primary with code 0.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { httpsRequest } from './support/https.js';

/** The primary's child processes (Linux: /proc/<pid>/task/<pid>/children). */
function childrenOf(pid: number): number[] {
  const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/** Rejects after a generous guard: turns a hang into a failure (no timing is asserted). */
function hang(what: string, guardMs = 20_000): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`${what}: no answer and no error after ${guardMs} ms`)), guardMs).unref();
  });
}

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const METRICS_TOKEN = 'cluster-metrics-scrape-token';

const listening = (server: ServerProcess) => server.output().split('Gatehouse is listening').length - 1;

describe('GATEHOUSE_WORKERS=2', { skip: process.platform !== 'linux' && 'reads the process tree from /proc (Linux only)' }, () => {
  let server: ServerProcess;
  let ca: Buffer;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_WORKERS: '2', GATEHOUSE_METRICS_TOKEN: METRICS_TOKEN } });
    await until('both workers listening', () => listening(server) >= 2);
    ca = fs.readFileSync(server.certFile);
  });
  after(async () => {
    await server?.stop();
  });

  async function token(): Promise<string> {
    const admin = server.admin();
    const response = await httpsRequest(`${server.baseUrl}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: admin.audience }),
    });
    assert.equal(response.status, 200, response.text);
    return response.json<{ access_token: string }>().access_token;
  }

  it('the primary prints the credentials once and runs two workers on one port', () => {
    const pid = server.child.pid!;
    assert.equal(childrenOf(pid).length, 2);
    assert.equal(server.output().split('client_secret:').length - 1, 1, 'credentials printed once, by the primary');
  });

  it('tokens issued by either worker are accepted by both (connections spread round-robin)', async () => {
    const tokens = await Promise.all(Array.from({ length: 4 }, () => token()));
    for (const accessToken of tokens) {
      // New connections each time (agent: false): the requests reach both workers in turn.
      for (let i = 0; i < 2; i++) {
        const list = await httpsRequest(`${server.baseUrl}/api/v2/resource-servers`, { ca, headers: { authorization: `Bearer ${accessToken}` } });
        assert.equal(list.status, 200, list.text);
      }
    }
  });

  it("a scrape of /metrics reaches one worker and shows every worker's counts", async () => {
    const issued = async (): Promise<number> => {
      const scrape = await httpsRequest(`${server.baseUrl}/metrics`, { ca, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(scrape.status, 200, scrape.text);
      const line = /^gatehouse_tokens_issued_total\{grant_type="client_credentials"\} (\d+)$/m.exec(scrape.text);
      assert.ok(line, 'the tokens counter is in the scrape');
      return Number(line[1]);
    };
    // Without the token, or with another, a worker still answers 401 and no metrics.
    for (const authorization of [undefined, 'Bearer not-the-metrics-token-at-all']) {
      const refused = await httpsRequest(`${server.baseUrl}/metrics`, { ca, ...(authorization && { headers: { authorization } }) });
      assert.equal(refused.status, 401);
      assert.doesNotMatch(refused.text, /gatehouse_tokens_issued_total/);
    }
    const before = await issued();
    // Six tokens on new connections: three from each worker.
    for (let i = 0; i < 6; i++) await token();
    // Four scrapes on new connections, two answered by each worker: each sees all six (a worker's own count would be three).
    for (let i = 0; i < 4; i++) assert.equal(await issued(), before + 6);
  });

  it('a worker that dies is replaced, and the port keeps answering meanwhile', async () => {
    const pid = server.child.pid!;
    const [victim, survivor] = childrenOf(pid);
    process.kill(victim!, 'SIGKILL');
    // A connection the primary handed to the worker as it died is reset (the next test); once the
    // primary has seen the exit, every connection goes to the survivor while the replacement starts.
    await until('the primary to see the exit', () => server.output().includes('a worker process ended; starting another'));
    for (let i = 0; i < 5; i++) {
      const discovery = await httpsRequest(`${server.baseUrl}/.well-known/openid-configuration`, { ca });
      assert.equal(discovery.status, 200);
    }
    await until('a replacement worker', () => {
      const now = childrenOf(pid);
      return now.length === 2 && !now.includes(victim!) && now.includes(survivor!);
    });
    await until('the replacement listening', () => listening(server) >= 3);
    assert.ok((await token()).length > 0);
  });

  it('a connection caught in a worker\'s death gets a reset at once, and a new request is answered once the workers are replaced', async () => {
    const pid = server.child.pid!;
    const [stopped, busy] = childrenOf(pid);
    const startsBefore = listening(server);
    // A stopped worker never takes the connection the primary hands it: of two new connections, one
    // reaches the stopped worker (no handshake) and the other the running one.
    process.kill(stopped!, 'SIGSTOP');
    const connect = () => {
      const socket = tls.connect({ port: server.port, host: '127.0.0.1', servername: 'localhost', ca });
      const outcome = new Promise<{ socket: tls.TLSSocket; event: string; code?: string }>((resolve) => {
        socket.once('secureConnect', () => resolve({ socket, event: 'secureConnect' }));
        socket.once('error', (err: NodeJS.ErrnoException) => resolve({ socket, event: 'error', ...(err.code && { code: err.code }) }));
        socket.once('close', () => resolve({ socket, event: 'close' }));
      });
      return { socket, outcome };
    };
    const first = connect();
    const second = connect();
    const handshaken = await Promise.race([first.outcome, second.outcome]);
    assert.equal(handshaken.event, 'secureConnect');
    const untaken = handshaken.socket === first.socket ? second : first;
    // The handshaken connection carries a request whose body is still being sent when its worker dies.
    handshaken.socket.write(
      `POST /oauth/token HTTP/1.1\r\nHost: ${server.domain}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"grant_type":`,
    );
    const inFlight = new Promise<string>((resolve) => {
      handshaken.socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      handshaken.socket.once('close', () => resolve('close'));
    });

    // The stopped worker dies without taking its connection: the primary resets it (before, it stayed
    // open with no process reading it until the client gave up).
    process.kill(stopped!, 'SIGKILL');
    const lost = await Promise.race([untaken.outcome, hang('the connection handed to the killed worker')]);
    assert.equal(lost.event, 'error', 'the connection the killed worker never took is not answered');
    assert.equal(lost.code, 'ECONNRESET');

    // The worker reading the slow body dies: its client learns at once too.
    process.kill(busy!, 'SIGKILL');
    assert.match(await Promise.race([inFlight, hang('the request in flight')]), /^(ECONNRESET|EPIPE|close)$/);

    // The primary replaces both; a new request is answered.
    await until('both replacements listening', () => listening(server) >= startsBefore + 2, 30_000);
    assert.ok((await token()).length > 0);
  });

  it('SIGTERM stops the workers and the primary with code 0', async () => {
    const pid = server.child.pid!;
    const workers = childrenOf(pid);
    assert.equal(await server.stop(), 0);
    for (const worker of workers) assert.equal(fs.existsSync(`/proc/${worker}`), false, `worker ${worker} ended`);
  });
});
