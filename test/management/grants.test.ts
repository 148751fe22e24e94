/**
 * GET and DELETE /api/v2/grants on grants written through the store (as the
 * consent step writes them): the document's item and page shapes, filters,
 * scopes, idempotent deletes, the cascades from user and client deletion, and
 * the official SDK's `userGrants` calls against the same app.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { KyselyConsentGrantStore } from '../../src/storage/kysely/consent-grants.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const API = 'https://api.example.test/';
const USERINFO = `https://${DOMAIN}/userinfo`;

interface Grant {
  id: string;
  clientID: string;
  user_id: string;
  audience: string;
  scope: string[];
}

describe('/api/v2/grants', () => {
  let t: TestApp;
  let store: KyselyConsentGrantStore;
  let users: string[];
  let clients: string[];

  const createUser = async (email: string): Promise<string> => {
    const res = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: 'correct horse battery staple' } });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { user_id: string }).user_id;
  };

  const list = async (query = ''): Promise<Grant[]> => {
    const res = await t.management('GET', `/api/v2/grants${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Grant[];
  };

  before(async () => {
    t = await createTestApp();
    store = new KyselyConsentGrantStore(t.ctx.database.db);
    clients = [(await insertClient(t)).client_id, (await insertClient(t)).client_id];
    const connection = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0' } });
    assert.equal(connection.statusCode, 201, connection.body);
    users = [await createUser('alice@example.com'), await createUser('bob@example.com')];
  });
  after(() => t.close());

  /** Each user has three grants: the API and OIDC-only (userinfo) for the first client, the API for the second. */
  beforeEach(async () => {
    await t.ctx.database.db.deleteFrom('user_grants').execute();
    for (const user of users) {
      await store.grant(t.tenant.id, user, clients[0]!, API, ['read:a', 'read:b'], new Date().toISOString());
      await store.grant(t.tenant.id, user, clients[0]!, USERINFO, ['openid', 'profile'], new Date().toISOString());
      await store.grant(t.tenant.id, user, clients[1]!, API, ['read:a'], new Date().toISOString());
    }
  });

  it('lists grants as the document shapes them, an array by default', async () => {
    const grants = await list(`?user_id=${encodeURIComponent(users[0]!)}&client_id=${clients[0]}&audience=${encodeURIComponent(USERINFO)}`);
    assert.equal(grants.length, 1);
    const [grant] = grants;
    assert.deepEqual(Object.keys(grant!), ['id', 'clientID', 'user_id', 'audience', 'scope']);
    assert.match(grant!.id, /^cgr_[A-Za-z0-9]{16}$/);
    assert.deepEqual({ ...grant, id: undefined }, { id: undefined, clientID: clients[0], user_id: users[0], audience: USERINFO, scope: ['openid', 'profile'] });
  });

  it('filters by user_id, client_id and audience', async () => {
    assert.equal((await list()).length, 6);
    const byUser = await list(`?user_id=${encodeURIComponent(users[1]!)}`);
    assert.equal(byUser.length, 3);
    assert.ok(byUser.every((g) => g.user_id === users[1]));
    const byClient = await list(`?client_id=${clients[1]}`);
    assert.deepEqual(byClient.map((g) => g.user_id).sort(), [...users].sort());
    assert.ok(byClient.every((g) => g.clientID === clients[1]));
    const byAudience = await list(`?audience=${encodeURIComponent(API)}`);
    assert.equal(byAudience.length, 4);
    assert.ok(byAudience.every((g) => g.audience === API));
    assert.deepEqual(await list('?user_id=auth0%7Cnobody'), []);
  });

  it('pages with per_page and page; include_totals wraps the page in {start, limit, total, grants}', async () => {
    const all = await list();
    const res = await t.management('GET', '/api/v2/grants?per_page=4&page=1&include_totals=true');
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as { start: number; limit: number; total: number; grants: Grant[] };
    assert.deepEqual(Object.keys(page), ['start', 'limit', 'total', 'grants']);
    assert.deepEqual({ ...page, grants: page.grants.map((g) => g.id) }, { start: 4, limit: 4, total: 6, grants: all.slice(4).map((g) => g.id) });
    assert.deepEqual((await list('?per_page=4&page=0&include_totals=false')).map((g) => g.id), all.slice(0, 4).map((g) => g.id));
    assert.deepEqual(await list('?per_page=4&page=2'), []);

    const filtered = (await t.management('GET', `/api/v2/grants?include_totals=true&client_id=${clients[1]}`)).json() as { total: number; limit: number };
    assert.equal(filtered.total, 2);
    assert.equal(filtered.limit, 50, 'per_page defaults to 50');

    const tooMany = await t.management('GET', '/api/v2/grants?per_page=101');
    assert.equal(tooMany.statusCode, 400);
    assert.equal((tooMany.json() as { errorCode: string }).errorCode, 'invalid_query_string');
  });

  it('deletes one grant by id with 204, and answers 204 again once it is gone', async () => {
    const [target, ...rest] = await list(`?user_id=${encodeURIComponent(users[0]!)}`);
    const deleted = await t.management('DELETE', `/api/v2/grants/${target!.id}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal(deleted.body, '');
    assert.deepEqual((await list(`?user_id=${encodeURIComponent(users[0]!)}`)).map((g) => g.id), rest.map((g) => g.id));
    assert.equal((await list()).length, 5);
    assert.equal((await t.management('DELETE', `/api/v2/grants/${target!.id}`)).statusCode, 204);
    assert.equal((await t.management('DELETE', '/api/v2/grants/cgr_unknown0000000000')).statusCode, 204);
    assert.equal((await list()).length, 5);
  });

  it('deletes every grant of a user with DELETE ?user_id=, which is required', async () => {
    const deleted = await t.management('DELETE', `/api/v2/grants?user_id=${encodeURIComponent(users[0]!)}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    const left = await list();
    assert.equal(left.length, 3);
    assert.ok(left.every((g) => g.user_id === users[1]));

    const missing = await t.management('DELETE', '/api/v2/grants');
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Query validation error: 'Missing required property: user_id'.",
      errorCode: 'invalid_query_string',
    });
    assert.equal((await list()).length, 3, 'nothing was deleted');
  });

  it('drops the grants of a deleted user and of a deleted client', async () => {
    const carol = await createUser('carol@example.com');
    await store.grant(t.tenant.id, carol, clients[0]!, API, ['read:a'], new Date().toISOString());
    assert.equal((await list(`?user_id=${encodeURIComponent(carol)}`)).length, 1);
    assert.equal((await t.management('DELETE', `/api/v2/users/${encodeURIComponent(carol)}`)).statusCode, 204);
    assert.deepEqual(await list(`?user_id=${encodeURIComponent(carol)}`), []);

    const client = await insertClient(t);
    await store.grant(t.tenant.id, users[1]!, client.client_id, API, ['read:a'], new Date().toISOString());
    assert.equal((await list(`?client_id=${client.client_id}`)).length, 1);
    assert.equal((await t.management('DELETE', `/api/v2/clients/${client.client_id}`)).statusCode, 204);
    assert.deepEqual(await list(`?client_id=${client.client_id}`), []);
    assert.equal((await list()).length, 6, 'the other grants stay');
  });

  it('needs a token: read:grants to list, delete:grants to delete', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v2/grants', headers: { host: DOMAIN } });
    assert.equal(anonymous.statusCode, 401);
    const forged = await t.management('DELETE', `/api/v2/grants?user_id=${encodeURIComponent(users[0]!)}`, { token: 'a.b.c' });
    assert.equal(forged.statusCode, 401);

    const reader = await t.managementToken('read:grants');
    const deleter = await t.managementToken('delete:grants');
    assert.equal((await t.management('GET', '/api/v2/grants', { token: reader })).statusCode, 200);
    const cannotList = await t.management('GET', '/api/v2/grants', { token: deleter });
    assert.equal(cannotList.statusCode, 403);
    assert.deepEqual(cannotList.json(), {
      statusCode: 403,
      error: 'Forbidden',
      message: 'Insufficient scope, expected any of: read:grants',
      errorCode: 'insufficient_scope',
    });
    const [grant] = await list();
    for (const url of [`/api/v2/grants/${grant!.id}`, `/api/v2/grants?user_id=${encodeURIComponent(users[0]!)}`]) {
      const denied = await t.management('DELETE', url, { token: reader });
      assert.equal(denied.statusCode, 403, url);
      assert.equal((denied.json() as { message: string }).message, 'Insufficient scope, expected any of: delete:grants');
    }
    assert.equal((await list()).length, 6, 'nothing was deleted');
    assert.equal((await t.management('DELETE', `/api/v2/grants/${grant!.id}`, { token: deleter })).statusCode, 204);
  });

  it("serves the official SDK's userGrants.list, delete and deleteByUserId", async () => {
    const token = await t.managementToken();
    /** The SDK's requests, answered by the app in-process. */
    const inProcess: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const res = await t.app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), host: DOMAIN },
      });
      return new Response(res.statusCode === 204 ? null : res.rawPayload, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') } });
    };
    const management = new ManagementClient({ domain: DOMAIN, token, maxRetries: 0, fetch: inProcess });

    const page = await management.userGrants.list({ user_id: users[0]!, per_page: 2 });
    assert.equal(page.data.length, 2);
    assert.ok(page.hasNextPage());
    const next = await page.getNextPage();
    assert.equal(next.data.length, 1);
    const ids = [...page.data, ...next.data].map((g) => g.id);
    assert.ok([...page.data, ...next.data].every((g) => g.user_id === users[0]));

    await management.userGrants.delete(ids[0]!);
    assert.equal((await list(`?user_id=${encodeURIComponent(users[0]!)}`)).length, 2);
    await management.userGrants.deleteByUserId({ user_id: users[0]! });
    assert.deepEqual(await list(`?user_id=${encodeURIComponent(users[0]!)}`), []);
    assert.equal((await list()).length, 3);
  });
});
