/**
 * Tenant logs through app.inject on the real app and database: the events
 * the Authentication API and the Management API record (batched off the
 * request path, so each check polls for at most a second or flushes through
 * the context), and GET /api/v2/logs, /logs/{id}, /users/{id}/logs with
 * their paging, search, sort and fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import type { LogView } from '../helpers/log-view.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'https://app.example.com/callback';

type Log = LogView;

describe('tenant logs', () => {
  let t: TestApp;
  let web: TestClient;
  let machine: TestClient;
  let aliceId: string;
  let bobId: string;

  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, ...(cookie && { cookie }) } });
  // One token for the reads: each new token is a client-credentials exchange, itself logged.
  let reader: string;
  const logs = async (query = '', token?: string): Promise<LightMyRequestResponse> => t.management('GET', `/api/v2/logs${query}`, { token: token ?? reader });
  const logsOf = async (query = ''): Promise<Log[]> => {
    const res = await logs(query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Log[];
  };

  /** Polls GET /logs (no explicit flush) for at most a second until an event satisfies `match`. */
  async function appears(match: (log: Log) => boolean, what: string): Promise<Log> {
    const deadline = Date.now() + 1000;
    for (;;) {
      const found = (await logsOf('?per_page=100')).find(match);
      if (found) return found;
      if (Date.now() > deadline) assert.fail(`${what} did not appear in GET /logs within a second`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  function hidden(body: string, name: string): string {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
    assert.ok(match, `no ${name} in the page`);
    return match[1]!;
  }

  /** /authorize → /login → POST /login with the credentials; returns the POST's answer. */
  async function loginWith(username: string, password: string): Promise<LightMyRequestResponse> {
    const query = new URLSearchParams({ client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 'xyz' });
    const res = await get(`/authorize?${query}`);
    assert.equal(res.statusCode, 302, res.body);
    const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
    const browser = cookies.find((c) => c.startsWith('__Host-gh_browser='))!.split(';')[0]!;
    const page = await get(res.headers.location as string, browser);
    assert.equal(page.statusCode, 200, page.body);
    return t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: browser, 'user-agent': 'log-test-agent/1.0' },
      payload: new URLSearchParams({ state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username, password }).toString(),
    });
  }

  before(async () => {
    t = await createTestApp();
    reader = await t.managementToken();
    web = await insertClient(t, { name: 'Web App', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    machine = await insertClient(t, { name: 'Machine' });
    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience: `https://${DOMAIN}/api/v2/`, scope: ['read:users'] } });
    assert.equal(grant.statusCode, 201, grant.body);
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [web.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    for (const email of ['alice@example.com', 'bob@example.com']) {
      const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
      if (email.startsWith('alice')) aliceId = (user.json() as { user_id: string }).user_id;
      else bobId = (user.json() as { user_id: string }).user_id;
    }
    const blocked = await t.management('PATCH', `/api/v2/users/${encodeURIComponent(bobId)}`, { body: { blocked: true } });
    assert.equal(blocked.statusCode, 200, blocked.body);
  });
  after(() => t.close());

  it('a failed login, a success, a client-credentials exchange and a Management API call each appear with their type within a second', async () => {
    assert.equal((await loginWith('alice@example.com', 'not the password')).statusCode, 400);
    const fp = await appears((l) => l.type === 'fp', 'the wrong password (fp)');
    assert.equal(fp.user_id, aliceId);
    assert.equal(fp.client_id, web.client_id);
    assert.equal(fp.client_name, 'Web App');
    assert.equal(fp.connection, REALM);
    assert.equal(fp.user_agent, 'log-test-agent/1.0');
    assert.equal(fp.hostname, DOMAIN);
    assert.equal(fp.description, 'Wrong email or password.');
    assert.match(fp.log_id, /^900\d{35}$/);
    assert.ok(!Number.isNaN(Date.parse(fp.date)));

    assert.equal((await loginWith('nobody@example.com', PASSWORD)).statusCode, 400);
    const fu = await appears((l) => l.type === 'fu', 'the unknown user (fu)');
    assert.equal(fu.user_id, undefined);
    assert.equal(fu.user_name, 'nobody@example.com');

    const success = await loginWith('alice@example.com', PASSWORD);
    assert.equal(success.statusCode, 302);
    const s = await appears((l) => l.type === 's', 'the successful login (s)');
    assert.equal(s.user_id, aliceId);
    assert.equal(s.user_name, 'alice@example.com');

    // The code it answered, exchanged (seacft, with the user), then replayed (feacft).
    const code = new URL(success.headers.location as string).searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code, redirect_uri: CALLBACK };
    assert.equal((await tokenRequest(t.app, exchange)).statusCode, 200);
    const seacft = await appears((l) => l.type === 'seacft', 'the code exchange (seacft)');
    assert.equal(seacft.user_id, aliceId);
    assert.equal(seacft.client_id, web.client_id);
    assert.equal((await tokenRequest(t.app, exchange)).statusCode, 403);
    const feacft = await appears((l) => l.type === 'feacft', 'the replayed code (feacft)');
    assert.equal(feacft.details?.error, 'invalid_grant');

    const cc = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience: `https://${DOMAIN}/api/v2/` });
    assert.equal(cc.statusCode, 200, cc.body);
    const seccft = await appears((l) => l.type === 'seccft' && l.client_id === machine.client_id, 'the client-credentials exchange (seccft)');
    assert.equal(seccft.client_name, 'Machine');
    assert.equal((seccft as { audience?: string }).audience, `https://${DOMAIN}/api/v2/`);
    assert.equal((seccft as { scope?: string }).scope, 'read:users');

    const bad = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: 'wrong-secret', audience: `https://${DOMAIN}/api/v2/` });
    assert.equal(bad.statusCode, 401, bad.body);
    const feccft = await appears((l) => l.type === 'feccft' && l.client_id === machine.client_id, 'the failed exchange (feccft)');
    assert.equal(feccft.details?.error, 'access_denied');

    const created = await t.management('POST', '/api/v2/roles', { body: { name: 'auditor' } });
    assert.equal(created.statusCode, 200, created.body);
    const sapi = await appears((l) => l.type === 'sapi' && l.description === 'POST /api/v2/roles', 'the Management API call (sapi)');
    assert.equal(sapi.client_id, t.admin.client_id);
    assert.deepEqual(sapi.details?.response, { statusCode: 200 });
    const refused = await t.management('POST', '/api/v2/roles', { body: { name: '' } });
    assert.equal(refused.statusCode, 400);
    await appears((l) => l.type === 'fapi' && l.description === 'POST /api/v2/roles', 'the refused Management API call (fapi)');
  });

  it('q=type:f filters: a blocked user is a failed login, and only failed logins come back', async () => {
    assert.equal((await loginWith('bob@example.com', PASSWORD)).statusCode, 400);
    await t.ctx.tenantLogs.flush();
    const failed = await logsOf('?q=type:f');
    assert.ok(failed.length >= 1);
    assert.ok(failed.every((l) => l.type === 'f'), JSON.stringify(failed.map((l) => l.type)));
    assert.equal(failed[0]!.user_id, bobId);
    assert.equal(failed[0]!.description, 'user is blocked');
    // The older name of the parameter.
    assert.deepEqual((await logsOf('?search=type:f')).map((l) => l.log_id), failed.map((l) => l.log_id));
  });

  it('brute-force protection: the attempt after ten failures is limit_wc', async () => {
    for (let i = 0; i < 11; i += 1) assert.equal((await loginWith('mallory@example.com', `guess ${i}`)).statusCode, 400);
    await t.ctx.tenantLogs.flush();
    const blocked = await logsOf('?q=type:limit_wc');
    assert.equal(blocked.length, 1);
    assert.equal(blocked[0]!.user_name, 'mallory@example.com');
    assert.equal(blocked[0]!.client_id, web.client_id);
  });

  it('q: quoted values, OR, AND, NOT, prefixes and date ranges', async () => {
    await t.ctx.tenantLogs.flush();
    const all = await logsOf('?per_page=100');
    const types = (list: Log[]) => [...new Set(list.map((l) => l.type))].sort();
    assert.deepEqual(types(await logsOf(`?q=${encodeURIComponent('type:fp OR type:fu')}`)), ['fp', 'fu']);
    const alice = await logsOf(`?q=${encodeURIComponent(`user_id:"${aliceId}" AND type:s`)}`);
    assert.ok(alice.length === 1 && alice[0]!.type === 's');
    assert.deepEqual(types(await logsOf(`?q=${encodeURIComponent(`client_id:"${machine.client_id}"`)}`)), ['feccft', 'seccft']);
    assert.deepEqual(types(await logsOf(`?q=${encodeURIComponent(`type:f* AND NOT type:fapi AND client_id:"${web.client_id}"`)}`)), ['f', 'feacft', 'fp', 'fu']);
    const first = all.at(-1)!;
    const last = all[0]!;
    const inRange = await logsOf(`?per_page=100&q=${encodeURIComponent(`date:[${first.date} TO ${last.date}]`)}`);
    assert.equal(inRange.length, all.length);
    assert.deepEqual(await logsOf(`?q=${encodeURIComponent(`date:[* TO ${first.date}}`)}`), []);
    const today = last.date.slice(0, 10);
    assert.equal((await logsOf(`?per_page=100&q=date:${today}`)).length, all.length);
  });

  it('refuses a malformed q, an unknown field, a bad sort or from with 400 in the Management shape', async () => {
    for (const [query, property] of [
      ['?q=' + encodeURIComponent('type:(f'), 'q'],
      ['?q=' + encodeURIComponent('password:x'), 'q'],
      ['?q=' + encodeURIComponent('date:[yesterday TO *]'), 'q'],
      ['?q=' + encodeURIComponent('type:"f'), 'q'],
      ['?q=' + encodeURIComponent(Array.from({ length: 21 }, () => 'type:f').join(' OR ')), 'q'],
      ['?sort=name:1', 'sort'],
      ['?from=12345&take=10', 'from'],
    ] as const) {
      const res = await logs(query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      const body = res.json() as { statusCode: number; error: string; message: string; errorCode: string };
      assert.equal(body.error, 'Bad Request');
      assert.equal(body.errorCode, 'invalid_query_string');
      assert.match(body.message, new RegExp(`on property ${property}`));
    }
    assert.equal((await logs(`?q=${'x'.repeat(1025)}`)).statusCode, 400);
    assert.equal((await logs('?per_page=101')).statusCode, 400);
  });

  it('sort, offset paging with include_totals, fields and include_fields', async () => {
    await t.ctx.tenantLogs.flush();
    const newest = await logsOf('?per_page=100');
    const oldest = await logsOf('?per_page=100&sort=date:1');
    assert.deepEqual(oldest.map((l) => l.log_id), newest.map((l) => l.log_id).reverse());
    assert.ok(newest.every((l, i) => i === 0 || l.date <= newest[i - 1]!.date));

    const res = await logs('?per_page=2&page=1&include_totals=true');
    assert.equal(res.statusCode, 200);
    const page = res.json() as { start: number; limit: number; length: number; total: number; logs: Log[] };
    assert.deepEqual(Object.keys(page), ['start', 'limit', 'length', 'total', 'logs']);
    assert.equal(page.start, 2);
    assert.equal(page.limit, 2);
    assert.equal(page.length, 2);
    assert.equal(page.total, newest.length);
    assert.deepEqual(page.logs.map((l) => l.log_id), newest.slice(2, 4).map((l) => l.log_id));

    const only = await logsOf('?fields=log_id,type&include_fields=true');
    assert.ok(only.every((l) => Object.keys(l).sort().join() === 'log_id,type'));
    const without = await logsOf('?fields=details,user_agent&include_fields=false');
    assert.ok(without.every((l) => !('details' in l) && !('user_agent' in l) && 'log_id' in l));
  });

  it('checkpoint paging: from a log_id, the events after it oldest first; take alone, the newest', async () => {
    await t.ctx.tenantLogs.flush();
    const oldest = await logsOf('?per_page=100&sort=date:1');
    const firstPage = await logsOf(`?from=${oldest[0]!.log_id}&take=3`);
    assert.deepEqual(firstPage.map((l) => l.log_id), oldest.slice(1, 4).map((l) => l.log_id));
    const secondPage = await logsOf(`?from=${firstPage.at(-1)!.log_id}&take=3`);
    assert.deepEqual(secondPage.map((l) => l.log_id), oldest.slice(4, 7).map((l) => l.log_id));
    assert.deepEqual(await logsOf(`?from=${oldest.at(-1)!.log_id}&take=5`), []);
    assert.deepEqual((await logsOf('?take=2')).map((l) => l.log_id), oldest.slice(-2).reverse().map((l) => l.log_id));
    const failures = await logsOf(`?from=${oldest[0]!.log_id}&take=100&q=type:fp`);
    assert.ok(failures.length >= 1 && failures.every((l) => l.type === 'fp'));
  });

  it('GET /logs/{id}: the event, 404 for an unknown or malformed id', async () => {
    await t.ctx.tenantLogs.flush();
    const [latest] = await logsOf('?per_page=1');
    const one = await t.management('GET', `/api/v2/logs/${latest!.log_id}`);
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual(one.json(), latest);
    for (const id of ['900' + '0'.repeat(35), 'not-a-log-id']) {
      const missing = await t.management('GET', `/api/v2/logs/${id}`);
      assert.equal(missing.statusCode, 404, missing.body);
      assert.equal((missing.json() as { errorCode: string }).errorCode, 'inexistent_log');
    }
  });

  it("GET /users/{id}/logs: the user's events only, newest first, with totals when asked", async () => {
    await t.ctx.tenantLogs.flush();
    const res = await t.management('GET', `/api/v2/users/${encodeURIComponent(aliceId)}/logs?include_totals=true&per_page=50`);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as { total: number; logs: Log[] };
    assert.ok(page.logs.length >= 2);
    assert.equal(page.total, page.logs.length);
    assert.ok(page.logs.every((l) => l.user_id === aliceId));
    assert.ok(page.logs.some((l) => l.type === 's') && page.logs.some((l) => l.type === 'fp'));
    const ascending = await t.management('GET', `/api/v2/users/${encodeURIComponent(aliceId)}/logs?sort=date:1`);
    assert.deepEqual((ascending.json() as Log[]).map((l) => l.log_id), page.logs.map((l) => l.log_id).reverse());
    const nobody = await t.management('GET', '/api/v2/users/auth0%7Cnobody/logs');
    assert.deepEqual(nobody.json(), []);
  });

  it('needs read:logs or read:logs_users', async () => {
    const none = await t.managementToken('read:users');
    const refused = await logs('', none);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.match((refused.json() as { message: string }).message, /read:logs/);
    assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(aliceId)}/logs`, { token: none })).statusCode, 403);
    assert.equal((await logs('', await t.managementToken('read:logs'))).statusCode, 200);
    assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(aliceId)}/logs`, { token: await t.managementToken('read:logs_users') })).statusCode, 200);
  });

  it('signup, password change request and logout are recorded; no password, secret or token is ever in a log', async () => {
    const post = (url: string, body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const signup = await post('/dbconnections/signup', { client_id: web.client_id, connection: REALM, email: 'carol@example.com', password: 'Str0ng-and-l0ng-enough!' });
    assert.equal(signup.statusCode, 200, signup.body);
    const taken = await post('/dbconnections/signup', { client_id: web.client_id, connection: REALM, email: 'carol@example.com', password: 'Str0ng-and-l0ng-enough!' });
    assert.equal(taken.statusCode, 400, taken.body);
    const change = await post('/dbconnections/change_password', { client_id: web.client_id, connection: REALM, email: 'alice@example.com' });
    assert.equal(change.statusCode, 200, change.body);
    const logout = await get(`/v2/logout?client_id=${web.client_id}`);
    assert.equal(logout.statusCode, 200, logout.body);
    await t.ctx.tenantLogs.flush();

    const ss = (await logsOf('?q=type:ss'))[0];
    assert.equal(ss?.user_name, 'carol@example.com');
    assert.match(ss?.user_id ?? '', /^auth0\|/);
    assert.equal((await logsOf('?q=type:fs'))[0]?.user_name, 'carol@example.com');
    assert.equal((await logsOf('?q=type:scpr'))[0]?.user_id, aliceId);
    assert.equal((await logsOf('?q=type:slo'))[0]?.client_id, web.client_id);

    const everything = JSON.stringify(await t.ctx.database.db.selectFrom('tenant_logs').selectAll().execute());
    for (const secret of [PASSWORD, 'not the password', 'Str0ng-and-l0ng-enough!', machine.client_secret, t.admin.client_secret, 'wrong-secret']) {
      assert.ok(!everything.includes(secret), `a log holds ${secret}`);
    }
    assert.ok(!/eyJ[A-Za-z0-9_-]+\.eyJ/.test(everything), 'a log holds a JWT');
  });
});

describe('tenant logs off (GATEHOUSE_TENANT_LOGS=off)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_TENANT_LOGS: 'off' } });
  });
  after(() => t.close());

  it('records nothing, and GET /logs answers an empty list', async () => {
    const token = await t.managementToken();
    assert.equal((await t.management('POST', '/api/v2/roles', { token, body: { name: 'r' } })).statusCode, 200);
    await t.ctx.tenantLogs.flush();
    const res = await t.management('GET', '/api/v2/logs', { token });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), []);
    assert.equal((await t.ctx.database.db.selectFrom('tenant_logs').selectAll().execute()).length, 0);
  });
});
