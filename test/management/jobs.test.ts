/**
 * /api/v2/jobs through the real app and database: user imports with bcrypt,
 * argon2 and pbkdf2 hashes whose users then log in with their original
 * passwords (and are rehashed to argon2id), a malformed file's job errors
 * with line numbers, upsert, refusals; exports downloaded through their
 * signed link, refused once expired or tampered; verification email jobs.
 * The background runner is driven here (`runOnce`), as the server's timer does.
 */
import assert from 'node:assert/strict';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { JobRunner } from '../../src/domain/jobs/runner.js';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { multipartBody } from '../helpers/multipart.js';
import { postgresAvailable } from '../helpers/postgres.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

interface Job {
  id: string;
  status: string;
  type: string;
  connection_id?: string;
  connection?: string;
  summary?: { failed: number; updated: number; inserted: number; total: number };
  location?: string;
  status_details?: string;
}

const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

for (const postgres of [false, true]) describe(`/api/v2/jobs (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && skipPostgres }, () => {
  let t: TestApp;
  let client: TestClient;
  let connectionId: string;
  let runner: JobRunner;

  before(async () => {
    t = await createTestApp({ postgres, env: { GATEHOUSE_USERS_IMPORT_MAX_BYTES: String(8 * 1024 * 1024) } });
    client = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    const res = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(res.statusCode, 201, res.body);
    connectionId = res.json().id;
    runner = new JobRunner(t.ctx);
  });
  after(() => t.close());

  async function upload(users: string, fields: Record<string, string> = {}, token?: string) {
    const { payload, contentType } = await multipartBody({ connection_id: connectionId, ...fields }, { users: { content: users, filename: 'users.json' } });
    return t.app.inject({
      method: 'POST',
      url: '/api/v2/jobs/users-imports',
      headers: { host: DOMAIN, authorization: `Bearer ${token ?? (await t.managementToken())}`, 'content-type': contentType },
      payload,
    });
  }

  async function importAndRun(users: string, fields: Record<string, string> = {}): Promise<Job> {
    const res = await upload(users, fields);
    assert.equal(res.statusCode, 202, res.body);
    const created = res.json() as Job;
    assert.equal(created.status, 'pending');
    assert.equal(created.type, 'users_import');
    assert.equal(created.connection_id, connectionId);
    assert.equal(created.connection, REALM);
    assert.equal(await runner.runOnce(), 1);
    return (await t.management('GET', `/api/v2/jobs/${created.id}`)).json() as Job;
  }

  const login = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username, password, realm: REALM, scope: 'openid' },
    });

  async function storedHash(email: string): Promise<string | null> {
    const row = await t.ctx.database.db.selectFrom('users').select('password_hash').where('tenant_id', '=', t.tenant.id).where('email_lower', '=', email).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  it('imports 10,000 users with bcrypt, argon2 and pbkdf2 hashes; a sample of each logs in with its password and is rehashed to argon2id', async () => {
    // A few distinct passwords per family, shared round-robin (hashing 10,000 distinct ones would only slow the test).
    const families: { name: string; password: string; hash: (password: string) => Promise<Record<string, unknown>> }[] = [];
    for (let i = 0; i < 3; i++) {
      families.push({ name: 'bcrypt', password: `bcrypt-pw-${i}`, hash: async (p) => ({ password_hash: bcrypt.hashSync(p, 4) }) });
      families.push({
        name: 'argon2',
        password: `argon2-pw-${i}`,
        hash: async (p) => ({ custom_password_hash: { algorithm: 'argon2', hash: { value: await argon2.hash(p, { type: ([argon2.argon2id, argon2.argon2i, argon2.argon2d] as const)[i], memoryCost: 4096, timeCost: 1 }) } } }),
      });
      families.push({
        name: 'pbkdf2',
        password: `pbkdf2-pw-${i}`,
        hash: async (p) => {
          const salt = randomBytes(16);
          const digest = ['sha1', 'sha256', 'sha512'][i]!;
          const length = { sha1: 20, sha256: 32, sha512: 64 }[digest]!;
          const hash = pbkdf2Sync(p, salt, 1000, length, digest);
          const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
          return { custom_password_hash: { algorithm: 'pbkdf2', hash: { value: `$pbkdf2-${digest}$i=1000,l=${length}$${b64(salt)}$${b64(hash)}`, encoding: 'utf8' } } };
        },
      });
    }
    const hashes = await Promise.all(families.map((f) => f.hash(f.password)));
    const users = Array.from({ length: 10_000 }, (_, i) => ({
      email: `user${i}@import.example`,
      email_verified: true,
      given_name: `Given${i}`,
      app_metadata: { n: i },
      ...hashes[i % families.length],
    }));
    const job = await importAndRun(`[\n${users.map((u) => JSON.stringify(u)).join(',\n')}\n]`);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.deepEqual(job.summary, { failed: 0, updated: 0, inserted: 10_000, total: 10_000 });
    assert.equal((await t.management('GET', `/api/v2/jobs/${job.id}/errors`)).statusCode, 204);
    const count = await t.ctx.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', t.tenant.id).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 10_000);

    for (const [f, family] of families.entries()) {
      const email = `user${f + families.length * 7}@import.example`;
      assert.equal((await login(email, `${family.password}-wrong`)).statusCode, 403, `${family.name}: a wrong password is refused`);
      assert.ok(!(await storedHash(email))!.startsWith('$argon2id$v=19$m=19456'), 'still the imported hash');
      const res = await login(email, family.password);
      assert.equal(res.statusCode, 200, `${family.name}: ${res.body}`);
      assert.match((await storedHash(email))!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, `${family.name} rehashed to argon2id`);
      assert.equal((await login(email, family.password)).statusCode, 200, 'and logs in again with the new hash');
    }
    const found = (await t.management('GET', `/api/v2/users?q=${encodeURIComponent('email:"user42@import.example"')}`)).json();
    assert.equal(found[0].given_name, 'Given42');
    assert.deepEqual(found[0].app_metadata, { n: 42 });
    assert.equal(found[0].email_verified, true);
  });

  it('reports a malformed file\'s users with their lines, imports the others, and writes nothing of the failing ones', async () => {
    const file = [
      '[',
      '  {"email": "good1@bad.example", "password_hash": "' + bcrypt.hashSync('x', 4) + '"},',
      '  {"email": "not-an-email"},',
      '  {',
      '    "email": "extra@bad.example",',
      '    "favourite_colour": "blue"',
      '  },',
      '  {"email": "hash@bad.example", "custom_password_hash": {"algorithm": "sha256", "hash": {"value": "zz", "encoding": "hex"}}},',
      '  {"email": "user1@import.example"},',
      '  {"email": "good2@bad.example", "user_id": "fixed-id-1"},',
      '  {"email": "GOOD2@bad.example"},',
      '  {"email": "typed@bad.example", "blocked": "yes"}',
      ']',
    ].join('\n');
    const job = await importAndRun(file);
    assert.equal(job.status, 'completed');
    assert.deepEqual(job.summary, { failed: 6, updated: 0, inserted: 2, total: 8 });
    const errors = (await t.management('GET', `/api/v2/jobs/${job.id}/errors`)).json() as { user: Record<string, unknown>; errors: { code: string; message: string; path: string }[] }[];
    assert.deepEqual(
      errors.map((e) => [e.user.email, e.errors.map((x) => x.code), e.errors[0]!.path, /line (\d+)\)$/.exec(e.errors[0]!.message)?.[1]]),
      [
        ['not-an-email', ['INVALID_FORMAT'], 'email', '3'],
        ['extra@bad.example', ['OBJECT_ADDITIONAL_PROPERTIES'], 'favourite_colour', '4'],
        ['hash@bad.example', ['INVALID_FORMAT'], 'custom_password_hash', '8'],
        ['user1@import.example', ['DUPLICATED_USER'], '', '9'],
        ['GOOD2@bad.example', ['DUPLICATED_USER'], '', '11'],
        ['typed@bad.example', ['INVALID_TYPE'], 'blocked', '12'],
      ],
    );
    assert.ok(errors.every((e) => !('custom_password_hash' in e.user) && !('password_hash' in e.user)), 'hashes are never sent back');
    for (const email of ['extra@bad.example', 'hash@bad.example', 'typed@bad.example']) assert.equal(await storedHash(email), null);
    const present = await t.ctx.database.db.selectFrom('users').select(['email', 'user_id']).where('tenant_id', '=', t.tenant.id).where('email_lower', 'like', '%@bad.example').orderBy('email').execute();
    assert.deepEqual(present, [{ email: 'good1@bad.example', user_id: present[0]!.user_id }, { email: 'good2@bad.example', user_id: 'auth0|fixed-id-1' }]);
  });

  it('updates existing users with upsert', async () => {
    const job = await importAndRun(JSON.stringify([{ email: 'user2@import.example', given_name: 'Changed', app_metadata: { extra: true } }, { email: 'new@upsert.example' }]), { upsert: 'true', external_id: 'batch-7' });
    assert.deepEqual(job.summary, { failed: 0, updated: 1, inserted: 1, total: 2 });
    const user = (await t.management('GET', `/api/v2/users?q=${encodeURIComponent('email:"user2@import.example"')}`)).json()[0];
    assert.equal(user.given_name, 'Changed');
    assert.deepEqual(user.app_metadata, { n: 2, extra: true });
  });

  it('refuses bad uploads with a 400/413 in the Management shape and queues nothing', async () => {
    const before = await t.ctx.database.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const notJson = await upload('[\n{"email": "a@b.c"},\n{"email": }\n]');
    assert.equal(notJson.statusCode, 400);
    assert.match(notJson.json().message, /^Users file must be valid JSON: .* \(the user at line 3\)$/s);
    assert.equal(notJson.json().errorCode, 'invalid_body');
    assert.equal((await upload('{"email": "a@b.c"}')).json().message, 'Users file must be a JSON array of users');
    assert.equal((await upload('[]')).statusCode, 400);
    const tooLarge = await upload(`[${' '.repeat(8 * 1024 * 1024)}]`);
    assert.equal(tooLarge.statusCode, 413);
    assert.equal(tooLarge.json().message, `Payload content length greater than maximum allowed: ${8 * 1024 * 1024}.`);
    assert.equal((await upload('[{"email":"a@b.c"}]', { connection_id: 'con_0000000000000000' })).json().errorCode, 'inexistent_connection');
    assert.equal((await upload('[{"email":"a@b.c"}]', { connection_id: 'nope' })).statusCode, 400);
    assert.equal((await upload('[{"email":"a@b.c"}]', { upsert: 'maybe' })).statusCode, 400);
    assert.equal((await upload('[{"email":"a@b.c"}]', { surprise: 'x' })).statusCode, 400);
    assert.equal((await upload('[{"email":"a@b.c"}]', {}, await t.managementToken('read:users'))).statusCode, 403);
    const json = await t.management('POST', '/api/v2/jobs/users-imports', { body: { users: '[]', connection_id: connectionId } });
    assert.equal(json.statusCode, 400);
    const after = await t.ctx.database.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
    assert.equal((await t.management('GET', '/api/v2/jobs/job_0000000000000000')).json().errorCode, 'inexistent_job');
  });

  it('refuses a malformed multipart body with a 400 in the Management shape, never a 500, and queues nothing', async () => {
    const count = async () => Number((await t.ctx.database.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const token = await t.managementToken();
    const { payload, contentType } = await multipartBody({ connection_id: connectionId }, { users: { content: '[{"email":"a@b.c"}]', filename: 'users.json' } });
    const boundary = contentType.split('boundary=')[1]!;
    const text = payload.toString('latin1');
    const part = (headers: string, body: string) => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
    const withNul = await multipartBody({ connection_id: connectionId }, { users: { content: '[{"email":"a\\u0000@b.c"}]', filename: 'users.json' } });
    const withRawNul = await multipartBody({ connection_id: connectionId }, { users: { content: '[{"email":"a\u0000@b.c"}]', filename: 'users.json' } });
    const cases: [string, string, string | Buffer | undefined][] = [
      ['truncated in the middle of a part', contentType, text.slice(0, Math.floor(text.length * 0.6))],
      ['truncated before the closing boundary', contentType, text.slice(0, text.lastIndexOf(`--${boundary}--`))],
      ['no boundary parameter', 'multipart/form-data', payload],
      ['an empty boundary parameter', 'multipart/form-data; boundary=', payload],
      ['a boundary that is not the body\'s', 'multipart/form-data; boundary=something-else', payload],
      ['a part without a name', contentType, `${part('Content-Disposition: form-data', 'x')}--${boundary}--\r\n`],
      ['a part without Content-Disposition', contentType, `${part('Content-Type: text/plain', 'x')}--${boundary}--\r\n`],
      ['a part header without a colon', contentType, `${part('Content-Disposition form-data; name="users"', 'x')}--${boundary}--\r\n`],
      ['an oversized field', contentType, `${part('Content-Disposition: form-data; name="connection_id"', 'c'.repeat(5000))}--${boundary}--\r\n`],
      ['an oversized part header', contentType, `${part(`Content-Disposition: form-data; name="users"; filename="${'f'.repeat(100_000)}"`, '[]')}--${boundary}--\r\n`],
      ['a NUL in a field', contentType, `${part('Content-Disposition: form-data; name="external_id"', 'a\u0000b')}--${boundary}--\r\n`],
      ['a NUL escaped in the users file', withNul.contentType, withNul.payload],
      ['a raw NUL in the users file', withRawNul.contentType, withRawNul.payload],
      ['no body', 'multipart/form-data', undefined],
      ['no body with a boundary', contentType, undefined],
      ['Multipart/Form-Data in other letter case, truncated', contentType.replace('multipart/form-data', 'Multipart/Form-Data'), text.slice(0, 40)],
    ];
    for (const [what, type, body] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/jobs/users-imports',
        headers: { host: DOMAIN, authorization: `Bearer ${token}`, 'content-type': type },
        ...(body !== undefined && { payload: body }),
      });
      assert.ok(res.statusCode === 400 || res.statusCode === 413, `${what}: ${res.statusCode} ${res.body}`);
      const answer = res.json() as { statusCode: number; error: string; message: string; errorCode?: string };
      assert.equal(answer.statusCode, res.statusCode, what);
      assert.equal(typeof answer.message, 'string', what);
      assert.equal(answer.error, res.statusCode === 400 ? 'Bad Request' : 'Payload Too Large', what);
      if (what.includes('NUL')) assert.match(answer.message, /NUL character/, what);
      if (what.includes('without a name')) assert.equal(answer.message, "Payload validation error: 'Every part must have a name'.");
      if (what.startsWith('truncated') || what.includes('boundary that is not')) assert.match(answer.message, /^The multipart body is malformed/, what);
    }
    assert.equal(await count(), before);
  });

  it('exports users as CSV and JSON lines through a signed link that expires and cannot be altered', async () => {
    const res = await t.management('POST', '/api/v2/jobs/users-exports', {
      body: { connection_id: connectionId, format: 'csv', limit: 3, fields: [{ name: 'email' }, { name: 'app_metadata.n', export_as: 'number' }, { name: 'identities[0].connection', export_as: 'connection' }] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json() as Job;
    assert.equal(created.location, undefined);
    await runner.runOnce();
    const job = (await t.management('GET', `/api/v2/jobs/${created.id}`)).json() as Job;
    assert.equal(job.status, 'completed');
    assert.ok(job.location?.startsWith(`https://${DOMAIN}/jobs/exports/${job.id}/users.csv.gz?`), job.location);
    const url = new URL(job.location!);
    const download = (path: string) => t.app.inject({ method: 'GET', url: path, headers: { host: DOMAIN } });
    const ok = await download(url.pathname + url.search);
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['content-type'], 'application/gzip');
    const lines = gunzipSync(ok.rawPayload).toString().trim().split('\n');
    assert.equal(lines[0], 'email,number,connection');
    assert.equal(lines.length, 4);
    assert.match(lines[1]!, new RegExp(`^[^,]+@[^,]+,\\d*,${REALM}$`));

    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    assert.equal((await download(tampered.pathname + tampered.search)).statusCode, 403);
    assert.equal((await download(url.pathname.replace('users.csv.gz', 'users.json.gz') + url.search)).statusCode, 403);
    assert.equal((await download(url.pathname)).statusCode, 403);
    const expired = await withClockAdvanced(t, 3601_000, () => download(url.pathname + url.search));
    assert.equal(expired.statusCode, 403);
    assert.equal(expired.json().error, 'access_denied');

    const jsonJob = (await t.management('POST', '/api/v2/jobs/users-exports', { body: { format: 'json', fields: [{ name: 'user_id' }, { name: 'email', export_as: 'mail' }] } })).json() as Job;
    await runner.runOnce();
    const location = new URL(((await t.management('GET', `/api/v2/jobs/${jsonJob.id}`)).json() as Job).location!);
    const rows = gunzipSync((await download(location.pathname + location.search)).rawPayload).toString().trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(rows.length, Number((await t.management('GET', '/api/v2/users?include_totals=true&per_page=1')).json().total));
    assert.deepEqual(Object.keys(rows[0]).sort(), ['mail', 'user_id']);
    assert.equal((await t.management('POST', '/api/v2/jobs/users-exports', { body: { format: 'xml' } })).statusCode, 400);
  });

  it('exports a tenant larger than a page by keyset, a part per page, streamed back in order with every user once', async () => {
    const hash = bcrypt.hashSync('page-password', 4);
    const users = Array.from({ length: 2_345 }, (_, i) => ({ email: `paged${i}@export.example`, password_hash: hash }));
    const imported = (await upload(JSON.stringify(users))).json() as Job;
    await runner.runOnce();
    assert.equal(((await t.management('GET', `/api/v2/jobs/${imported.id}`)).json() as Job).summary?.inserted, users.length);
    const total = Number((await t.management('GET', '/api/v2/users?include_totals=true&per_page=1')).json().total);
    assert.ok(total > 2_000, String(total));

    const created = (await t.management('POST', '/api/v2/jobs/users-exports', { body: { format: 'json', fields: [{ name: 'user_id' }, { name: 'created_at' }] } })).json() as Job;
    await runner.runOnce();
    const parts = await t.ctx.database.db.selectFrom('job_file_parts').select('part').where('job_id', '=', created.id).orderBy('part').execute();
    assert.deepEqual(parts.map((p) => p.part), Array.from({ length: Math.ceil(total / 1000) }, (_, i) => i), 'one part per page of 1,000');
    const location = new URL(((await t.management('GET', `/api/v2/jobs/${created.id}`)).json() as Job).location!);
    const download = await t.app.inject({ method: 'GET', url: location.pathname + location.search, headers: { host: DOMAIN } });
    assert.equal(download.statusCode, 200);
    const rows = gunzipSync(download.rawPayload).toString().trim().split('\n').map((l) => JSON.parse(l) as { user_id: string; created_at: string });
    assert.equal(rows.length, total);
    assert.equal(new Set(rows.map((r) => r.user_id)).size, total, 'every user once');
    const order = (a: { user_id: string; created_at: string }, b: { user_id: string; created_at: string }) => (a.created_at === b.created_at ? (a.user_id < b.user_id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1);
    assert.deepEqual(rows, [...rows].sort(order), 'in creation order');

    // A job that has not completed has no download, even with a signed link for it.
    const pending = (await t.management('POST', '/api/v2/jobs/users-exports', { body: { format: 'json' } })).json() as Job;
    const early = location.pathname.replace(created.id, pending.id) + location.search;
    assert.equal((await t.app.inject({ method: 'GET', url: early, headers: { host: DOMAIN } })).statusCode, 403);
    await runner.runOnce();
  });

  it('sends a verification email from a job', async () => {
    const user = (await t.management('GET', `/api/v2/users?q=${encodeURIComponent('email:"user3@import.example"')}`)).json()[0];
    const res = await t.management('POST', '/api/v2/jobs/verification-email', { body: { user_id: user.user_id } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().type, 'verification_email');
    await runner.runOnce();
    assert.equal(((await t.management('GET', `/api/v2/jobs/${res.json().id}`)).json() as Job).status, 'completed');
    const tickets = await t.ctx.database.db.selectFrom('tickets').select('kind').where('user_id', '=', user.user_id).execute();
    assert.deepEqual(tickets, [{ kind: 'email_verification' }]);
    assert.equal((await t.management('POST', '/api/v2/jobs/verification-email', { body: { user_id: 'auth0|nobody' } })).json().errorCode, 'inexistent_user');
  });
});
