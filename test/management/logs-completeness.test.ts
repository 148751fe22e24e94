/**
 * The tenant log is complete and its login events say who tried, on SQLite
 * and PostgreSQL, through app.inject on the real app and database:
 *
 * - the fuzz's reproductions (issue 24, item 13): `grant_type` named after a
 *   member of Object.prototype (`constructor`, `__proto__`, `toString`,
 *   `hasOwnProperty`), as a form and as JSON, each a failed login `f`
 *   ("Unsupported grant type: …"), followed by ordinary requests: every
 *   event produced is written (rows written = events produced), none
 *   dropped;
 * - a batch holding a row the database refuses (the writer with the real
 *   store): the others are written, the bad one dropped and counted;
 * - password-realm failures and successes (item 3): `fepft` and `sepft`
 *   found by `q=user_name:…`, with the user's id when one exists, the
 *   connection, its id, strategy and strategy type, the client and the
 *   request's address and agent; never the password;
 * - shutdown (the context's close) writes what the buffer holds.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import type { TenantLogRow } from '../../src/domain/rows.js';
import type { BufferedTenantLogs } from '../../src/domain/logs/tenant-logs.js';
import { BatchWriter } from '../../src/platform/batch-writer.js';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import type { LogView } from '../helpers/log-view.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Correct-Horse-9-battery-staple';
const WRONG = 'Not-the-password-7-at-all';
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'] as const;

type Log = LogView;

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`tenant log completeness and login members (${database})`, () => {
    let t: TestApp;
    let app: TestClient;
    let machine: TestClient;
    let userId: string;
    let connectionId: string;
    let reader: string;

    const rowCount = async () => (await t.ctx.database.db.selectFrom('tenant_logs').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n;
    const logsOf = async (q: string): Promise<Log[]> => {
      const res = await t.management('GET', `/api/v2/logs?per_page=100&q=${encodeURIComponent(q)}`, { token: reader });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Log[];
    };
    const logs = () => t.ctx.tenantLogs as BufferedTenantLogs;

    before(async () => {
      t = await createTestApp({ postgres: database === 'PostgreSQL' });
      reader = await t.managementToken();
      app = await insertClient(t, { name: 'Realm App', grant_types: [PASSWORD_REALM] });
      machine = await insertClient(t, { name: 'Machine' });
      const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience: t.admin.audience, scope: ['read:users'] } });
      assert.equal(grant.statusCode, 201, grant.body);
      const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
      assert.equal(conn.statusCode, 201, conn.body);
      connectionId = (conn.json() as { id: string }).id;
      const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'realm.user@example.com', password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
      userId = (user.json() as { user_id: string }).user_id;
    });
    after(() => t.close());

    it('grant_type named after Object.prototype members, then ordinary requests: every event written, each unsupported one a failed login', async () => {
      await t.ctx.tenantLogs.flush();
      const before = Number(await rowCount());
      const writtenBefore = logs().written;
      let produced = 0;
      for (const name of PROTOTYPE_NAMES) {
        for (const form of [true, false]) {
          const res = await tokenRequest(t.app, { grant_type: name, client_id: machine.client_id }, { form });
          assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
          assert.equal((res.json() as { error: string }).error, 'unsupported_grant_type');
          produced += 1;
        }
      }
      // The same from the raw body: a JSON member named __proto__ is a member like any other.
      const raw = await tokenRequest(t.app, '{"grant_type":"__proto__","client_id":"x"}');
      assert.equal(raw.statusCode, 400, raw.body);
      produced += 1;
      // Ordinary requests after them: client credentials (seccft), a wrong secret (feccft), password-realm (sepft, fepft).
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience: t.admin.audience })).statusCode, 200);
        assert.equal((await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: 'wrong-secret', audience: t.admin.audience })).statusCode, 401);
        produced += 2;
      }
      await t.ctx.tenantLogs.flush();
      assert.equal(Number(await rowCount()) - before, produced, 'rows written = events produced');
      assert.equal(logs().written - writtenBefore, produced);
      assert.deepEqual(logs().dropped, { buffer_full: 0, refused: 0, shutdown: 0, invalid_type: 0 });
      assert.equal(logs().pending, 0);

      const failed = await logsOf('type:f');
      for (const name of PROTOTYPE_NAMES) {
        const events = failed.filter((l) => l.details?.grant_type === name);
        assert.equal(events.length, name === '__proto__' ? 3 : 2, name);
        assert.ok(events.every((l) => l.description === `Unsupported grant type: ${name}` && l.details?.error === 'unsupported_grant_type'));
      }
      assert.equal((await logsOf(`type:seccft AND client_id:"${machine.client_id}"`)).length, 3);
      assert.equal((await logsOf(`type:feccft AND client_id:"${machine.client_id}"`)).length, 3);
    });

    it('the writer over the real store: a batch with a row the database refuses writes the others and drops that one', async () => {
      const store = t.ctx.stores.tenantLogs;
      const drops: { reason: string; count: number; error?: unknown }[] = [];
      const writer = new BatchWriter<TenantLogRow>({
        write: (rows) => store.insertMany(rows),
        refused: (error) => store.refusal(error) !== undefined,
        maxBatch: 8,
        intervalMs: 60_000,
        onDrop: (drop) => void drops.push(drop),
      });
      const row = (i: number, type: string | null): TenantLogRow => ({
        tenant_id: t.tenant.id,
        log_id: `90020261128000000000000000${String(i).padStart(12, '0')}`,
        date: new Date().toISOString(),
        type: type as string,
        description: `poison test ${i}`,
        client_id: null, client_name: null, ip: null, user_agent: null, user_id: null, user_name: null, connection: null,
        connection_id: null, strategy: null, strategy_type: null, audience: null, scope: null, hostname: null, details: null,
      });
      for (let i = 0; i < 8; i += 1) writer.push(row(i, i === 3 ? null : 'sapi'));
      await writer.close();
      const written = await t.ctx.database.db.selectFrom('tenant_logs').select('description').where('description', 'like', 'poison test %').orderBy('log_id').execute();
      assert.deepEqual(written.map((r) => r.description), [0, 1, 2, 4, 5, 6, 7].map((i) => `poison test ${i}`));
      assert.equal(writer.dropped.refused, 1);
      assert.equal(drops.length, 1);
      const refusal = store.refusal(drops[0]!.error);
      assert.ok(refusal, 'the store calls it a refusal');
      assert.match(refusal.code!, database === 'SQLite' ? /^SQLITE_CONSTRAINT/ : /^23/);
      assert.ok(!JSON.stringify(refusal).includes('poison'), 'no value of the row in what is logged');
    });

    it('password-realm: the failed and the successful exchange are found by user_name, with the members of a login event and no password', async () => {
      const attempt = (password: string, username = 'realm.user@example.com') =>
        tokenRequest(
          t.app,
          { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, realm: REALM, username, password },
          { headers: { 'user-agent': 'realm-agent/2.0' } },
        );
      assert.equal((await attempt(WRONG)).statusCode, 403);
      assert.equal((await attempt(PASSWORD)).statusCode, 200);
      assert.equal((await attempt(WRONG, 'nobody@example.com')).statusCode, 403);
      await t.ctx.tenantLogs.flush();

      const mine = await logsOf('user_name:"realm.user@example.com"');
      const fepft = mine.find((l) => l.type === 'fepft');
      const sepft = mine.find((l) => l.type === 'sepft');
      assert.ok(fepft && sepft, JSON.stringify(mine.map((l) => l.type)));
      for (const event of [fepft, sepft]) {
        assert.equal(event.user_id, userId, event.type);
        assert.equal(event.user_name, 'realm.user@example.com');
        assert.equal(event.connection, REALM);
        assert.equal(event.connection_id, connectionId);
        assert.equal(event.strategy, 'auth0');
        assert.equal(event.strategy_type, 'database');
        assert.equal(event.client_id, app.client_id);
        assert.equal(event.client_name, 'Realm App');
        assert.equal(event.user_agent, 'realm-agent/2.0');
        assert.ok(event.ip, 'the address');
      }
      assert.equal(fepft.description, 'Wrong email or password.');
      // By user_id too (GET /users/{id}/logs reads the same column).
      assert.deepEqual((await logsOf(`user_id:"${userId}" AND type:fepft`)).map((l) => l.log_id), [fepft.log_id]);

      // An identifier that names nobody: the name tried, no user id.
      const [nobody] = await logsOf('user_name:"nobody@example.com"');
      assert.equal(nobody?.type, 'fepft');
      assert.equal(nobody.user_id, undefined);
      assert.equal(nobody.connection, REALM);

      const everything = JSON.stringify(await t.ctx.database.db.selectFrom('tenant_logs').selectAll().execute());
      for (const secret of [PASSWORD, WRONG, app.client_secret, machine.client_secret]) assert.ok(!everything.includes(secret), 'a log holds a secret');
    });
  });
}

describe('tenant log at shutdown', () => {
  it("the context's close writes the events still buffered, including one still being completed", async () => {
    const t = await createTestApp();
    try {
      const before = Number((await t.ctx.database.db.selectFrom('tenant_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      for (let i = 0; i < 25; i += 1) t.ctx.tenantLogs.record(t.tenant.id, { type: 'sapi', description: `at shutdown ${i}` });
      t.ctx.tenantLogs.recordWhen(t.tenant.id, new Promise((resolve) => setImmediate(() => resolve({ type: 'slo', description: 'at shutdown, completed late' }))));
      assert.equal((t.ctx.tenantLogs as BufferedTenantLogs).pending, 25, 'still buffered when the process stops');
      await t.app.close();
      await t.ctx.close();
      const sqlite = new Database(t.config.sqliteFile, { readonly: true });
      try {
        const rows = sqlite.prepare("select description from tenant_logs where description like 'at shutdown%'").all() as { description: string }[];
        assert.equal(rows.length, 26);
        assert.ok(rows.some((r) => r.description === 'at shutdown, completed late'));
        assert.equal((sqlite.prepare('select count(*) as n from tenant_logs').get() as { n: number }).n, before + 26);
      } finally {
        sqlite.close();
      }
    } finally {
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
