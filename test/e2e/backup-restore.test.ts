/**
 * `gatehouse backup` and `gatehouse restore` against a running server
 * process: a backup taken under write load restores to a state holding every
 * write acknowledged before it started, tokens signed before still verify,
 * the master key is never in the backup, and the refusals. On PostgreSQL: a
 * pg_dump of a Gatehouse database restores into a new database that a
 * restarted Gatehouse serves.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import pg from 'pg';
import { tempDir } from '../helpers/app.js';
import { POSTGRES_ADMIN_URL, postgresAvailable } from '../helpers/postgres.js';
import { ROOT, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, managementToken, runNode, waitFor } from './support/https.js';
import { tracked } from './support/tracked.js';
import { api, loginSetup, passwordLogin, writeLoad } from './support/management-load.js';

const MAIN = path.join(ROOT, 'bin/gatehouse.cjs');
const { start, database, dirs } = tracked();

function gatehouse(args: string[], env: Record<string, string>) {
  return runNode([MAIN, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeoutMs: 120_000 });
}

/** Verifies `token` with the JWKS `server` publishes now; resolves with its payload. */
async function verifyWithJwks(server: ServerProcess, token: string) {
  const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`), {
    [customFetch]: caFetch(fs.readFileSync(server.certFile)) as unknown as typeof fetch,
  });
  return (await jwtVerify(token, jwks, { issuer: `https://${server.domain}/` })).payload;
}

/** Every encoding of the master key of `dataDir` that could appear in a file. */
function masterKeyForms(dataDir: string): Buffer[] {
  const hex = fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim();
  const raw = Buffer.from(hex, 'hex');
  return [Buffer.from(hex), Buffer.from(hex.toUpperCase()), raw, Buffer.from(raw.toString('base64')), Buffer.from(raw.toString('base64url'))];
}

describe('gatehouse backup and restore (SQLite)', () => {
  test('a backup taken under write load restores every write acknowledged before it, tokens signed before verify, the master key is not in it', async () => {
    const source = await start({});
    const token = await managementToken(source);
    const login = await loginSetup(source, token);
    const load = writeLoad(source, token, { connection: login.realm });
    assert.ok(await waitFor(() => load.acknowledged.length >= 10, 60_000), `no writes acknowledged: ${load.failures.join('\n')}`);

    const backupFile = path.join(tempDir('gatehouse-backup-'), 'gatehouse.backup');
    dirs.push(path.dirname(backupFile));
    const startedAt = performance.now();
    const backup = await gatehouse(['backup', '--out', backupFile], { GATEHOUSE_DATA_DIR: source.dataDir });
    const finishedAt = performance.now();
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /Backed up .*gatehouse\.db to .*gatehouse\.backup/);
    assert.match(backup.stdout, /The master key is not in the backup: keep .*master\.key/);
    // The load goes on after the backup: writes the backup must not hold and that must not disturb it.
    assert.ok(await waitFor(() => load.acknowledged.some((w) => w.at > finishedAt), 30_000), `no write acknowledged after the backup: ${load.failures.join('\n')}`);
    await load.stop();
    assert.deepEqual(load.failures, []);
    const before = load.acknowledged.filter((w) => w.at < startedAt);
    const during = load.acknowledged.filter((w) => w.at >= startedAt && w.at <= finishedAt);
    assert.ok(before.some((w) => w.kind === 'users') && before.some((w) => w.kind === 'clients'), JSON.stringify(before));
    assert.ok(during.length > 0 || load.acknowledged.some((w) => w.at > finishedAt), 'the load did not go on while the backup ran');

    // Neither the backup nor the live database holds the master key, in any encoding.
    const bytes = fs.readFileSync(backupFile);
    for (const form of masterKeyForms(source.dataDir)) {
      assert.equal(bytes.includes(form), false, 'the master key is inside the backup');
      assert.equal(fs.readFileSync(path.join(source.dataDir, 'gatehouse.db')).includes(form), false, 'the master key is inside the database');
    }
    assert.equal(await source.stop(), 0);

    // A new machine: an empty data directory, given the kept master key, the TLS pair and the admin credentials file.
    const restoredDir = tempDir('gatehouse-restored-');
    dirs.push(restoredDir);
    for (const file of ['master.key', 'admin-credentials.json', 'tls']) fs.cpSync(path.join(source.dataDir, file), path.join(restoredDir, file), { recursive: true });
    const restore = await gatehouse(['restore', backupFile], { GATEHOUSE_DATA_DIR: restoredDir });
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, /Restored .*gatehouse\.backup into .*gatehouse\.db/);

    const restored = await start({ dataDir: restoredDir, port: source.port });
    assert.doesNotMatch(restored.output(), /Created the default tenant/);
    // The access token issued by the first server verifies with the restored server's JWKS and is accepted by its API.
    const payload = await verifyWithJwks(restored, token);
    assert.equal(payload.aud, `https://${restored.domain}/api/v2/`);
    for (const write of before) {
      const res = await api(restored, token, 'GET', `/api/v2/${write.kind}/${encodeURIComponent(write.id)}`);
      assert.equal(res.status, 200, `${write.kind} ${write.id}, acknowledged before the backup, is missing: ${res.text}`);
    }
    // Sealed and hashed secrets came along: the client's secret and the user's password still work.
    const loggedIn = await passwordLogin(restored, login);
    assert.equal(loggedIn.status, 200, loggedIn.text);
    assert.equal(await restored.stop(), 0);
  });

  test('refusals: an existing output file, a non-empty database without --force, a file that is not a Gatehouse backup, PostgreSQL', async () => {
    const dir = tempDir('gatehouse-backup-refusals-');
    dirs.push(dir);
    const dataDir = path.join(dir, 'data');
    const created = await gatehouse(['tenants', 'create', 'auth.example.com'], { GATEHOUSE_DATA_DIR: dataDir });
    assert.equal(created.code, 0, created.stderr);
    const backupFile = path.join(dir, 'one.backup');
    assert.equal((await gatehouse(['backup', '--out', backupFile], { GATEHOUSE_DATA_DIR: dataDir })).code, 0);

    const again = await gatehouse(['backup', '--out', backupFile], { GATEHOUSE_DATA_DIR: dataDir });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists already/);
    const noOut = await gatehouse(['backup'], { GATEHOUSE_DATA_DIR: dataDir });
    assert.equal(noOut.code, 1);
    assert.match(noOut.stderr, /usage: gatehouse backup --out <file>/);
    const noDatabase = await gatehouse(['backup', '--out', path.join(dir, 'x.backup')], { GATEHOUSE_DATA_DIR: path.join(dir, 'nothing-here') });
    assert.equal(noDatabase.code, 1);
    assert.match(noDatabase.stderr, /there is no database at/);

    // A tenant made after the backup: restoring over it needs --force, and then it is gone.
    assert.equal((await gatehouse(['tenants', 'create', 'later.example.com'], { GATEHOUSE_DATA_DIR: dataDir })).code, 0);
    const refused = await gatehouse(['restore', backupFile], { GATEHOUSE_DATA_DIR: dataDir });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not empty .* add --force/);
    assert.match((await gatehouse(['tenants', 'list'], { GATEHOUSE_DATA_DIR: dataDir })).stdout, /later\.example\.com/);
    const forced = await gatehouse(['restore', backupFile, '--force'], { GATEHOUSE_DATA_DIR: dataDir });
    assert.equal(forced.code, 0, forced.stderr);
    const list = (await gatehouse(['tenants', 'list'], { GATEHOUSE_DATA_DIR: dataDir })).stdout;
    assert.match(list, /auth\.example\.com/);
    assert.doesNotMatch(list, /later\.example\.com/);

    // Not a Gatehouse backup: a text file, and an SQLite database of something else. The target is left alone.
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'not a database\n');
    const other = path.join(dir, 'other.db');
    execFileSync(process.execPath, ['-e', `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(other)}); d.exec('create table things (id integer)'); d.close();`], { cwd: ROOT });
    for (const [file, reason] of [
      [text, /not a Gatehouse SQLite backup \(not an SQLite database\)/],
      [other, /not a Gatehouse SQLite backup \(no Gatehouse tables in it\)/],
      [path.join(dir, 'missing.backup'), /there is no backup file at/],
    ] as const) {
      const res = await gatehouse(['restore', file, '--force'], { GATEHOUSE_DATA_DIR: dataDir });
      assert.equal(res.code, 1, res.stdout);
      assert.match(res.stderr, reason);
    }
    assert.match((await gatehouse(['tenants', 'list'], { GATEHOUSE_DATA_DIR: dataDir })).stdout, /auth\.example\.com/);

    for (const args of [['backup', '--out', path.join(dir, 'pg.backup')], ['restore', backupFile]]) {
      const res = await gatehouse(args, { GATEHOUSE_DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      assert.equal(res.code, 1);
      assert.match(res.stderr, /PostgreSQL .* pg_dump/);
    }
    assert.equal(fs.existsSync(path.join(dir, 'pg.backup')), false);
  });
});

