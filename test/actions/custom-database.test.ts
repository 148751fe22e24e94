/**
 * Custom database connections through app.inject on the real app, real
 * sandbox processes and the real database, the legacy user store a small
 * HTTP stand-in on 127.0.0.2 that the scripts call with `fetch` (the only
 * range the operator allows besides the public internet, so the database
 * port on 127.0.0.1 stays out of the scripts' reach):
 *
 * - import_mode: the first login goes through the `login` script and moves
 *   the user (password hashed); later logins never call it; a wrong
 *   password of a moved user is refused locally;
 * - without import_mode the script is called on every login;
 * - the script's errors as the service answers them (WrongUsernameOrPasswordError,
 *   UnauthorizedError, anything else, a timeout), at the password grant and on the login page;
 * - containment: the script finds no environment, cannot read the data
 *   directory, cannot reach the database port; a profile without user_id fails;
 * - the Management API: `configuration` sealed at rest and never answered,
 *   kept through an export/import round trip; scripts required and bounded.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { hidden, Jar } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const API_KEY = 'legacy-api-key-4f1c9a';
const CALLBACK = 'https://app.example.com/callback';
const LEGACY_USERS = new Map([
  ['ada@legacy.example', { password: 'Analytical-Engine-1843', id: 'L-1001', name: 'Ada Lovelace' }],
  ['grace@legacy.example', { password: 'Compiler-A0-1952', id: 'L-1002', name: 'Grace Hopper' }],
  ['alan@legacy.example', { password: 'Bombe-1939-Enigma', id: 'L-1003', name: 'Alan Turing' }],
  ['edsger@legacy.example', { password: 'Goto-Considered-1968', id: 'L-1004', name: 'Edsger Dijkstra' }],
  ['barbara@legacy.example', { password: 'Liskov-Substitution-87', id: 'L-1005', name: 'Barbara Liskov' }],
  ['hedy@legacy.example', { password: 'Frequency-Hopping-1942', id: 'L-1006', name: 'Hedy Lamarr' }],
  ['katherine@legacy.example', { password: 'Orbital-Mechanics-1962', id: 'L-1007', name: 'Katherine Johnson' }],
]);

/** The addresses the legacy store holds as verified (its `verify` endpoint). */
const LEGACY_VERIFIED = new Set<string>();

/** The login script a tenant writes against its legacy store's API. */
const LOGIN = `function login(email, password, callback) {
  fetch(configuration.LEGACY_URL + '/authenticate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + configuration.API_KEY },
    body: JSON.stringify({ email, password }),
  }).then(async (res) => {
    if (res.status === 401) return callback(new WrongUsernameOrPasswordError(email));
    if (res.status !== 200) return callback(new Error('the legacy store answered ' + res.status));
    const user = await res.json();
    callback(null, { user_id: user.id, email: user.email, name: user.name, email_verified: true, app_metadata: { legacy: true } });
  }, (err) => callback(err));
}`;

const GET_USER = `function getByEmail(email, callback) {
  fetch(configuration.LEGACY_URL + '/users/' + encodeURIComponent(email), { headers: { authorization: 'Bearer ' + configuration.API_KEY } })
    .then(async (res) => {
      if (res.status !== 200) return callback(null);
      const user = await res.json();
      callback(null, { user_id: user.id, email: user.email, name: user.name });
    }, callback);
}`;

let t: TestApp;
let web: TestClient;
let legacy: http.Server;
let legacyUrl: string;
let legacyCalls = 0;

