// The posting limit (reference of `npm run bench:events`): the least an event stream's
// delivery can do. Posts BENCH_COUNT CloudEvent-sized JSON bodies to BENCH_URL over HTTPS
// with kept-alive connections (32 sockets, 96 posts in flight, as Gatehouse's worker), the
// receiver's certificate trusted from BENCH_CA_FILE, each a 2xx or a failure; no database,
// no queue. Prints one JSON line {"posted", "failed", "ms", "cpuMs"} (its own CPU time) and exits.
//
// Settings (environment, set by the bench): BENCH_URL, BENCH_COUNT, BENCH_CA_FILE.
// Plain JavaScript so that no loader adds to its start-up time or memory.
import fs from 'node:fs';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { setting } from './settings.mjs';

const url = setting('BENCH_URL');
const count = Number(setting('BENCH_COUNT'));
const agent = new https.Agent({ keepAlive: true, maxSockets: 32, ca: fs.readFileSync(setting('BENCH_CA_FILE')) });

function post(i) {
  const body = JSON.stringify({
    specversion: '1.0',
    id: `evt_${randomBytes(11).toString('hex')}`,
    type: 'user.created',
    source: 'urn:auth0:localhost',
    time: new Date().toISOString(),
    data: { object: { reference: i, user_id: 'auth0|0123456789abcdef01234567', email: 'reference@example.com', email_verified: true, created_at: new Date().toISOString() } },
    a0tenant: 'reference',
    a0stream: 'est_reference',
  });
  return new Promise((resolve) => {
    const req = https.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer reference' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode >= 200 && res.statusCode < 300));
    });
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

const start = performance.now();
let next = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: 96 }, async () => {
    while (next < count) {
      const i = next++;
      if (!(await post(i))) failed += 1;
    }
  }),
);
const cpu = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ posted: count - failed, failed, ms: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
agent.destroy();
