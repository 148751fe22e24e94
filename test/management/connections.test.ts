/** /api/v2/connections and /api/v2/connections/{id}/clients through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';

interface Connection {
  id: string;
  name: string;
  display_name?: string;
  strategy: string;
  options: Record<string, unknown>;
  is_domain_connection: boolean;
  realms: string[];
  metadata?: Record<string, string>;
  enabled_clients?: string[];
}

const badRequest = (message: string, errorCode = 'invalid_body') => ({ statusCode: 400, error: 'Bad Request', message, errorCode });
const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'The connection does not exist', errorCode: 'inexistent_connection' };
const CLIENT_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'The client does not exist', errorCode: 'inexistent_client' };

describe('/api/v2/connections', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  async function create(body: Record<string, unknown>): Promise<Connection> {
    const res = await t.management('POST', '/api/v2/connections', { body: { strategy: 'auth0', ...body } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Connection;
  }

  it('creates (201) a database connection with its options and enabled clients; gets, updates, deletes (204)', async () => {
    const app = await insertClient(t);
    const options = {
      passwordPolicy: 'good',
      password_complexity_options: { min_length: 10 },
      requires_username: true,
      validation: { username: { min: 3, max: 20 } },
      brute_force_protection: true,
      disable_signup: false,
      import_mode: false,
      password_history: { enable: true, size: 5 },
      password_no_personal_info: { enable: true },
      password_dictionary: { enable: true, dictionary: ['gatehouse'] },
      // The document lets options carry members it does not declare.
      custom_flag: 'kept',
    };
    const res = await t.management('POST', '/api/v2/connections', {
      body: { name: 'Username-Password-Authentication', strategy: 'auth0', options, enabled_clients: [app.client_id], metadata: { team: 'a' } },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json() as Connection;
    assert.match(created.id, /^con_[A-Za-z0-9]{16}$/);
    assert.deepEqual(created, {
      id: created.id,
      name: 'Username-Password-Authentication',
      strategy: 'auth0',
      options,
      is_domain_connection: false,
      realms: ['Username-Password-Authentication'],
      metadata: { team: 'a' },
      enabled_clients: [app.client_id],
    });

    const got = await t.management('GET', `/api/v2/connections/${created.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), created);

    const some = await t.management('GET', `/api/v2/connections/${created.id}?fields=id,name`);
    assert.deepEqual(some.json(), { id: created.id, name: created.name });
    const without = await t.management('GET', `/api/v2/connections/${created.id}?fields=options,enabled_clients,metadata&include_fields=false`);
    assert.deepEqual(without.json(), { id: created.id, name: created.name, strategy: 'auth0', is_domain_connection: false, realms: created.realms });

    // options replace the whole object; enabled_clients replace the set.
    const patched = await t.management('PATCH', `/api/v2/connections/${created.id}`, {
      body: { options: { passwordPolicy: 'excellent' }, display_name: 'Sign in', enabled_clients: [], is_domain_connection: true },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(patched.json(), {
      ...created,
      options: { passwordPolicy: 'excellent' },
      display_name: 'Sign in',
      enabled_clients: [],
      is_domain_connection: true,
    });
    assert.deepEqual((await t.management('GET', `/api/v2/connections/${created.id}`)).json(), patched.json());

    const nulled = await t.management('PATCH', `/api/v2/connections/${created.id}`, { body: { options: null, enabled_clients: null } });
    assert.equal(nulled.statusCode, 200);
    assert.deepEqual((nulled.json() as Connection).options, {});

    const deleted = await t.management('DELETE', `/api/v2/connections/${created.id}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const gone = await t.management('GET', `/api/v2/connections/${created.id}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), NOT_FOUND);
  });

  it('deletes the users of a connection with it', async () => {
    const connection = await create({ name: 'with-users' });
    const now = new Date().toISOString();
    const db = t.ctx.database.db;
    await db
      .insertInto('users')
      .values({
        tenant_id: t.tenant.id, user_id: 'auth0|u1', connection_id: connection.id, email: 'a@example.test', email_lower: 'a@example.test',
        email_verified: 0, username: null, username_lower: null, phone_number: null, password_hash: null, blocked: 0, name: null,
        given_name: null, family_name: null, nickname: null, picture: null, app_metadata: '{}', user_metadata: '{}',
        created_at: now, updated_at: now, last_login: null, last_password_reset: null, logins_count: 0,
      } as never)
      .execute();
    assert.equal((await t.management('DELETE', `/api/v2/connections/${connection.id}`)).statusCode, 204);
    const left = await db.selectFrom('users').select('user_id').where('tenant_id', '=', t.tenant.id).where('connection_id', '=', connection.id).execute();
    assert.deepEqual(left, []);
  });

  it('404 for a connection that does not exist, on every operation', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/v2/connections/con_doesnotexist0000', undefined],
      ['PATCH', '/api/v2/connections/con_doesnotexist0000', { display_name: 'x' }],
      ['DELETE', '/api/v2/connections/con_doesnotexist0000', undefined],
      ['GET', '/api/v2/connections/con_doesnotexist0000/clients', undefined],
      ['PATCH', '/api/v2/connections/con_doesnotexist0000/clients', [{ client_id: 'abc', status: true }]],
    ] as const) {
      const res = await t.management(method, url, body === undefined ? {} : { body });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.deepEqual(res.json(), NOT_FOUND);
    }
  });

  it('names are unique in the tenant: 409', async () => {
    await create({ name: 'unique-one' });
    const dup = await t.management('POST', '/api/v2/connections', { body: { name: 'unique-one', strategy: 'auth0' } });
    assert.equal(dup.statusCode, 409);
    assert.deepEqual(dup.json(), { statusCode: 409, error: 'Conflict', message: 'A connection with the same name already exists', errorCode: 'conflict' });
  });

  it('refuses strategies other than auth0, samlp and email with 400 operation_not_supported, and unknown ones as invalid_body', async () => {
    const adfs = await t.management('POST', '/api/v2/connections', { body: { name: 'adfs', strategy: 'adfs' } });
    assert.equal(adfs.statusCode, 400);
    const refusal = adfs.json<{ message: string; errorCode: string }>();
    assert.equal(refusal.errorCode, 'operation_not_supported');
    // The list of supported strategies grows with the registry (src/domain/connections/strategies/index.ts).
    assert.match(refusal.message, /^The strategy adfs is not supported; Gatehouse supports auth0, samlp, email, sms, oidc, .* connections only\.$/);
    const unknown = await t.management('POST', '/api/v2/connections', { body: { name: 'x', strategy: 'nope' } });
    assert.deepEqual(
      unknown.json(),
      badRequest("Payload validation error: 'No enum match for: nope' on property strategy (The identity provider identifier for the connection)."),
    );
  });

  it('refuses invalid bodies with the service messages', async () => {
    const NAME = "The name of the connection. Must start and end with an alphanumeric character and can only contain alphanumeric characters and '-'. Max length 128";
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v2/connections', { strategy: 'auth0' }, "Payload validation error: 'Missing required property: name'."],
      ['POST', '/api/v2/connections', { name: 'x' }, "Payload validation error: 'Missing required property: strategy'."],
      [
        'POST', '/api/v2/connections', { name: '-bad', strategy: 'auth0' },
        `Payload validation error: 'String does not match pattern ^[a-zA-Z0-9](-[a-zA-Z0-9]|[a-zA-Z0-9])*$: -bad' on property name (${NAME}).`,
      ],
      [
        'POST', '/api/v2/connections', { name: 'a'.repeat(129), strategy: 'auth0' },
        `Payload validation error: 'String is too long (129 chars), maximum 128' on property name (${NAME}).`,
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', show_as_button: true },
        "Payload validation error: 'show_as_button is only available on enterprise connections' on property show_as_button.",
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', options: { passwordPolicy: 'strong' } },
        "Payload validation error: 'No enum match for: strong' on property options.passwordPolicy (Password strength level).",
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', options: { password_complexity_options: { min_length: 0 } } },
        "Payload validation error: 'Value 0 is less than minimum 1' on property options.password_complexity_options.min_length (Minimum password length).",
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', options: { requires_username: 'yes' } },
        "Payload validation error: 'Expected type boolean but found type string' on property options.requires_username (Indicates whether the user is required to provide a username in addition to an email address.).",
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', options: { validation: { username: { min: 1, max: 129 } } } },
        "Payload validation error: 'Value 129 is greater than maximum 128' on property options.validation.username.max.",
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', options: { password_history: { size: 3 } } },
        "Payload validation error: 'Missing required property: enable' on property options.password_history (Options for password history policy).",
      ],
      [
        'POST', '/api/v2/connections', { name: 'x', strategy: 'auth0', enabled_clients: ['bad client'] },
        "Payload validation error: 'Object didn't pass validation for format client-id: bad client' on property enabled_clients[0] (The id of the client for which the connection is to be enabled.).",
      ],
      ['PATCH', '/api/v2/connections/con_doesnotexist0000', {}, "Payload validation error: 'Too few properties defined (0), minimum 1'."],
      ['PATCH', '/api/v2/connections/con_doesnotexist0000', { name: 'renamed' }, "Payload validation error: 'Additional properties not allowed: name'."],
      ['PATCH', '/api/v2/connections/con_doesnotexist0000/clients', [], "Payload validation error: 'Array is too short (0), minimum 1'."],
      [
        'PATCH', '/api/v2/connections/con_doesnotexist0000/clients', [{ client_id: 'abc' }],
        "Payload validation error: 'Missing required property: status' on property [0]." ,
      ],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await t.management(method, url, { body });
      assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(body)}: ${res.body}`);
      assert.deepEqual(res.json(), badRequest(message), JSON.stringify(body));
    }
  });

  it('enabled_clients must name clients of the tenant: 404 on create and update', async () => {
    const missing = await t.management('POST', '/api/v2/connections', { body: { name: 'no-client', strategy: 'auth0', enabled_clients: ['doesnotexist'] } });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), CLIENT_NOT_FOUND);
    assert.equal((await t.management('GET', '/api/v2/connections?name=no-client')).body, '[]');
    const connection = await create({ name: 'client-check' });
    const patched = await t.management('PATCH', `/api/v2/connections/${connection.id}`, { body: { enabled_clients: ['doesnotexist'] } });
    assert.equal(patched.statusCode, 404);
    assert.deepEqual(patched.json(), CLIENT_NOT_FOUND);
  });

  it('/connections/{id}/clients: enables and disables clients (204), lists them by checkpoint', async () => {
    const connection = await create({ name: 'clients-endpoints' });
    const clients = [await insertClient(t), await insertClient(t), await insertClient(t)].map((c) => c.client_id).sort();
    const empty = await t.management('GET', `/api/v2/connections/${connection.id}/clients`);
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(empty.json(), { clients: [] });

    const enable = await t.management('PATCH', `/api/v2/connections/${connection.id}/clients`, {
      body: clients.map((client_id) => ({ client_id, status: true })),
    });
    assert.equal(enable.statusCode, 204, enable.body);
    const all = await t.management('GET', `/api/v2/connections/${connection.id}/clients`);
    assert.deepEqual(all.json(), { clients: clients.map((client_id) => ({ client_id })) });

    const first = (await t.management('GET', `/api/v2/connections/${connection.id}/clients?take=2`)).json() as { clients: unknown[]; next?: string };
    assert.deepEqual(first.clients, clients.slice(0, 2).map((client_id) => ({ client_id })));
    assert.equal(typeof first.next, 'string');
    const second = await t.management('GET', `/api/v2/connections/${connection.id}/clients?take=2&from=${encodeURIComponent(first.next!)}`);
    assert.deepEqual(second.json(), { clients: [{ client_id: clients[2] }] });
    const forged = await t.management('GET', `/api/v2/connections/${connection.id}/clients?from=forged`);
    assert.deepEqual(
      forged.json(),
      badRequest("Query validation error: 'Invalid or expired checkpoint' on property from (Optional Id from which to start selection).", 'invalid_query_string'),
    );

    const disable = await t.management('PATCH', `/api/v2/connections/${connection.id}/clients`, { body: [{ client_id: clients[1], status: false }] });
    assert.equal(disable.statusCode, 204);
    const got = (await t.management('GET', `/api/v2/connections/${connection.id}`)).json() as Connection;
    assert.deepEqual(got.enabled_clients, [clients[0], clients[2]]);

    const unknown = await t.management('PATCH', `/api/v2/connections/${connection.id}/clients`, { body: [{ client_id: 'doesnotexist', status: true }] });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), CLIENT_NOT_FOUND);

    // The login code's view.
    const store = (await import('../../src/storage/kysely/connections.js')).KyselyConnectionStore;
    const connections = new store(t.ctx.database.db);
    assert.deepEqual((await connections.enabledForClient(t.tenant.id, clients[0]!)).map((c) => c.id), [connection.id]);
    assert.deepEqual(await connections.enabledForClient(t.tenant.id, clients[1]!), []);
    assert.equal((await connections.getByName(t.tenant.id, 'clients-endpoints'))?.id, connection.id);
  });

  it('lists as an array, with totals, by checkpoint, filtered by strategy and name, without enabled_clients', async () => {
    const fresh = await createTestApp();
    try {
      const made: Connection[] = [];
      for (const name of ['one', 'two', 'three']) {
        const res = await fresh.management('POST', '/api/v2/connections', { body: { name, strategy: 'auth0' } });
        const { enabled_clients: _, ...item } = res.json() as Connection;
        made.push(item);
      }
      made.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const plain = await fresh.management('GET', '/api/v2/connections');
      assert.equal(plain.statusCode, 200);
      assert.deepEqual(plain.json(), made);

      const totals = await fresh.management('GET', '/api/v2/connections?include_totals=true&per_page=2&page=1');
      assert.deepEqual(totals.json(), { total: 3, start: 2, limit: 2, connections: made.slice(2) });

      const page1 = (await fresh.management('GET', '/api/v2/connections?take=2')).json() as { connections: Connection[]; next?: string };
      assert.deepEqual(page1.connections, made.slice(0, 2));
      const page2 = await fresh.management('GET', `/api/v2/connections?take=2&from=${encodeURIComponent(page1.next!)}`);
      assert.deepEqual(page2.json(), { connections: made.slice(2) });

      assert.deepEqual((await fresh.management('GET', '/api/v2/connections?name=two')).json(), made.filter((c) => c.name === 'two'));
      assert.deepEqual((await fresh.management('GET', '/api/v2/connections?strategy=auth0')).json(), made);
      assert.deepEqual((await fresh.management('GET', '/api/v2/connections?strategy=google-oauth2&strategy=samlp')).json(), []);
      assert.deepEqual(
        (await fresh.management('GET', '/api/v2/connections?fields=name')).json(),
        made.map((c) => ({ name: c.name })),
      );
      const bad = await fresh.management('GET', '/api/v2/connections?strategy=nope');
      assert.equal(bad.statusCode, 400);
      assert.equal((bad.json() as { errorCode: string }).errorCode, 'invalid_query_string');
    } finally {
      await fresh.close();
    }
  });

  it('requires the scope of each operation', async () => {
    const connection = await create({ name: 'scoped' });
    const read = await t.managementToken('read:connections');
    assert.equal((await t.management('GET', '/api/v2/connections', { token: read })).statusCode, 200);
    assert.equal((await t.management('GET', `/api/v2/connections/${connection.id}/clients`, { token: read })).statusCode, 200);
    for (const [method, url, body, scope] of [
      ['POST', '/api/v2/connections', { name: 'nope', strategy: 'auth0' }, 'create:connections'],
      ['PATCH', `/api/v2/connections/${connection.id}`, { display_name: 'x' }, 'update:connections'],
      ['PATCH', `/api/v2/connections/${connection.id}/clients`, [{ client_id: 'abc', status: false }], 'update:connections'],
      ['DELETE', `/api/v2/connections/${connection.id}`, undefined, 'delete:connections'],
    ] as const) {
      const res = await t.management(method, url, { token: read, ...(body !== undefined && { body }) });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.deepEqual(res.json(), {
        statusCode: 403,
        error: 'Forbidden',
        message: `Insufficient scope, expected any of: ${scope}`,
        errorCode: 'insufficient_scope',
      });
    }
    const write = await t.managementToken('update:connections');
    const res = await t.management('GET', '/api/v2/connections', { token: write });
    assert.deepEqual(res.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: read:connections', errorCode: 'insufficient_scope' });
  });
});