function startLegacyStore(): Promise<void> {
  legacy = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${API_KEY}`) {
        res.writeHead(403).end();
        return;
      }
      if (req.method === 'POST' && req.url === '/authenticate') {
        legacyCalls += 1;
        const { email, password } = JSON.parse(body) as { email: string; password: string };
        const user = LEGACY_USERS.get(email);
        if (!user || user.password !== password) {
          res.writeHead(401).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: user.id, email, name: user.name }));
        return;
      }
      if (req.method === 'POST' && req.url === '/users') {
        const { email, password, name } = JSON.parse(body) as { email: string; password: string; name?: string };
        if (LEGACY_USERS.has(email)) return void res.writeHead(409).end();
        LEGACY_USERS.set(email, { password, id: `L-${2000 + LEGACY_USERS.size}`, name: name ?? email });
        return void res.writeHead(201).end();
      }
      if (req.method === 'POST' && req.url === '/verify') {
        const { email } = JSON.parse(body) as { email: string };
        if (!LEGACY_USERS.has(email)) return void res.writeHead(404).end();
        LEGACY_VERIFIED.add(email);
        return void res.writeHead(204).end();
      }
      if (req.method === 'POST' && req.url === '/password') {
        const { email, password } = JSON.parse(body) as { email: string; password: string };
        const user = LEGACY_USERS.get(email);
        if (!user) return void res.writeHead(404).end();
        user.password = password;
        return void res.writeHead(204).end();
      }
      const deleted = /^\/users\/id\/([^/]+)$/.exec(req.url ?? '');
      if (req.method === 'DELETE' && deleted) {
        const entry = [...LEGACY_USERS].find(([, user]) => user.id === decodeURIComponent(deleted[1]!));
        if (!entry) return void res.writeHead(404).end();
        LEGACY_USERS.delete(entry[0]);
        return void res.writeHead(204).end();
      }
      const byEmail = /^\/users\/([^/]+)$/.exec(req.url ?? '');
      const found = byEmail && LEGACY_USERS.get(decodeURIComponent(byEmail[1]!));
      if (req.method === 'GET' && found) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: found.id, email: decodeURIComponent(byEmail[1]!), name: found.name }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  return new Promise((resolve) => legacy.listen(0, '127.0.0.2', () => {
    legacyUrl = `http://127.0.0.2:${(legacy.address() as AddressInfo).port}`;
    resolve();
  }));
}

async function createConnection(name: string, options: Record<string, unknown>): Promise<{ id: string; options: Record<string, unknown> }> {
  const res = await t.management('POST', '/api/v2/connections', { body: { name, strategy: 'auth0', enabled_clients: [web.client_id], options } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; options: Record<string, unknown> };
}

const customDb = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  enabledDatabaseCustomization: true,
  customScripts: scripts,
  configuration: { LEGACY_URL: legacyUrl, API_KEY },
  ...extra,
});

function passwordRealm(realm: string, username: string, password: string): Promise<LightMyRequestResponse> {
  return tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: web.client_id, client_secret: web.client_secret, realm, username, password, scope: 'openid profile email' });
}

