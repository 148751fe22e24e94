/**
 * Containment of tenants' code (src/platform/sandbox/): what an action can
 * reach from its sandbox process. Each test runs real code in real sandbox
 * processes started as the server starts them (as `nobody` when the tests run
 * as root, as in CI), beside a real app whose data directory holds the master
 * key and the SQLite database.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SandboxPool, sandboxSettings, type SandboxResult } from '../../src/platform/sandbox/pool.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

const API = { methods: ['idToken.setCustomClaim', 'access.deny'], values: {}, cache: {} };

let testApp: TestApp;
let pool: SandboxPool;

function run(tenantId: string, body: string, options: { timeoutMs?: number; event?: unknown } = {}): Promise<SandboxResult> {
  const code = `exports.onExecutePostLogin = async (event, api) => {\n${body}\n};`;
  return pool.run(tenantId, { code, modulesDir: null, handler: 'onExecutePostLogin', args: [options.event ?? {}], api: API }, Date.now() + (options.timeoutMs ?? 10_000));
}

/** The lines the code logged, parsed as JSON where it logged JSON. */
function logged(result: SandboxResult): unknown[] {
  assert.equal(result.error, undefined, `the action failed: ${JSON.stringify(result.error)}`);
  return result.logs
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
}

before(async () => {
  testApp = await createTestApp({ env: { GATEHOUSE_MASTER_KEY: 'a'.repeat(64), GATEHOUSE_ACTIONS_TIMEOUT: '3' } });
  pool = new SandboxPool({ ...sandboxSettings(testApp.config.actions, testApp.config.outbound), processesPerTenant: 1 });
});

after(async () => {
  await pool.close();
  await testApp.close();
});

