/**
 * The user-grant store's contract against SQLite and PostgreSQL (a fresh
 * database, dropped afterwards), on migrated schemas: a grant is created once
 * per user, client and audience and its scopes only grow (also under
 * concurrency), lists filter and page with a total, deletes are scoped by
 * tenant, and grants go with their user and their client.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../src/storage/database.js';
import { newClientId, newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { fullUserId, newUserIdPart } from '../../src/domain/users/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';

const T0 = '2024-01-01T00:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const API = 'https://api.example.test/';
const USERINFO = 'https://tenant.example.test/userinfo';

await forEachStoreFactory('user-grant storage', (h) => {
  // Tenants and users are seeded, a user removed and grants counted, in SQL.
  let db: Db;
  let grants: Stores['consentGrants'];
  let clients: Stores['clients'];
  before(() => {
    db = h.db();
    ({ consentGrants: grants, clients } = h.stores());
  });

  /** A tenant with one connection, `users` users and `clientCount` clients, per case. */
  async function tenantWith(users = 1, clientCount = 1): Promise<{ tenantId: string; userIds: string[]; clientIds: string[] }> {
    const tenantId = newPrefixedId('ten');
    const name = `t-${randomString(10).toLowerCase()}`;
    await db.insertInto('tenants').values({ id: tenantId, name, domain: `${name}.example.test`, settings: '{}', created_at: T0 }).execute();
    const connectionId = newPrefixedId('con');
    await db.insertInto('connections').values({ tenant_id: tenantId, id: connectionId, name: 'db', display_name: null, strategy: 'auth0', options: '{}', is_domain_connection: 0, realms: '[]', metadata: '{}', created_at: T0, updated_at: T0 }).execute();
    const userIds: string[] = [];
    for (let i = 0; i < users; i++) {
      const userId = fullUserId(newUserIdPart());
      await db.insertInto('users').values({
        tenant_id: tenantId, user_id: userId, connection_id: connectionId, email: `u${i}@example.com`, email_lower: `u${i}@example.com`, email_verified: 0,
        username: null, username_lower: null, phone_number: null, phone_verified: 0, password_hash: null, blocked: 0, name: null, given_name: null,
        family_name: null, nickname: null, picture: null, app_metadata: '{}', user_metadata: '{}', created_at: T0, updated_at: T0,
        last_login: null, last_password_reset: null, logins_count: 0,
      }).execute();
      userIds.push(userId);
    }
    const clientIds: string[] = [];
    for (let i = 0; i < clientCount; i++) {
      const clientId = newClientId();
      await clients.insert({
        tenant_id: tenantId, client_id: clientId, name: `client ${i}`, description: '', app_type: 'regular_web', is_first_party: 0, global: 0,
        token_endpoint_auth_method: 'client_secret_post', client_authentication_methods: null, grant_types: ['authorization_code'],
        client_secret_enc: null, created_at: T0, updated_at: T0, external_client_id: null, config: {},
      });
      clientIds.push(clientId);
    }
    return { tenantId, userIds, clientIds };
  }

  const rowCount = async (tenantId: string) =>
    (await db.selectFrom('user_grants').select('id').where('tenant_id', '=', tenantId).execute()).length;

  it('creates a grant once per user, client and audience, and finds its scopes', async () => {
    const { tenantId, userIds: [user], clientIds: [client] } = await tenantWith();
    assert.equal(await grants.scopesFor(tenantId, user!, client!, API), undefined);

    const row = await grants.grant(tenantId, user!, client!, API, ['read:a', 'read:b', 'read:a'], at(1));
    assert.match(row.id, /^cgr_[A-Za-z0-9]{16}$/);
    assert.deepEqual(
      { ...row, id: undefined },
      { tenant_id: tenantId, id: undefined, user_id: user, client_id: client, audience: API, scope: ['read:a', 'read:b'], created_at: at(1), updated_at: at(1) },
    );
    assert.deepEqual(await grants.scopesFor(tenantId, user!, client!, API), ['read:a', 'read:b']);
    assert.equal(await grants.scopesFor(tenantId, user!, client!, USERINFO), undefined, 'another audience has no grant');

    const oidc = await grants.grant(tenantId, user!, client!, USERINFO, ['openid', 'profile'], at(2));
    assert.notEqual(oidc.id, row.id);
    assert.deepEqual(await grants.scopesFor(tenantId, user!, client!, USERINFO), ['openid', 'profile']);
    assert.equal(await rowCount(tenantId), 2);
  });

  it('merges new scopes into the grant without duplicates, keeping its id and creation time', async () => {
    const { tenantId, userIds: [user], clientIds: [client] } = await tenantWith();
    const first = await grants.grant(tenantId, user!, client!, USERINFO, ['openid', 'profile'], at(1));
    const merged = await grants.grant(tenantId, user!, client!, USERINFO, ['profile', 'email', 'email'], at(2));
    assert.equal(merged.id, first.id);
    assert.equal(merged.created_at, at(1));
    assert.equal(merged.updated_at, at(2));
    assert.deepEqual(merged.scope, ['openid', 'profile', 'email']);
    assert.deepEqual(await grants.scopesFor(tenantId, user!, client!, USERINFO), ['openid', 'profile', 'email']);

    const unchanged = await grants.grant(tenantId, user!, client!, USERINFO, ['email', 'openid'], at(3));
    assert.deepEqual(unchanged, merged, 'granting nothing new changes nothing');
    assert.equal(await rowCount(tenantId), 1);
  });

  it('ends concurrent grants for one key as one row holding their union', async () => {
    const { tenantId, userIds: [user], clientIds: [client] } = await tenantWith();
    const wanted = Array.from({ length: 12 }, (_, i) => [`scope:${i}`, 'openid']);
    const rows = await Promise.all(wanted.map((scopes, i) => grants.grant(tenantId, user!, client!, API, scopes, at(i))));
    assert.equal(new Set(rows.map((r) => r.id)).size, 1, 'every call returned the same grant');
    assert.equal(await rowCount(tenantId), 1);
    const scopes = await grants.scopesFor(tenantId, user!, client!, API);
    assert.deepEqual([...scopes!].sort(), ['openid', ...wanted.map((s) => s[0]!)].sort());
  });

  it('lists by user, client and audience, a page at a time in id order, with the total', async () => {
    const { tenantId, userIds, clientIds } = await tenantWith(2, 2);
    const other = await tenantWith();
    await grants.grant(other.tenantId, other.userIds[0]!, other.clientIds[0]!, API, ['read:a'], T0);
    for (const user of userIds) {
      for (const client of clientIds) {
        for (const audience of [API, USERINFO]) await grants.grant(tenantId, user, client, audience, ['openid'], T0);
      }
    }
    const all = await grants.list(tenantId, {}, { page: 0, perPage: 50 });
    assert.equal(all.total, 8);
    assert.equal(all.rows.length, 8);
    assert.deepEqual(all.rows.map((r) => r.id), all.rows.map((r) => r.id).sort(), 'id order');
    assert.ok(all.rows.every((r) => r.tenant_id === tenantId));

    const byUser = await grants.list(tenantId, { user_id: userIds[0]! }, { page: 0, perPage: 50 });
    assert.equal(byUser.total, 4);
    assert.ok(byUser.rows.every((r) => r.user_id === userIds[0]));
    const byClient = await grants.list(tenantId, { client_id: clientIds[1]! }, { page: 0, perPage: 50 });
    assert.equal(byClient.total, 4);
    assert.ok(byClient.rows.every((r) => r.client_id === clientIds[1]));
    const byAudience = await grants.list(tenantId, { audience: USERINFO }, { page: 0, perPage: 50 });
    assert.equal(byAudience.total, 4);
    assert.ok(byAudience.rows.every((r) => r.audience === USERINFO));
    const byAll = await grants.list(tenantId, { user_id: userIds[1]!, client_id: clientIds[0]!, audience: API }, { page: 0, perPage: 50 });
    assert.equal(byAll.total, 1);
    assert.deepEqual(
      byAll.rows.map((r) => [r.user_id, r.client_id, r.audience]),
      [[userIds[1], clientIds[0], API]],
    );
    assert.deepEqual(await grants.list(tenantId, { user_id: 'auth0|nobody' }, { page: 0, perPage: 50 }), { rows: [], total: 0 });

    const pages = [];
    for (let page = 0; page < 4; page++) pages.push(await grants.list(tenantId, {}, { page, perPage: 3 }));
    assert.deepEqual(pages.map((p) => p.rows.length), [3, 3, 2, 0]);
    assert.ok(pages.every((p) => p.total === 8));
    assert.deepEqual(pages.flatMap((p) => p.rows.map((r) => r.id)), all.rows.map((r) => r.id));
  });

  it('deletes one grant by id, scoped by tenant', async () => {
    const { tenantId, userIds: [user], clientIds: [client] } = await tenantWith();
    const other = await tenantWith();
    const row = await grants.grant(tenantId, user!, client!, API, ['read:a'], T0);
    const kept = await grants.grant(tenantId, user!, client!, USERINFO, ['openid'], T0);
    assert.equal(await grants.delete(other.tenantId, row.id), false, 'another tenant cannot delete it');
    assert.equal(await grants.delete(tenantId, row.id), true);
    assert.equal(await grants.delete(tenantId, row.id), false);
    assert.equal(await grants.scopesFor(tenantId, user!, client!, API), undefined);
    assert.deepEqual((await grants.list(tenantId, {}, { page: 0, perPage: 50 })).rows.map((r) => r.id), [kept.id]);
  });

  it('deletes every grant of a user, and only theirs', async () => {
    const { tenantId, userIds: [alice, bob], clientIds } = await tenantWith(2, 2);
    for (const client of clientIds) await grants.grant(tenantId, alice!, client, API, ['read:a'], T0);
    await grants.grant(tenantId, bob!, clientIds[0]!, API, ['read:a'], T0);
    assert.equal(await grants.deleteByUser(tenantId, alice!), 2);
    assert.equal(await grants.deleteByUser(tenantId, alice!), 0);
    const left = await grants.list(tenantId, {}, { page: 0, perPage: 50 });
    assert.deepEqual(left.rows.map((r) => r.user_id), [bob]);
  });

  it('refuses an unknown user or client; grants go with their user and with their client', async () => {
    const { tenantId, userIds: [alice, bob], clientIds: [first, second] } = await tenantWith(2, 2);
    await assert.rejects(grants.grant(tenantId, 'auth0|missing', first!, API, ['read:a'], T0));
    await assert.rejects(grants.grant(tenantId, alice!, 'missing-client', API, ['read:a'], T0));

    await grants.grant(tenantId, alice!, first!, API, ['read:a'], T0);
    await grants.grant(tenantId, bob!, first!, API, ['read:a'], T0);
    await grants.grant(tenantId, bob!, second!, API, ['read:a'], T0);
    await db.deleteFrom('users').where('tenant_id', '=', tenantId).where('user_id', '=', alice!).execute();
    assert.equal(await grants.scopesFor(tenantId, alice!, first!, API), undefined);
    assert.equal(await rowCount(tenantId), 2);

    assert.equal(await clients.delete(tenantId, first!), true);
    const left = await grants.list(tenantId, {}, { page: 0, perPage: 50 });
    assert.deepEqual(left.rows.map((r) => [r.user_id, r.client_id]), [[bob, second]]);
  });
});