/** /authorize for `connection`, its login page, the password posted: the answer to the post. */
async function pageLogin(connection: string, username: string, password: string): Promise<LightMyRequestResponse> {
  const jar = new Jar();
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, cookie: jar.header() } });
    jar.take(res);
    return res;
  };
  const start = await get(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'st', connection })}`);
  assert.equal(start.statusCode, 302, start.body);
  const page = await get(start.headers.location as string);
  assert.equal(page.statusCode, 200, page.body);
  return t.app.inject({
    method: 'POST',
    url: '/login',
    headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    payload: new URLSearchParams({ state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username, password }).toString(),
  });
}

before(async () => {
  await startLegacyStore();
  t = await createTestApp({ env: { GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.2/32', GATEHOUSE_ACTIONS_TIMEOUT: '2' } });
  web = await insertClient(t, { grant_types: ['authorization_code', 'password', 'http://auth0.com/oauth/grant-type/password-realm'], config: { callbacks: [CALLBACK] } });
});

after(async () => {
  await t.close();
  await new Promise((resolve) => legacy.close(resolve));
});

describe('custom database with import_mode (lazy migration)', () => {
  let connectionId: string;
  before(async () => {
    connectionId = (await createConnection('legacy-import', customDb({ login: LOGIN, get_user: GET_USER }, { import_mode: true }))).id;
  });

  test('the first login moves the user through the script; later logins never call it', async () => {
    const before = legacyCalls;
    const first = await passwordRealm('legacy-import', 'ada@legacy.example', 'Analytical-Engine-1843');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(decodeJwt((first.json() as { id_token: string }).id_token).sub, 'auth0|L-1001');
    assert.equal(legacyCalls, before + 1);

    const user = await t.management('GET', `/api/v2/users/${encodeURIComponent('auth0|L-1001')}`);
    assert.equal(user.statusCode, 200, user.body);
    const body = user.json() as Record<string, unknown>;
    assert.equal(body.email, 'ada@legacy.example');
    assert.equal(body.name, 'Ada Lovelace');
    assert.deepEqual(body.app_metadata, { legacy: true });
    const row = await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1001');
    assert.match(row!.password_hash ?? '', /^\$argon2id\$/, 'the password just verified, hashed');
    assert.equal(row!.connection_id, connectionId);

    const second = await passwordRealm('legacy-import', 'ada@legacy.example', 'Analytical-Engine-1843');
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(legacyCalls, before + 1, 'the legacy store is not asked again');

    const wrong = await passwordRealm('legacy-import', 'ada@legacy.example', 'not-her-password');
    assert.equal(wrong.statusCode, 403, wrong.body);
    assert.deepEqual(wrong.json(), { error: 'invalid_grant', error_description: 'Wrong email or password.' });
    assert.equal(legacyCalls, before + 1, 'a moved user is refused locally');
  });

  test('a wrong password at the legacy store (WrongUsernameOrPasswordError) is invalid_grant, and nobody is moved', async () => {
    const res = await passwordRealm('legacy-import', 'grace@legacy.example', 'wrong');
    assert.equal(res.statusCode, 403, res.body);
    assert.deepEqual(res.json(), { error: 'invalid_grant', error_description: 'Wrong email or password.' });
    assert.equal(await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1002'), undefined);
  });

  test('the hosted login page moves a user the same way', async () => {
    const posted = await pageLogin('legacy-import', 'grace@legacy.example', 'Compiler-A0-1952');
    assert.equal(posted.statusCode, 302, posted.body);
    assert.ok((posted.headers.location as string).startsWith(`${CALLBACK}?code=`), posted.headers.location as string);
    assert.match((await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1002'))!.password_hash ?? '', /^\$argon2id\$/);
  });
});

describe('get_user under import_mode', () => {
  const post = (url: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify({ client_id: web.client_id, connection: 'legacy-import', ...body }) });

  test('a signup of an address the legacy store holds is refused as taken; a new one is created here', async () => {
    const taken = await post('/dbconnections/signup', { email: 'edsger@legacy.example', password: 'Another-Strong-Password-1' });
    assert.equal(taken.statusCode, 400, taken.body);
    assert.equal((taken.json() as { code: string }).code, 'user_exists');
    const fresh = await post('/dbconnections/signup', { email: 'newcomer@legacy.example', password: 'Another-Strong-Password-1' });
    assert.equal(fresh.statusCode, 200, fresh.body);
    const before = legacyCalls;
    const login = await passwordRealm('legacy-import', 'newcomer@legacy.example', 'Another-Strong-Password-1');
    assert.equal(login.statusCode, 200, login.body);
    assert.equal(legacyCalls, before, 'a user signed up here logs in here');
  });

  test('a password reset of a legacy user moves them first, without a password, and mails the link', async () => {
    const res = await post('/dbconnections/change_password', { email: 'barbara@legacy.example' });
    assert.equal(res.statusCode, 200, res.body);
    const moved = await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1005');
    assert.ok(moved, 'moved at the reset request');
    assert.equal(moved.password_hash, null);
    assert.equal(moved.name, 'Barbara Liskov');
    assert.equal(readOutbox(t.ctx).filter((m) => m.to === 'barbara@legacy.example' && m.subject === 'Reset your password').length, 1);
    // Until the reset is done, the legacy password still logs in, and moves the password with it.
    const login = await passwordRealm('legacy-import', 'barbara@legacy.example', 'Liskov-Substitution-87');
    assert.equal(login.statusCode, 200, login.body);
    assert.match((await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1005'))!.password_hash ?? '', /^\$argon2id\$/);
  });
});

describe('custom database without import_mode', () => {
  before(async () => {
    await createConnection('legacy-live', customDb({ login: LOGIN }));
  });

  test('the script is called on every login; the user is kept without a password', async () => {
    const before = legacyCalls;
    for (let i = 1; i <= 2; i += 1) {
      const res = await passwordRealm('legacy-live', 'alan@legacy.example', 'Bombe-1939-Enigma');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(legacyCalls, before + i);
    }
    const row = await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1003');
    assert.equal(row!.password_hash, null);
  });
});

describe('signup on a custom database without import_mode (create)', () => {
  const CREATE = `function create(user, callback) {
    fetch(configuration.LEGACY_URL + '/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + configuration.API_KEY },
      body: JSON.stringify({ email: user.email, password: user.password, name: user.user_metadata && user.user_metadata.name }),
    }).then((res) => {
      if (res.status === 409) return callback(new ValidationError('user_exists', 'That address already has an account.'));
      callback(res.status === 201 ? null : new Error('legacy store: ' + res.status));
    }, callback);
  }`;
  const signup = (connection: string, email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/dbconnections/signup',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_id: web.client_id, connection, email, password: 'Signed-Up-Legacy-Pass-9', user_metadata: { name: 'New Legacy' } }),
    });

  test('the user is made in the legacy store and logs in through the script; no password is kept here', async () => {
    await createConnection('legacy-create', customDb({ login: LOGIN, create: CREATE }));
    const res = await signup('legacy-create', 'newlegacy@legacy.example');
    assert.equal(res.statusCode, 200, res.body);
    const id = (res.json() as { _id: string })._id;
    assert.equal(id, LEGACY_USERS.get('newlegacy@legacy.example')!.id, "the legacy store's id");
    assert.equal((await t.ctx.stores.users.getIdentity(t.tenant.id, `auth0|${id}`))!.password_hash, null);
    const before = legacyCalls;
    const login = await passwordRealm('legacy-create', 'newlegacy@legacy.example', 'Signed-Up-Legacy-Pass-9');
    assert.equal(login.statusCode, 200, login.body);
    assert.equal(legacyCalls, before + 1);
  });

  test("a taken address (the script's ValidationError user_exists) and a connection without create are refused", async () => {
    const taken = await signup('legacy-create', 'ada@legacy.example');
    assert.equal(taken.statusCode, 400, taken.body);
    assert.equal((taken.json() as { code: string }).code, 'user_exists');
    const none = await signup('legacy-live', 'other@legacy.example');
    assert.equal(none.statusCode, 400, none.body);
    assert.equal((none.json() as { code: string }).code, 'operation_not_allowed');
    assert.equal(LEGACY_USERS.has('other@legacy.example'), false);
  });
});

describe('password reset on a custom database without import_mode (change_password)', () => {
  const CHANGE_PASSWORD = `function changePassword(email, newPassword, callback) {
    fetch(configuration.LEGACY_URL + '/password', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + configuration.API_KEY },
      body: JSON.stringify({ email: email, password: newPassword }),
    }).then((res) => callback(null, res.status === 204), callback);
  }`;

  /** The reset link mailed for `email` at `connection`, its form, the new password posted: the answer. */
  async function reset(connection: string, email: string, password: string): Promise<LightMyRequestResponse> {
    const sent = await t.app.inject({ method: 'POST', url: '/dbconnections/change_password', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify({ client_id: web.client_id, connection, email }) });
    assert.equal(sent.statusCode, 200, sent.body);
    const mail = readOutbox(t.ctx).filter((m) => m.to === email && m.subject === 'Reset your password').at(-1)!;
    const link = /https:\/\/[^/\s]+(\/reset-password\?ticket=[A-Za-z0-9_%-]+)/.exec(mail.text)![1]!;
    const form = await t.app.inject({ method: 'GET', url: link, headers: { host: DOMAIN } });
    assert.equal(form.statusCode, 200, form.body);
    return t.app.inject({
      method: 'POST',
      url: '/reset-password',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ticket: hidden(form.body, 'ticket'), csrf_token: hidden(form.body, 'csrf_token'), password, password_confirmation: password }).toString(),
    });
  }

  test("the new password is set in the legacy store through the script, and logs in there", async () => {
    await createConnection('legacy-reset', customDb({ login: LOGIN, change_password: CHANGE_PASSWORD }));
    assert.equal((await passwordRealm('legacy-reset', 'edsger@legacy.example', 'Goto-Considered-1968')).statusCode, 200, 'the user is known here after a login');
    const done = await reset('legacy-reset', 'edsger@legacy.example', 'Structured-Programming-72');
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(LEGACY_USERS.get('edsger@legacy.example')!.password, 'Structured-Programming-72');
    const login = await passwordRealm('legacy-reset', 'edsger@legacy.example', 'Structured-Programming-72');
    assert.equal(login.statusCode, 200, login.body);
  });

  test('the Management API: a new password goes to the legacy store; an email change without change_email is refused and changes nothing', async () => {
    const userId = encodeURIComponent('auth0|L-1004');
    const patched = await t.management('PATCH', `/api/v2/users/${userId}`, { body: { password: 'Shortest-Path-1959', connection: 'legacy-reset' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(LEGACY_USERS.get('edsger@legacy.example')!.password, 'Shortest-Path-1959');
    const email = await t.management('PATCH', `/api/v2/users/${userId}`, { body: { email: 'ewd@legacy.example', connection: 'legacy-reset' } });
    assert.equal(email.statusCode, 400, email.body);
    assert.match((email.json() as { message: string }).message, /email could not be changed/);
    assert.equal((await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1004'))!.email, 'edsger@legacy.example');
  });

  test('without a change_password script the reset is refused on the form, and the legacy password stays', async () => {
    assert.equal((await passwordRealm('legacy-live', 'alan@legacy.example', 'Bombe-1939-Enigma')).statusCode, 200);
    const refused = await reset('legacy-live', 'alan@legacy.example', 'Turing-Machine-1936');
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /could not be changed in the connection/);
    assert.equal(LEGACY_USERS.get('alan@legacy.example')!.password, 'Bombe-1939-Enigma');
  });
});

describe('email verification on a custom database without import_mode (verify)', () => {
  const VERIFY = `function verify(email, callback) {
    fetch(configuration.LEGACY_URL + '/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + configuration.API_KEY },
      body: JSON.stringify({ email: email }),
    }).then((res) => (res.status === 204 ? callback(null, true) : callback(new Error('the legacy store answered ' + res.status))), callback);
  }`;
  const UNVERIFIED_LOGIN = LOGIN.replace('email_verified: true', 'email_verified: false');

  /** A Management API verification ticket for `userId`, its page, its form posted: the answer, and the ticket's path. */
  async function followLink(userId: string): Promise<{ done: LightMyRequestResponse; path: string }> {
    const ticket = await t.management('POST', '/api/v2/tickets/email-verification', { body: { user_id: userId } });
    assert.equal(ticket.statusCode, 201, ticket.body);
    const url = new URL((ticket.json() as { ticket: string }).ticket);
    const path = `${url.pathname}${url.search}`;
    const form = await t.app.inject({ method: 'GET', url: path, headers: { host: DOMAIN } });
    assert.equal(form.statusCode, 200, form.body);
    const done = await t.app.inject({
      method: 'POST',
      url: '/verify-email',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ticket: hidden(form.body, 'ticket'), csrf_token: hidden(form.body, 'csrf_token') }).toString(),
    });
    return { done, path };
  }

  test('the followed link marks the address in the legacy store through the script, then here', async () => {
    await createConnection('legacy-verify', customDb({ login: UNVERIFIED_LOGIN, verify: VERIFY }));
    assert.equal((await passwordRealm('legacy-verify', 'hedy@legacy.example', 'Frequency-Hopping-1942')).statusCode, 200, 'the user is known here after a login');
    assert.equal((await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1006'))!.email_verified, 0);
    const { done } = await followLink('auth0|L-1006');
    assert.equal(done.statusCode, 200, done.body);
    assert.ok(LEGACY_VERIFIED.has('hedy@legacy.example'), 'the verify script reached the legacy store');
    assert.equal((await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1006'))!.email_verified, 1);
  });

  test('a failing verify script: the form again with why, the address unverified, the link still usable', async () => {
    const failing = VERIFY.replace("'/verify'", "'/verify-nowhere'");
    await createConnection('legacy-verify-down', customDb({ login: UNVERIFIED_LOGIN, verify: failing }));
    assert.equal((await passwordRealm('legacy-verify-down', 'katherine@legacy.example', 'Orbital-Mechanics-1962')).statusCode, 200);
    const { done, path } = await followLink('auth0|L-1007');
    assert.equal(done.statusCode, 400, done.body);
    assert.match(done.body, /could not be verified in the connection/);
    assert.doesNotMatch(done.body, /legacy store answered/, "the script's own words stay out of the page");
    assert.ok(!LEGACY_VERIFIED.has('katherine@legacy.example'));
    assert.equal((await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-1007'))!.email_verified, 0);
    const again = await t.app.inject({ method: 'GET', url: path, headers: { host: DOMAIN } });
    assert.equal(again.statusCode, 200, 'the ticket was not consumed');
  });
});

describe('deleting a user of a custom database without import_mode (delete)', () => {
  const DELETE = `function remove(id, callback) {
    fetch(configuration.LEGACY_URL + '/users/id/' + encodeURIComponent(id), { method: 'DELETE', headers: { authorization: 'Bearer ' + configuration.API_KEY } })
      .then((res) => callback(res.status === 204 ? null : new Error('legacy store: ' + res.status)), callback);
  }`;

  test('the user is deleted in the legacy store first; a failing script keeps the user', async () => {
    LEGACY_USERS.set('kathleen@legacy.example', { password: 'Assembly-Language-47', id: 'L-3001', name: 'Kathleen Booth' });
    await createConnection('legacy-delete', customDb({ login: LOGIN, delete: DELETE }));
    assert.equal((await passwordRealm('legacy-delete', 'kathleen@legacy.example', 'Assembly-Language-47')).statusCode, 200);
    const gone = await t.management('DELETE', `/api/v2/users/${encodeURIComponent('auth0|L-3001')}`);
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal(LEGACY_USERS.has('kathleen@legacy.example'), false);
    assert.equal(await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-3001'), undefined);

    // The legacy store no longer knows this one: the script fails, and the user stays.
    LEGACY_USERS.set('ghost@legacy.example', { password: 'Vanishing-Act-1999', id: 'L-9999', name: 'Ghost' });
    assert.equal((await passwordRealm('legacy-delete', 'ghost@legacy.example', 'Vanishing-Act-1999')).statusCode, 200);
    LEGACY_USERS.delete('ghost@legacy.example');
    const refused = await t.management('DELETE', `/api/v2/users/${encodeURIComponent('auth0|L-9999')}`);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match((refused.json() as { message: string }).message, /delete script failed/);
    assert.ok(await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|L-9999'));
  });
});

describe("the script's errors and refusals", () => {
  const scripted = async (name: string, login: string) => createConnection(name, customDb({ login }));

  test('UnauthorizedError: 401 unauthorized with its message', async () => {
    await scripted('legacy-unauthorized', "function login(email, password, callback) { callback(new UnauthorizedError('Your account is suspended at the legacy store.')); }");
    const res = await passwordRealm('legacy-unauthorized', 'ada@legacy.example', 'x');
    assert.equal(res.statusCode, 401, res.body);
    assert.deepEqual(res.json(), { error: 'unauthorized', error_description: 'Your account is suspended at the legacy store.' });
    const page = await pageLogin('legacy-unauthorized', 'ada@legacy.example', 'x');
    assert.equal(page.statusCode, 400, page.body.slice(0, 300));
    assert.match(page.body, /Your account is suspended at the legacy store\./);
  });

  test("a script that throws: access_denied, the script's words not in the answer; the login page says it failed", async () => {
    await scripted('legacy-throws', "function login(email, password, callback) { throw new Error('db password is hunter2'); }");
    const res = await passwordRealm('legacy-throws', 'ada@legacy.example', 'x');
    assert.equal(res.statusCode, 403, res.body);
    assert.equal((res.json() as { error: string }).error, 'access_denied');
    assert.doesNotMatch(res.body, /hunter2/);
    const page = await pageLogin('legacy-throws', 'ada@legacy.example', 'x');
    assert.match(page.body, /could not be completed by the connection&#39;s login script|could not be completed by the connection's login script/);
    assert.doesNotMatch(page.body, /hunter2/);
  });

  test('a script past the time limit is stopped: access_denied; the next login runs in a new process', async () => {
    await scripted('legacy-loops', 'function login(email, password, callback) { for (;;) {} }');
    const res = await passwordRealm('legacy-loops', 'ada@legacy.example', 'x');
    assert.equal(res.statusCode, 403, res.body);
    assert.equal((res.json() as { error: string }).error, 'access_denied');
    const after = await passwordRealm('legacy-live', 'alan@legacy.example', 'Bombe-1939-Enigma');
    assert.equal(after.statusCode, 200, after.body);
  });

  test('a profile without user_id fails the login; no user is made', async () => {
    await scripted('legacy-no-id', "function login(email, password, callback) { callback(null, { email: email, name: 'Nobody' }); }");
    const res = await passwordRealm('legacy-no-id', 'nobody@legacy.example', 'x');
    assert.equal(res.statusCode, 403, res.body);
    assert.equal((res.json() as { error: string }).error, 'access_denied');
    const users = await t.management('GET', `/api/v2/users-by-email?email=${encodeURIComponent('nobody@legacy.example')}`);
    assert.deepEqual(users.json(), []);
  });

  test("the script finds no environment, cannot read the data directory, cannot reach the database port", async () => {
    process.env.GATEHOUSE_TEST_SECRET = 'must-not-leak';
    await scripted(
      'legacy-snoops',
      `function login(email, password, callback) {
        const fs = require('fs');
        const found = { env: Object.keys(process.env) };
        try { found.file = fs.readdirSync(${JSON.stringify(t.dataDir)}); } catch (e) { found.file = e.code; }
        fetch('http://127.0.0.1:5432/').then(() => { found.net = 'connected'; }, (e) => { found.net = String(e.cause && e.cause.code || e.message); })
          .then(() => callback(null, { user_id: 'snoop', email: email, user_metadata: found }));
      }`,
    );
    const res = await passwordRealm('legacy-snoops', 'snoop@legacy.example', 'x');
    assert.equal(res.statusCode, 200, res.body);
    const found = (await t.ctx.stores.users.getIdentity(t.tenant.id, 'auth0|snoop'))!.user_metadata as { env: string[]; file: unknown; net: string };
    assert.deepEqual(found.env, []);
    assert.equal(found.file, 'ERR_ACCESS_DENIED');
    assert.equal(found.net, 'EACCES');
  });
});

describe('the Management API of custom database connections', () => {
  test('configuration is sealed at rest, never answered, and kept when the answer is sent back', async () => {
    const created = await createConnection('legacy-config', customDb({ login: LOGIN }));
    const answered = JSON.stringify(created);
    assert.doesNotMatch(answered, new RegExp(API_KEY));
    const stored = await t.ctx.stores.connections.get(t.tenant.id, created.id);
    assert.doesNotMatch(JSON.stringify(stored!.options), new RegExp(API_KEY), 'sealed at rest');
    const read = await t.management('GET', `/api/v2/connections/${created.id}`);
    assert.doesNotMatch(read.body, new RegExp(API_KEY));
    assert.deepEqual(Object.keys((read.json() as { options: { configuration: object } }).options.configuration).sort(), ['API_KEY', 'LEGACY_URL']);

    // An export imported again: the sealed values sent back keep what they hold.
    const patched = await t.management('PATCH', `/api/v2/connections/${created.id}`, { body: { options: (read.json() as { options: object }).options } });
    assert.equal(patched.statusCode, 200, patched.body);
    const login = await passwordRealm('legacy-config', 'alan@legacy.example', 'Bombe-1939-Enigma');
    assert.equal(login.statusCode, 200, login.body);
  });

  test('refused: no login script, get_user missing under import_mode, an oversized script, an unknown script, a non-string setting', async () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ enabledDatabaseCustomization: true, customScripts: {} }, /customScripts\.login/],
      [{ enabledDatabaseCustomization: true, import_mode: true, customScripts: { login: LOGIN } }, /customScripts\.get_user/],
      [{ enabledDatabaseCustomization: true, customScripts: { login: `function login(e, p, cb) { /*${'x'.repeat(51_200)}*/ }` } }, /String is too long .* maximum 51200/],
      [{ enabledDatabaseCustomization: true, customScripts: { login: LOGIN, steal: 'function () {}' } }, /customScripts\.steal/],
      [{ enabledDatabaseCustomization: true, customScripts: { login: LOGIN }, configuration: { KEY: 42 } }, /configuration/],
    ];
    let n = 0;
    for (const [options, message] of refusals) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name: `refused-${++n}`, strategy: 'auth0', options } });
      assert.equal(res.statusCode, 400, res.body);
      assert.match((res.json() as { message: string }).message, message);
    }
  });
});
