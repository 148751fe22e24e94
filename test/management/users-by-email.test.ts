/** GET /api/v2/users-by-email through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { KyselyUserStore } from '../../src/storage/kysely/users.js';
import { badRequest, enc, forbidden, rbacFixtures } from '../helpers/rbac-fixtures.js';
import { connectionRow, userRow } from '../helpers/rows.js';
import { toStored } from '../../src/storage/json-columns.js';

describe('/api/v2/users-by-email', () => {
  let t: TestApp;
  let make: ReturnType<typeof rbacFixtures>;

  before(async () => {
    t = await createTestApp();
    make = rbacFixtures(t);
  });
  after(() => t.close());

  it('finds the users with an email, case-insensitively, with fields; validates the email', async () => {
    const jane = await make.user({ email: 'Jane.Doe@Example.com', email_lower: 'jane.doe@example.com', name: 'Jane' });
    await make.user({ email: 'someone.else@example.com', email_lower: 'someone.else@example.com' });
    const full = (await t.management('GET', `/api/v2/users/${enc(jane)}`)).json();
    for (const email of ['Jane.Doe@Example.com', 'jane.doe@example.com', 'JANE.DOE@EXAMPLE.COM']) {
      const res = await t.management('GET', `/api/v2/users-by-email?email=${encodeURIComponent(email)}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), [full], email);
    }
    assert.deepEqual((await t.management('GET', '/api/v2/users-by-email?email=nobody%40example.com')).json(), []);
    assert.deepEqual((await t.management('GET', '/api/v2/users-by-email?email=jane.doe%40example.com&fields=user_id,email')).json(), [
      { user_id: jane, email: 'Jane.Doe@Example.com' },
    ]);
    const without = (await t.management('GET', '/api/v2/users-by-email?email=jane.doe%40example.com&fields=identities,app_metadata&include_fields=false')).json() as object[];
    assert.ok(!('identities' in without[0]!) && !('app_metadata' in without[0]!) && 'user_id' in without[0]!);

    const invalid = await t.management('GET', '/api/v2/users-by-email?email=not-an-email');
    assert.deepEqual(
      invalid.json(),
      badRequest("Query validation error: 'Object didn't pass validation for format email: not-an-email' on property email (Email address to search for (case-sensitive)).", 'invalid_query_string'),
    );
    assert.deepEqual((await t.management('GET', '/api/v2/users-by-email')).json(), badRequest("Query validation error: 'Missing required property: email'.", 'invalid_query_string'));
    assert.deepEqual((await t.management('GET', '/api/v2/users-by-email?email=jane.doe%40example.com', { token: await t.managementToken('read:roles') })).json(), forbidden('read:users'));
  });

  it('lists the user of each connection that has the email, in creation order', async () => {
    const first = await make.user({ email: 'shared@example.com', email_lower: 'shared@example.com', created_at: '2024-01-01T00:00:00.000Z' });
    const connection = connectionRow(t.tenant.id);
    await t.ctx.database.db.insertInto('connections').values(toStored('connections', connection)).execute();
    const second = userRow(t.tenant.id, connection.id, { email: 'Shared@Example.com', email_lower: 'shared@example.com', created_at: '2024-01-02T00:00:00.000Z' });
    await new KyselyUserStore(t.ctx.database.db).insert(second);
    const res = await t.management('GET', '/api/v2/users-by-email?email=shared%40example.com&fields=user_id,email,identities');
    assert.deepEqual(res.json(), [
      { user_id: first, email: 'shared@example.com', identities: [{ connection: (await t.management('GET', `/api/v2/users/${enc(first)}`)).json().identities[0].connection, user_id: first.slice(6), provider: 'auth0', isSocial: false }] },
      { user_id: second.user_id, email: 'Shared@Example.com', identities: [{ connection: connection.name, user_id: second.user_id.slice(6), provider: 'auth0', isSocial: false }] },
    ]);
  });
});
