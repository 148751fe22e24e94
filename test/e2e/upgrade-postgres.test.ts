/**
 * Upgrades on PostgreSQL: processes started together on one fresh database
 * migrate it once (Kysely's Migrator holds an advisory lock; the later
 * process finds nothing left to do) and all serve; a database written by a
 * newer version is refused by this one before anything changes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { POSTGRES_ADMIN_URL, postgresAvailable } from '../helpers/postgres.js';
import { freePort, ROOT } from '../helpers/server-process.js';
import { httpsRequest, runNode, tokenBody } from './support/https.js';
import { loadBalancedEnv, tracked } from './support/tracked.js';

const pgAvailable = await postgresAvailable();
const skip = pgAvailable ? false : `PostgreSQL is unreachable at ${POSTGRES_ADMIN_URL} (set GATEHOUSE_TEST_POSTGRES_URL)`;
const { start, database } = tracked();

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('migrations on PostgreSQL', { skip }, () => {
  test('two processes started at the same moment on one fresh database: one migrates, both serve the same tenant', async () => {
    const db = await database();
    const [portA, portB] = [await freePort(), await freePort()];
    // Two processes behind one load balancer.
    const domain = `localhost:${portA}`;
    const shared = loadBalancedEnv(db.url, domain, 'concurrent-start-admin');
    const started = await Promise.all(
[portA, portB].map((port) => start({ port, env: shared })));

    const migratedBy = started.filter((s) => /applied \d+ database migration\(s\): 0001_foundation/.test(s.output()));
    assert.equal(migratedBy.length, 1, `expected exactly one process to migrate:\n${started.map((s) => s.output()).join('\n---\n')}`);
    const executed = await query<{ name: string; n: string }>(db.url, 'SELECT name, count(*) AS n FROM kysely_migration GROUP BY name');
    assert.ok(executed.length >= 36);
    assert.ok(executed.every((r) => r.n === '1'));
    const tenants = await query<{ domain: string }>(db.url, 'SELECT domain FROM tenants');
    assert.deepEqual(
      tenants.map((t) => t.domain),
      [domain],
    );

    for (const server of started) {
      const token = await httpsRequest(`https://localhost:${server.port}/oauth/token`, {
        ca: fs.readFileSync(server.certFile),
        method: 'POST',
        headers: { host: domain, 'content-type': 'application/json' },
        body: tokenBody(shared.GATEHOUSE_ADMIN_CLIENT_ID, shared.GATEHOUSE_ADMIN_CLIENT_SECRET, `https://${domain}/api/v2/`),
      });
      assert.equal(token.status, 200, `process on port ${server.port}: ${token.text}`);
    }
    for (const server of started) assert.equal(await server.stop(), 0, server.output());
  });

  test('a database written by a newer version is refused with the unknown migration named, and left as it was', async () => {
    const db = await database();
    const first = await start({ env: { DATABASE_URL: db.url } });
    assert.equal(await first.stop(), 0);
    await query(db.url, "INSERT INTO kysely_migration (name, timestamp) VALUES ('9000_from_a_newer_version', '2027-01-01T00:00:00.000Z')");
    const tablesBefore = await query<{ table_name: string }>(db.url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
    const executedBefore = await query<{ name: string }>(db.url, 'SELECT name FROM kysely_migration ORDER BY name');

    const run = await runNode([path.join(ROOT, 'bin/gatehouse.cjs')], {
      env: { ...process.env, DATABASE_URL: db.url, GATEHOUSE_DATA_DIR: first.dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /written by a newer version of Gatehouse/);
    assert.match(run.stderr, /9000_from_a_newer_version/);
    assert.match(run.stderr, /Upgrade Gatehouse/);
    assert.deepEqual(await query(db.url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"), tablesBefore);
    assert.deepEqual(await query(db.url, 'SELECT name FROM kysely_migration ORDER BY name'), executedBefore);
  });
});