describe('the sandbox process', () => {
  test('has an empty environment and runs as another user than the server', async () => {
    process.env.GATEHOUSE_TEST_SECRET = 'must-not-leak';
    const [env, uid, cwd] = logged(await run('tenant-a', 'console.log(JSON.stringify(process.env)); console.log(process.getuid()); console.log(JSON.stringify(process.cwd()));'));
    assert.deepEqual(env, {});
    if (process.getuid!() === 0) assert.notEqual(uid, 0, 'the sandbox runs as GATEHOUSE_ACTIONS_USER (nobody), not root');
    assert.deepEqual(fs.readdirSync(cwd as string), [], 'its working directory is an empty folder of its own');
    assert.equal(fs.statSync(cwd as string).uid, uid);
  });

  test('cannot read the data directory: database, master key, TLS key', async () => {
    const files = fs.readdirSync(testApp.dataDir).map((name) => path.join(testApp.dataDir, name));
    assert.ok(files.some((file) => file.endsWith('.db')), 'the data directory holds the SQLite database');
    const result = await run(
      'tenant-a',
      `const fs = require('fs');
       for (const file of ${JSON.stringify([testApp.dataDir, ...files])}) {
         try { const data = fs.statSync(file).isDirectory() ? fs.readdirSync(file) : fs.readFileSync(file, 'utf8'); console.log(JSON.stringify({ file, read: String(data).slice(0, 20) })); }
         catch (e) { console.log(JSON.stringify({ file, refused: e.code })); }
       }`,
    );
    const outcomes = logged(result) as { file: string; read?: string; refused?: string }[];
    assert.equal(outcomes.length, files.length + 1);
    for (const outcome of outcomes) assert.equal(outcome.read, undefined, `${outcome.file} was read`);
    for (const outcome of outcomes) assert.ok(outcome.refused, `${outcome.file}: ${JSON.stringify(outcome)}`);
  });

  test("cannot read the server's source, node_modules or anything outside its dependencies", async () => {
    const [pkg, passwd] = logged(
      await run('tenant-a', `const fs = require('fs'); for (const f of ${JSON.stringify([path.resolve('package.json'), '/etc/passwd'])}) { try { fs.readFileSync(f); console.log('"read"'); } catch (e) { console.log(JSON.stringify(e.code)); } }`),
    );
    assert.equal(pkg, 'ERR_ACCESS_DENIED');
    assert.equal(passwd, 'ERR_ACCESS_DENIED');
  });

  test('cannot connect to the database port or other loopback and private addresses', async () => {
    const outcomes = logged(
      await run(
        'tenant-a',
        `const net = require('net');
         const attempt = (options) => new Promise((resolve) => { const s = net.connect(options); s.on('connect', () => { s.destroy(); resolve('connected'); }); s.on('error', (e) => resolve(e.code)); });
         for (const options of [{ host: '127.0.0.1', port: 5432 }, { host: 'localhost', port: 6379 }, { host: '::1', port: 5432 }, { host: '169.254.169.254', port: 80 }, { path: '/var/run/postgresql/.s.PGSQL.5432' }]) console.log(JSON.stringify(await attempt(options)));
         try { await fetch('http://127.0.0.1:5432/'); console.log('"fetched"'); } catch (e) { console.log(JSON.stringify(e.cause?.code ?? e.code)); }`,
      ),
    );
    assert.deepEqual(outcomes, ['EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES']);
  });

  test('cannot inspect or signal the server process', async () => {
    const [environ, cmdline, signal] = logged(
      await run(
        'tenant-a',
        `const fs = require('fs');
         for (const f of ['/proc/' + process.ppid + '/environ', '/proc/' + process.ppid + '/cmdline']) { try { console.log(JSON.stringify(fs.readFileSync(f, 'latin1'))); } catch (e) { console.log(JSON.stringify(e.code)); } }
         try { process.kill(process.ppid, 0); console.log('"signalled"'); } catch (e) { console.log(JSON.stringify(e.code)); }`,
      ),
    );
    assert.equal(environ, 'ERR_ACCESS_DENIED');
    assert.equal(cmdline, 'ERR_ACCESS_DENIED');
    if (process.getuid!() === 0) assert.equal(signal, 'EPERM', 'another user may not signal the server');
  });

  test('cannot start processes or threads (child_process, fork bomb, workers)', async () => {
    const outcomes = logged(
      await run(
        'tenant-a',
        `const cp = require('child_process');
         for (const start of [() => cp.spawn('/bin/sh', ['-c', ':(){ :|:& };:']), () => cp.fork(__filename), () => cp.execSync('id'), () => new (require('worker_threads').Worker)('1', { eval: true })]) {
           try { start(); console.log('"started"'); } catch (e) { console.log(JSON.stringify(e.code)); }
         }`,
      ),
    );
    assert.deepEqual(outcomes, ['ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED']);
  });

  test('an infinite loop is killed at the time limit, and the next run gets a new process', async () => {
    const [before] = pool.pids('tenant-loop').length ? pool.pids('tenant-loop') : [undefined];
    const result = await run('tenant-loop', 'while (true) {}', { timeoutMs: 1500 });
    assert.equal(result.error?.name, 'TimeoutError');
    assert.match(result.error.message, /time exceeded/);
    assert.equal(pool.processCount('tenant-loop'), 0, 'the process was killed');
    const [pid] = logged(await run('tenant-loop', 'console.log(process.pid)'));
    assert.notEqual(pid, before);
  });

  test('a promise that never settles ends at the time limit without killing the process', async () => {
    await run('tenant-hang', 'console.log(1)');
    const [pid] = pool.pids('tenant-hang');
    const result = await run('tenant-hang', 'await new Promise(() => {});', { timeoutMs: 1000 });
    assert.equal(result.error?.name, 'TimeoutError');
    assert.deepEqual(pool.pids('tenant-hang'), [pid]);
  });

  test('a memory bomb (heap or buffers) is stopped, and the next run works', async () => {
    const heap = await run('tenant-memory', 'const a = []; while (true) a.push(new Array(1e6).fill(1));');
    assert.equal(heap.error?.name, 'RangeError');
    assert.match(heap.error.message, /out of memory/);
    const buffers = await run('tenant-memory', 'const a = []; for (let i = 0; i < 1000; i++) a.push(Buffer.alloc(64 * 1024 * 1024, 1)); console.log(a.length);');
    assert.ok(buffers.error, 'allocating 64 GiB of buffers failed');
    assert.deepEqual(logged(await run('tenant-memory', 'console.log(2)')), [2]);
  });

  test("one tenant's process never sees another tenant's secrets or code", async () => {
    await run('tenant-one', 'globalThis.leak = event.secrets.API_KEY; console.log(1);', { event: { secrets: { API_KEY: 'one-secret' } } });
    const [seen] = logged(await run('tenant-two', 'console.log(JSON.stringify(globalThis.leak ?? null));'));
    assert.equal(seen, null);
    const [again] = logged(await run('tenant-one', 'console.log(JSON.stringify(globalThis.leak ?? null));'));
    assert.equal(again, 'one-secret', 'the same tenant reuses its process');
    const one = new Set(pool.pids('tenant-one'));
    for (const pid of pool.pids('tenant-two')) assert.ok(!one.has(pid));
  });

  test("requires the version's installed dependencies (built into the data directory) and Node's built-ins, and fetch is there", async () => {
    const build = path.join(testApp.dataDir, 'actions', 'builds', 'test-build');
    fs.mkdirSync(path.join(build, 'node_modules', 'greet'), { recursive: true });
    fs.writeFileSync(path.join(build, 'node_modules', 'greet', 'package.json'), JSON.stringify({ name: 'greet', version: '1.0.0', main: 'index.js' }));
    fs.writeFileSync(path.join(build, 'node_modules', 'greet', 'index.js'), "module.exports = (name) => 'hello ' + name;");
    const code = `const greet = require('greet'); const { createHash } = require('node:crypto');
      exports.onExecutePostLogin = async (event, api) => { console.log(JSON.stringify([greet('ann'), createHash('sha256').update('x').digest('hex').slice(0, 8), typeof fetch])); };`;
    const result = await pool.run('tenant-deps', { code, modulesDir: build, handler: 'onExecutePostLogin', args: [{}], api: API }, Date.now() + 10_000);
    assert.deepEqual(logged(result), [['hello ann', '2d711642', 'function']]);
    const missing = await pool.run('tenant-deps', { code: "require('left-pad'); exports.onExecutePostLogin = async () => {};", modulesDir: build, handler: 'onExecutePostLogin', args: [{}], api: API }, Date.now() + 10_000);
    assert.match(missing.error?.message ?? '', /Cannot find module 'left-pad'/);
  });

  test('console output is captured and bounded', async () => {
    const result = await run('tenant-a', "for (let i = 0; i < 2000; i++) console.log('x'.repeat(1000));");
    assert.equal(result.error, undefined);
    assert.ok(result.logs.length <= 256 * 1024 && result.logs.length > 200 * 1024);
  });

  test('the server answers /health while an action runs away', async () => {
    const runaway = run('tenant-runaway', 'while (true) {}', { timeoutMs: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = await testApp.app.inject({ method: 'GET', url: '/health', headers: { host: DOMAIN } });
    assert.equal(health.statusCode, 200);
    assert.equal((await runaway).error?.name, 'TimeoutError');
  });
});