const pgDump = spawnSync('which', ['pg_dump']).status === 0 && spawnSync('which', ['pg_restore']).status === 0;
const pgAvailable = await postgresAvailable();

describe('PostgreSQL: pg_dump and pg_restore', () => {
  test(
    'a dump restores into a new database where a restarted Gatehouse serves: tokens signed before verify, users log in',
    { skip: !pgAvailable ? `PostgreSQL is unreachable at ${POSTGRES_ADMIN_URL}` : !pgDump ? 'pg_dump/pg_restore are not installed' : false },
    async () => {
      const original = await database();
      const copy = await database();
      const source = await start({ env: { DATABASE_URL: original.url } });
      const token = await managementToken(source);
      const login = await loginSetup(source, token);
      const client = await api(source, token, 'POST', '/api/v2/clients', { name: 'before the dump' });
      assert.equal(client.status, 201, client.text);
      const clientId = client.json<{ client_id: string }>().client_id;

      const dumpFile = path.join(source.dataDir, 'gatehouse.dump');
      execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${dumpFile}`, original.url]);
      const dump = fs.readFileSync(dumpFile);
      for (const form of masterKeyForms(source.dataDir)) assert.equal(dump.includes(form), false, 'the master key is inside the dump');
      assert.equal(await source.stop(), 0);
      execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${copy.url}`, dumpFile]);

      const restored = await start({ dataDir: source.dataDir, port: source.port, env: { DATABASE_URL: copy.url } });
      assert.doesNotMatch(restored.output(), /Created the default tenant|applied \d+ database migration/);
      assert.equal((await verifyWithJwks(restored, token)).aud, `https://${restored.domain}/api/v2/`);
      const fetched = await api(restored, token, 'GET', `/api/v2/clients/${clientId}`);
      assert.equal(fetched.status, 200, fetched.text);
      const loggedIn = await passwordLogin(restored, login);
      assert.equal(loggedIn.status, 200, loggedIn.text);
      // It really is the copy that serves.
      const pgClient = new pg.Client({ connectionString: copy.url });
      await pgClient.connect();
      try {
        assert.equal((await pgClient.query('SELECT 1 FROM clients WHERE client_id = $1', [clientId])).rowCount, 1);
      } finally {
        await pgClient.end();
      }
      assert.equal(await restored.stop(), 0);
    },
  );
});
