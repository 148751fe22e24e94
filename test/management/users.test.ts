/** /api/v2/users through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyPassword } from '../../src/platform/passwords/hashing.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

interface User {
  user_id: string;
  email?: string;
  username?: string;
  email_verified: boolean;
  blocked: boolean;
  name?: string;
  nickname?: string;
  picture?: string;
  identities: { connection: string; user_id: string; provider: string; isSocial: boolean }[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  logins_count: number;
  created_at: string;
  updated_at: string;
  last_password_reset?: string;
}

const PASSWORD = 'Correct-Horse-7';

describe('/api/v2/users', () => {
  let t: TestApp;
  const T = '2024-01-01T00:00:00.000Z';

  /** Connections are inserted directly: the connections API is another area's. */
  async function insertConnection(name: string, options: Record<string, unknown> = {}, strategy = 'auth0'): Promise<void> {
    await t.ctx.database.db
      .insertInto('connections')
      .values({ tenant_id: t.tenant.id, id: `con_${name.replace(/\W/g, '')}`, name, display_name: null, strategy, options: JSON.stringify(options), is_domain_connection: 0, realms: '[]', metadata: '{}', created_at: T, updated_at: T })
      .execute();
  }

  async function storedHash(userId: string): Promise<string | null> {
    const row = await t.ctx.database.db.selectFrom('users').select('password_hash').where('user_id', '=', userId).executeTakeFirstOrThrow();
    return row.password_hash;
  }

  async function create(body: Record<string, unknown>): Promise<User> {
    const res = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', password: PASSWORD, ...body } });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(!res.body.includes('argon2') && !res.body.includes(PASSWORD), 'no password or hash in the response');
    return res.json() as User;
  }

  before(async () => {
    t = await createTestApp();
    await insertConnection('Username-Password-Authentication');
    await insertConnection('with-username', { requires_username: true });
    await insertConnection('google-oauth2', {}, 'google-oauth2');
  });
  after(() => t.close());

  it('creates (201) with the service defaults, hashes the password with argon2id, gets, and deletes (204)', async () => {
    const user = await create({ email: 'Jane.Doe@Example.com', app_metadata: { plan: 'pro' }, user_metadata: { theme: 'dark' } });
    assert.match(user.user_id, /^auth0\|[0-9a-f]{24}$/);
    assert.equal(user.email, 'Jane.Doe@Example.com');
    assert.equal(user.email_verified, false);
    assert.equal(user.blocked, false);
    assert.equal(user.name, 'Jane.Doe@Example.com');
    assert.equal(user.nickname, 'Jane.Doe');
    assert.match(user.picture ?? '', /^https:\/\/s\.gravatar\.com\/avatar\/[0-9a-f]{32}\?/);
    assert.deepEqual(user.identities, [
      { connection: 'Username-Password-Authentication', user_id: user.user_id.slice('auth0|'.length), provider: 'auth0', isSocial: false },
    ]);
    assert.deepEqual(user.app_metadata, { plan: 'pro' });
    assert.deepEqual(user.user_metadata, { theme: 'dark' });
    assert.equal(user.logins_count, 0);
    assert.equal(user.created_at, user.updated_at);
    assert.equal('password' in user || 'password_hash' in user, false);

    const hash = await storedHash(user.user_id);
    assert.match(hash ?? '', /^\$argon2id\$/);
    assert.deepEqual(await verifyPassword(hash ?? '', PASSWORD), { ok: true, needsRehash: false });

    const got = await t.management('GET', `/api/v2/users/${encodeURIComponent(user.user_id)}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), user);

    const deleted = await t.management('DELETE', `/api/v2/users/${encodeURIComponent(user.user_id)}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const gone = await t.management('GET', `/api/v2/users/${encodeURIComponent(user.user_id)}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' });
    // Idempotent, as the document declares only 204.
    assert.equal((await t.management('DELETE', `/api/v2/users/${encodeURIComponent(user.user_id)}`)).statusCode, 204);
  });

  it('takes a custom user_id, email_verified and blocked', async () => {
    const user = await create({ email: 'custom@example.com', user_id: 'legacy-42', email_verified: true, blocked: true, name: 'C', nickname: 'c' });
    assert.equal(user.user_id, 'auth0|legacy-42');
    assert.equal(user.identities[0]?.user_id, 'legacy-42');
    assert.equal(user.email_verified, true);
    assert.equal(user.blocked, true);
    assert.equal(user.name, 'C');
  });

  it('refuses a duplicate email in the connection, case-insensitively (409)', async () => {
    await create({ email: 'dup@example.com' });
    const res = await t.management('POST', '/api/v2/users', {
      body: { connection: 'Username-Password-Authentication', email: 'DUP@example.COM', password: PASSWORD },
    });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(res.json(), { statusCode: 409, error: 'Conflict', message: 'The user already exists.', errorCode: 'user_exists' });
  });

  it('refuses unknown connections, non-database connections and missing members (400)', async () => {
    const unknown = await t.management('POST', '/api/v2/users', { body: { connection: 'nope', email: 'a@example.com', password: PASSWORD } });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json(), { statusCode: 400, error: 'Bad Request', message: 'The connection does not exist.', errorCode: 'inexistent_connection' });

    const social = await t.management('POST', '/api/v2/users', { body: { connection: 'google-oauth2', email: 'a@example.com', password: PASSWORD } });
    assert.equal(social.statusCode, 400);
    assert.deepEqual(social.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: 'Connection does not support user creation through the API. It must either be a database or passwordless connection.',
      errorCode: 'invalid_body',
    });

    const noPassword = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', email: 'a@example.com' } });
    assert.deepEqual(noPassword.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'Missing required property: password'.",
      errorCode: 'invalid_body',
    });

    const noConnection = await t.management('POST', '/api/v2/users', { body: { email: 'a@example.com', password: PASSWORD } });
    assert.deepEqual(noConnection.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'Missing required property: connection'.",
      errorCode: 'invalid_body',
    });

    const extra = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', email: 'a@example.com', password: PASSWORD, password_hash: 'x' } });
    assert.deepEqual(extra.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'Additional properties not allowed: password_hash'.",
      errorCode: 'invalid_body',
    });

    const badEmail = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', email: 'not-an-email', password: PASSWORD } });
    assert.deepEqual(badEmail.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'Object didn't pass validation for format email: not-an-email' on property email (The user's email).",
      errorCode: 'invalid_body',
    });
  });

  it('requires a username when the connection requires one, and refuses it otherwise', async () => {
    const missing = await t.management('POST', '/api/v2/users', { body: { connection: 'with-username', email: 'u@example.com', password: PASSWORD } });
    assert.deepEqual(missing.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'Missing required property: username'.",
      errorCode: 'invalid_body',
    });
    const user = await create({ connection: 'with-username', email: 'u@example.com', username: 'JaneD' });
    assert.equal(user.username, 'JaneD');
    const taken = await t.management('POST', '/api/v2/users', { body: { connection: 'with-username', email: 'u2@example.com', username: 'janed', password: PASSWORD } });
    assert.equal(taken.statusCode, 409);

    const unwanted = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', email: 'x@example.com', username: 'x', password: PASSWORD } });
    assert.deepEqual(unwanted.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: 'Cannot set username for connection without requires_username.',
      errorCode: 'invalid_body',
    });
  });

  it('updates partially, merges metadata (null deletes a key), and re-hashes a new password', async () => {
    const user = await create({ email: 'patch@example.com', app_metadata: { a: 1, b: { c: 2 } }, user_metadata: { keep: true, drop: 'x' } });
    const before = await storedHash(user.user_id);
    const url = `/api/v2/users/${encodeURIComponent(user.user_id)}`;

    const res = await t.management('PATCH', url, { body: { blocked: true, app_metadata: { b: { d: 3 }, e: 'new' }, user_metadata: { drop: null } } });
    assert.equal(res.statusCode, 200, res.body);
    const patched = res.json() as User;
    assert.equal(patched.blocked, true);
    assert.equal(patched.email, 'patch@example.com');
    assert.deepEqual(patched.app_metadata, { a: 1, b: { d: 3 }, e: 'new' });
    assert.deepEqual(patched.user_metadata, { keep: true });
    assert.deepEqual((await t.management('GET', url)).json(), patched);

    const cleared = await t.management('PATCH', url, { body: { user_metadata: {} } });
    assert.deepEqual((cleared.json() as User).user_metadata, {});

    const pw = await t.management('PATCH', url, { body: { password: 'Another-Secret-9' } });
    assert.equal(pw.statusCode, 200);
    assert.ok(!pw.body.includes('Another-Secret-9') && !pw.body.includes('argon2'));
    assert.ok((pw.json() as User).last_password_reset);
    const after = await storedHash(user.user_id);
    assert.notEqual(after, before);
    assert.equal((await verifyPassword(after ?? '', 'Another-Secret-9')).ok, true);
    assert.equal((await verifyPassword(after ?? '', PASSWORD)).ok, false);

    const both = await t.management('PATCH', url, { body: { password: 'x', email: 'new@example.com' } });
    assert.deepEqual(both.json(), { statusCode: 400, error: 'Bad Request', message: 'Cannot update password and email simultaneously.', errorCode: 'invalid_body' });

    const missing = await t.management('PATCH', '/api/v2/users/auth0%7C000000000000000000000000', { body: { blocked: true } });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' });

    const dupEmail = await t.management('PATCH', url, { body: { email: 'DUP@example.com' } });
    assert.equal(dupEmail.statusCode, 409);
  });

  it('lets update:users_app_metadata change metadata only', async () => {
    const user = await create({ email: 'meta-only@example.com' });
    const url = `/api/v2/users/${encodeURIComponent(user.user_id)}`;
    const token = await t.managementToken('update:users_app_metadata');
    const ok = await t.management('PATCH', url, { token, body: { app_metadata: { x: 1 } } });
    assert.equal(ok.statusCode, 200, ok.body);
    const refused = await t.management('PATCH', url, { token, body: { blocked: true } });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: update:users', errorCode: 'insufficient_scope' });
  });

  it('checks scopes per operation', async () => {
    const token = await t.managementToken('read:users');
    const res = await t.management('POST', '/api/v2/users', { token, body: { connection: 'Username-Password-Authentication' } });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: create:users', errorCode: 'insufficient_scope' });
    assert.equal((await t.management('GET', '/api/v2/users', { token })).statusCode, 200);
    assert.equal((await t.management('DELETE', '/api/v2/users/auth0%7Cx', { token })).statusCode, 403);
  });

  it('lists with offset paging, as an array or {start, limit, length, users, total}', async () => {
    const all = await t.management('GET', '/api/v2/users?per_page=100');
    assert.equal(all.statusCode, 200);
    const users = all.json() as User[];
    assert.ok(users.length >= 5);
    assert.ok(!all.body.includes('argon2'));

    const page = await t.management('GET', '/api/v2/users?per_page=2&page=1&include_totals=true');
    const body = page.json() as { start: number; limit: number; length: number; users: User[]; total: number };
    assert.deepEqual(Object.keys(body), ['start', 'limit', 'length', 'users', 'total']);
    assert.equal(body.start, 2);
    assert.equal(body.limit, 2);
    assert.equal(body.length, 2);
    assert.equal(body.total, users.length);
    assert.deepEqual(body.users, users.slice(2, 4));

    const q = await t.management('GET', '/api/v2/users?q=email%3A%22a%40b.c%22&search_engine=v2');
    assert.equal(q.statusCode, 400);
    assert.equal(q.json().errorCode, 'invalid_query_string');
  });
});
