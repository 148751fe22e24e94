/** /api/v2/groups and /api/v2/groups/{id}/roles through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomString } from '../../src/platform/crypto/ids.js';
import { GROUP_ID_ALPHABET } from '../../src/domain/groups/model.js';
import { KyselyGroupStore } from '../../src/storage/kysely/groups.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

interface Role {
  id: string;
  name: string;
  description: string | null;
}

interface Group {
  id: string;
  name: string;
  description?: string;
  external_id?: string;
  connection_id?: string;
  tenant_name: string;
  created_at: string;
  updated_at: string;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const byCodepoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A group id of `length` characters (18 to 26 are valid), `grp_` + base58. */
function groupIdOfLength(length: number): string {
  return `grp_${randomString(length - 4, GROUP_ID_ALPHABET)}`;
}

function badRequest(message: string, errorCode?: string): Record<string, unknown> {
  return { statusCode: 400, error: 'Bad Request', message, ...(errorCode !== undefined && { errorCode }) };
}

const GROUP_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Group not found.', errorCode: 'inexistent_group' };
const ROLE_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'The role does not exist.' };
const PATH_DESCRIPTION = 'Unique identifier for the group (service-generated)';
const REMOVE_DESCRIPTION = 'Array of role IDs to remove from the group';

describe('/api/v2/groups', () => {
  let t: TestApp;
  let store: KyselyGroupStore;
  let roleSeq = 0;

  before(async () => {
    t = await createTestApp();
    store = new KyselyGroupStore(t.ctx.database.db);
  });
  after(() => t.close());

  async function createRole(name = `role-${++roleSeq}`): Promise<string> {
    const res = await t.management('POST', '/api/v2/roles', { body: { name } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as Role).id;
  }

  async function createGroup(body: Record<string, unknown> = { name: `group-${randomString(8)}` }): Promise<Group> {
    const res = await t.management('POST', '/api/v2/groups', { body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Group;
  }

  /** A group with an id of our choosing, as a directory connection would create it. */
  async function insertGroup(id: string, extra: { connection_id?: string } = {}): Promise<void> {
    const now = new Date().toISOString();
    await store.insert({
      tenant_id: t.tenant.id,
      id,
      name: `imported-${id}`,
      description: null,
      external_id: null,
      connection_id: extra.connection_id ?? null,
      organization_id: null,
      created_at: now,
      updated_at: now,
    });
  }

  async function assign(groupId: string, roles: string[]): Promise<void> {
    const res = await t.management('POST', `/api/v2/groups/${groupId}/roles`, { body: { roles } });
    assert.equal(res.statusCode, 204, res.body);
  }

  /** The role ids assigned to a group, sorted, read through GET /groups/{id}/roles. */
  async function assigned(groupId: string): Promise<string[]> {
    const res = await t.management('GET', `/api/v2/groups/${groupId}/roles?take=100`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { roles: Role[]; next?: string };
    assert.equal(body.next, undefined);
    return body.roles.map((r) => r.id).sort(byCodepoint);
  }

  describe('POST /groups (Gatehouse extension), GET /groups/{id}, DELETE /groups/{id}', () => {
    it('creates a tenant group (201) with the service fields; gets it; deletes it (204) with its role assignments', async () => {
      const res = await t.management('POST', '/api/v2/groups', { body: { name: 'Engineering', description: 'All engineers', external_id: 'eng-1' } });
      assert.equal(res.statusCode, 201, res.body);
      const group = res.json() as Group;
      assert.match(group.id, /^grp_[1-9a-km-zA-HJ-NP-Z]{22}$/);
      assert.deepEqual(Object.keys(group), ['id', 'name', 'description', 'external_id', 'tenant_name', 'created_at', 'updated_at']);
      assert.equal(group.name, 'Engineering');
      assert.equal(group.description, 'All engineers');
      assert.equal(group.external_id, 'eng-1');
      assert.equal(group.tenant_name, t.tenant.name);
      assert.equal(group.created_at, group.updated_at);
      assert.ok(!Number.isNaN(Date.parse(group.created_at)));

      const got = await t.management('GET', `/api/v2/groups/${group.id}`);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), group);

      const bare = await createGroup({ name: 'Bare' });
      assert.deepEqual(Object.keys(bare), ['id', 'name', 'tenant_name', 'created_at', 'updated_at']);

      const role = await createRole();
      await assign(group.id, [role]);
      const deleted = await t.management('DELETE', `/api/v2/groups/${group.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.equal(deleted.body, '');
      const rows = await t.ctx.database.db.selectFrom('group_roles').selectAll().where('group_id', '=', group.id).execute();
      assert.deepEqual(rows, [], 'the assignments went with the group');
      const roleStill = await t.management('GET', `/api/v2/roles/${role}`);
      assert.equal(roleStill.statusCode, 200, 'the role itself stays');

      for (const method of ['GET', 'DELETE']) {
        const gone = await t.management(method, `/api/v2/groups/${group.id}`);
        assert.equal(gone.statusCode, 404, method);
        assert.deepEqual(gone.json(), GROUP_NOT_FOUND);
      }
    });

    it('accepts a form body; refuses unknown properties, bad names and duplicates', async () => {
      const form = await t.management('POST', '/api/v2/groups', { body: 'name=From%20a%20form', headers: FORM });
      assert.equal(form.statusCode, 201, form.body);
      assert.equal((form.json() as Group).name, 'From a form');

      const nameDescription =
        'Name of the group. Must be unique within its connection. Must contain between 1 and 128 printable ASCII characters';
      const cases: [unknown, string][] = [
        [{ name: 'x', connection_id: 'con_1' }, "Payload validation error: 'Additional properties not allowed: connection_id'."],
        [{}, "Payload validation error: 'Missing required property: name'."],
        [{ name: '' }, `Payload validation error: 'String is too short (0 chars), minimum 1' on property name (${nameDescription}).`],
        [{ name: 'x'.repeat(129) }, `Payload validation error: 'String is too long (129 chars), maximum 128' on property name (${nameDescription}).`],
        [{ name: 'tab\there' }, `Payload validation error: 'String does not match pattern ^[\\x20-\\x7E]+$: tab\there' on property name (${nameDescription}).`],
        [
          { name: 'x', external_id: 'e'.repeat(257) },
          "Payload validation error: 'String is too long (257 chars), maximum 256' on property external_id (External identifier for the group, often used for SCIM synchronization. Max length of 256 characters).",
        ],
      ];
      for (const [body, message] of cases) {
        const res = await t.management('POST', '/api/v2/groups', { body });
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.deepEqual(res.json(), badRequest(message, 'invalid_body'));
      }
      const ok = await t.management('POST', '/api/v2/groups', { body: { name: 'x'.repeat(128), external_id: 'e'.repeat(256) } });
      assert.equal(ok.statusCode, 201, 'both maxima are allowed');

      await createGroup({ name: 'Twice' });
      const dup = await t.management('POST', '/api/v2/groups', { body: { name: 'Twice' } });
      assert.equal(dup.statusCode, 409);
      assert.deepEqual(dup.json(), { statusCode: 409, error: 'Conflict', message: 'A group with the same name already exists.', errorCode: 'conflict' });
    });

    it('validates the path id length (18..26) on GET and DELETE', async () => {
      for (const method of ['GET', 'DELETE']) {
        const short = await t.management(method, `/api/v2/groups/${groupIdOfLength(17)}`);
        assert.equal(short.statusCode, 400);
        assert.deepEqual(
          short.json(),
          badRequest(`Path validation error: 'String is too short (17 chars), minimum 18' on property id (${PATH_DESCRIPTION}).`, 'invalid_uri'),
        );
        const long = await t.management(method, `/api/v2/groups/${groupIdOfLength(27)}`);
        assert.deepEqual(
          long.json(),
          badRequest(`Path validation error: 'String is too long (27 chars), maximum 26' on property id (${PATH_DESCRIPTION}).`, 'invalid_uri'),
        );
      }
      const id = groupIdOfLength(18);
      await insertGroup(id);
      assert.equal((await t.management('GET', `/api/v2/groups/${id}`)).statusCode, 200);
      assert.equal((await t.management('DELETE', `/api/v2/groups/${id}`)).statusCode, 204);
    });

    it('scopes: read:groups to read, delete:groups to delete, create:groups (Gatehouse’s) to create', async () => {
      const group = await createGroup();
      const reader = await t.managementToken('read:groups');
      const roleReader = await t.managementToken('read:group_roles create:group_roles');
      const cases: [string, string, string, string, unknown][] = [
        ['GET', '/api/v2/groups', 'read:groups', roleReader, undefined],
        ['GET', `/api/v2/groups/${group.id}`, 'read:groups', roleReader, undefined],
        ['DELETE', `/api/v2/groups/${group.id}`, 'delete:groups', reader, undefined],
        ['POST', '/api/v2/groups', 'create:groups', roleReader, { name: 'Nope' }],
      ];
      for (const [method, url, scope, token, body] of cases) {
        const res = await t.management(method, url, { token, ...(body !== undefined && { body }) });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.deepEqual(res.json(), {
          statusCode: 403,
          error: 'Forbidden',
          message: `Insufficient scope, expected any of: ${scope}`,
          errorCode: 'insufficient_scope',
        });
      }
      const creator = await t.managementToken('create:groups');
      assert.equal((await t.management('POST', '/api/v2/groups', { token: creator, body: { name: 'Made with create:groups' } })).statusCode, 201);
    });
  });

  describe('GET /groups', () => {
    let app: TestApp;
    let made: Group[];
    before(async () => {
      app = await createTestApp();
      made = [];
      for (const body of [
        { name: 'Sales EMEA', external_id: 'sales-emea' },
        { name: 'Engineering' },
        { name: 'Support', external_id: 'SALES-SUPPORT' },
        { name: 'Finance' },
        { name: 'Legal' },
      ]) {
        const res = await app.management('POST', '/api/v2/groups', { body });
        made.push(res.json() as Group);
      }
      made.sort((a, b) => byCodepoint(a.id, b.id));
    });
    after(() => app.close());

    it('offset paging: an array, or {groups, start, limit, total} with include_totals', async () => {
      const plain = await app.management('GET', '/api/v2/groups');
      assert.equal(plain.statusCode, 200);
      assert.deepEqual(plain.json(), made);

      const totals = await app.management('GET', '/api/v2/groups?include_totals=true&page=1&per_page=2');
      const body = totals.json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['groups', 'start', 'limit', 'total']);
      assert.deepEqual(body, { groups: made.slice(2, 4), start: 2, limit: 2, total: 5 });
      assert.deepEqual((await app.management('GET', '/api/v2/groups?page=3&per_page=2')).json(), []);
    });

    it('checkpoint paging when from or take is given (what the SDK sends): {groups, next?}, next absent on the last page', async () => {
      // The SDK's first request: include_totals=true&take=50; take wins.
      const sdk = await app.management('GET', '/api/v2/groups?include_totals=true&take=50');
      assert.deepEqual(sdk.json(), { groups: made });

      const seen: Group[] = [];
      let url = '/api/v2/groups?take=2';
      let pages = 0;
      for (;;) {
        const res = await app.management('GET', url);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as { groups: Group[]; next?: string };
        seen.push(...body.groups);
        pages++;
        if (body.next === undefined) break;
        assert.deepEqual(Object.keys(body), ['groups', 'next']);
        url = `/api/v2/groups?take=2&from=${encodeURIComponent(body.next)}`;
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, made);

      const forged = await app.management('GET', '/api/v2/groups?take=2&from=grp_notacheckpoint');
      assert.equal(forged.statusCode, 400);
      assert.deepEqual(
        forged.json(),
        badRequest("Query validation error: 'Invalid or expired checkpoint' on property from (Optional Id from which to start selection).", 'invalid_query_string'),
      );
    });

    it('filters by name, external_id, search (name or external id, case-insensitive) and connection_id', async () => {
      const get = async (query: string) => (await app.management('GET', `/api/v2/groups?${query}`)).json() as Group[];
      const names = (groups: Group[]) => groups.map((g) => g.name).sort();
      assert.deepEqual(names(await get('name=Support')), ['Support']);
      assert.deepEqual(names(await get('name=support')), []);
      assert.deepEqual(names(await get('external_id=sales-emea')), ['Sales EMEA']);
      assert.deepEqual(names(await get('search=sales')), ['Sales EMEA', 'Support']);
      assert.deepEqual(names(await get('search=GINEER')), ['Engineering']);
      assert.deepEqual(names(await get('connection_id=con_none')), []);
      assert.deepEqual(names(await get('search=sales&name=Support')), ['Support']);

      const empty = await app.management('GET', '/api/v2/groups?name=');
      assert.equal(empty.statusCode, 400);
      assert.deepEqual(
        empty.json(),
        badRequest("Query validation error: 'String is too short (0 chars), minimum 1' on property name (Filter groups by name).", 'invalid_query_string'),
      );
    });

    it('fields and include_fields select the members of each group', async () => {
      const included = (await app.management('GET', '/api/v2/groups?fields=id,name&include_totals=true')).json() as { groups: Group[] };
      assert.deepEqual(included.groups, made.map((g) => ({ id: g.id, name: g.name })));
      const excluded = (await app.management('GET', '/api/v2/groups?fields=created_at,updated_at,tenant_name&include_fields=false')).json() as Group[];
      assert.deepEqual(
        excluded,
        made.map(({ created_at: _c, updated_at: _u, tenant_name: _t, ...rest }) => rest),
      );
    });

    it('per_page and take are 1 to 100', async () => {
      for (const [query, message] of [
        ['per_page=101', "Query validation error: 'Value 101 is greater than maximum 100' on property per_page (Number of results per page. Defaults to 50.)."],
        ['take=0', "Query validation error: 'Value 0 is less than minimum 1' on property take (Number of results per page. Defaults to 50.)."],
      ]) {
        const res = await app.management('GET', `/api/v2/groups?${query}`);
        assert.equal(res.statusCode, 400, query);
        assert.deepEqual(res.json(), badRequest(message!, 'invalid_query_string'));
      }
    });
  });

  describe('GET and POST /groups/{id}/roles', () => {
    it('lists roles by checkpoint ({roles, next?}, next absent on the last page); 404 for an unknown group', async () => {
      const group = await createGroup();
      const empty = await t.management('GET', `/api/v2/groups/${group.id}/roles`);
      assert.equal(empty.statusCode, 200);
      assert.deepEqual(empty.json(), { roles: [] });

      const roles = [await createRole(), await createRole(), await createRole()];
      await assign(group.id, roles);
      const first = await t.management('GET', `/api/v2/groups/${group.id}/roles?take=2`);
      const page1 = first.json() as { roles: Role[]; next?: string };
      assert.deepEqual(Object.keys(page1), ['roles', 'next']);
      assert.equal(page1.roles.length, 2);
      assert.deepEqual(Object.keys(page1.roles[0]!), ['id', 'name', 'description']);
      const second = await t.management('GET', `/api/v2/groups/${group.id}/roles?take=2&from=${encodeURIComponent(page1.next!)}`);
      const page2 = second.json() as { roles: Role[]; next?: string };
      assert.deepEqual(Object.keys(page2), ['roles']);
      assert.deepEqual([...page1.roles, ...page2.roles].map((r) => r.id), [...roles].sort(byCodepoint));

      // A checkpoint of one group's roles is no good for another's.
      const other = await createGroup();
      const crossed = await t.management('GET', `/api/v2/groups/${other.id}/roles?take=2&from=${encodeURIComponent(page1.next!)}`);
      assert.equal(crossed.statusCode, 400);

      const unknown = await t.management('GET', `/api/v2/groups/${groupIdOfLength(20)}/roles`);
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(unknown.json(), GROUP_NOT_FOUND);
    });

    it('assigns (204), idempotently; an unknown role refuses the whole request (404, nothing assigned)', async () => {
      const group = await createGroup();
      const [a, b, c] = [await createRole(), await createRole(), await createRole()];
      await assign(group.id, [a]);
      await assign(group.id, [a, b]);
      assert.deepEqual(await assigned(group.id), [a, b].sort(byCodepoint));

      const refused = await t.management('POST', `/api/v2/groups/${group.id}/roles`, { body: { roles: [c, 'rol_0000000000000000'] } });
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), ROLE_NOT_FOUND);
      assert.deepEqual(await assigned(group.id), [a, b].sort(byCodepoint), 'c was not assigned either');

      const unknownGroup = await t.management('POST', `/api/v2/groups/${groupIdOfLength(22)}/roles`, { body: { roles: [c] } });
      assert.deepEqual(unknownGroup.json(), GROUP_NOT_FOUND);

      const form = await t.management('POST', `/api/v2/groups/${group.id}/roles`, { body: `roles=${c}`, headers: FORM });
      assert.equal(form.statusCode, 204, form.body);
      assert.deepEqual(await assigned(group.id), [a, b, c].sort(byCodepoint));

      const empty = await t.management('POST', `/api/v2/groups/${group.id}/roles`, { body: { roles: [] } });
      assert.deepEqual(
        empty.json(),
        badRequest("Payload validation error: 'Array is too short (0), minimum 1' on property roles (Array of role IDs to assign to the group).", 'invalid_body'),
      );
      const reader = await t.managementToken('read:groups read:group_roles');
      const forbidden = await t.management('POST', `/api/v2/groups/${group.id}/roles`, { token: reader, body: { roles: [a] } });
      assert.deepEqual(forbidden.json(), {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Insufficient scope, expected any of: create:group_roles',
        errorCode: 'insufficient_scope',
      });
      const writer = await t.managementToken('create:group_roles');
      const cannotRead = await t.management('GET', `/api/v2/groups/${group.id}/roles`, { token: writer });
      assert.equal((cannotRead.json() as { message: string }).message, 'Insufficient scope, expected any of: read:group_roles');
    });

    it('deleting a role removes it from every group', async () => {
      const [g1, g2] = [await createGroup(), await createGroup()];
      const [doomed, kept] = [await createRole(), await createRole()];
      await assign(g1.id, [doomed, kept]);
      await assign(g2.id, [doomed]);
      assert.equal((await t.management('DELETE', `/api/v2/roles/${doomed}`)).statusCode, 200);
      assert.deepEqual(await assigned(g1.id), [kept]);
      assert.deepEqual(await assigned(g2.id), []);
    });
  });

  describe('DELETE /groups/{id}/roles (spec, operation 2)', () => {
    let group: Group;
    let roles: string[];
    before(async () => {
      group = await createGroup({ name: 'Removal target' });
      roles = [await createRole(), await createRole(), await createRole()];
    });

    const remove = (id: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) =>
      t.management('DELETE', `/api/v2/groups/${id}/roles`, options);

    it('401 without a token, before the body is looked at', async () => {
      for (const payload of [JSON.stringify({ roles: [roles[0]] }), '{"roles":']) {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/v2/groups/${group.id}/roles`,
          headers: { host: DOMAIN, 'content-type': 'application/json' },
          payload,
        });
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'Missing authentication' });
      }
    });

    it('403 with a token lacking delete:group_roles', async () => {
      const narrow = await t.managementToken('read:groups read:group_roles create:group_roles delete:groups');
      const res = await remove(group.id, { token: narrow, body: { roles: [roles[0]] } });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Insufficient scope, expected any of: delete:group_roles',
        errorCode: 'insufficient_scope',
      });
    });

    it('400 invalid_uri for a path id shorter than 18 or longer than 26, checked before the body', async () => {
      const short = await remove(groupIdOfLength(17), { body: { roles: [roles[0]] } });
      assert.equal(short.statusCode, 400);
      assert.deepEqual(
        short.json(),
        badRequest(`Path validation error: 'String is too short (17 chars), minimum 18' on property id (${PATH_DESCRIPTION}).`, 'invalid_uri'),
      );
      const veryShort = await remove('grp_1', { body: { roles: [] } });
      assert.deepEqual(
        veryShort.json(),
        badRequest(`Path validation error: 'String is too short (5 chars), minimum 18' on property id (${PATH_DESCRIPTION}).`, 'invalid_uri'),
      );
      const long = await remove(groupIdOfLength(27), { body: { roles: [roles[0]] } });
      assert.equal(long.statusCode, 400);
      assert.deepEqual(
        long.json(),
        badRequest(`Path validation error: 'String is too long (27 chars), maximum 26' on property id (${PATH_DESCRIPTION}).`, 'invalid_uri'),
      );
    });

    it('400 invalid_body for every malformed body, with the service messages', async () => {
      const cases: [unknown, string][] = [
        [{ roles: [] }, `Payload validation error: 'Array is too short (0), minimum 1' on property roles (${REMOVE_DESCRIPTION}).`],
        [{}, "Payload validation error: 'Missing required property: roles'."],
        [{ roles: roles[0] }, `Payload validation error: 'Expected type array but found type string' on property roles (${REMOVE_DESCRIPTION}).`],
        [{ roles: { 0: roles[0] } }, `Payload validation error: 'Expected type array but found type object' on property roles (${REMOVE_DESCRIPTION}).`],
        [{ roles: null }, `Payload validation error: 'Expected type array but found type null' on property roles (${REMOVE_DESCRIPTION}).`],
        [{ roles: [roles[0]], foo: 1 }, "Payload validation error: 'Additional properties not allowed: foo'."],
        [{ roles: [roles[0]], foo: 1, bar: 2 }, "Payload validation error: 'Additional properties not allowed: foo,bar'."],
        [
          { roles: [roles[0], 'foo'] },
          "Payload validation error: 'Object didn't pass validation for format role-id: foo' on property roles[1] (Unique identifier for the role (service-generated)).",
        ],
        [
          { roles: [7] },
          "Payload validation error: 'Expected type string but found type integer' on property roles[0] (Unique identifier for the role (service-generated)).",
        ],
        [[roles[0]], "Payload validation error: 'Expected type object but found type array'."],
      ];
      for (const [body, message] of cases) {
        const res = await remove(group.id, { body });
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.deepEqual(res.json(), badRequest(message, 'invalid_body'), JSON.stringify(body));
      }
      const none = await t.management('DELETE', `/api/v2/groups/${group.id}/roles`);
      assert.deepEqual(none.json(), badRequest("Payload validation error: 'Expected type object but found type null'.", 'invalid_body'));
    });

    it('400 for malformed JSON, 415 for a content type other than JSON or form', async () => {
      for (const payload of ['{"roles":', '', 'roles=a']) {
        const res = await remove(group.id, { body: payload, headers: { 'content-type': 'application/json' } });
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(res.json(), badRequest('Invalid request payload JSON format'));
      }
      for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
        const res = await remove(group.id, { body: 'roles', headers: { 'content-type': type } });
        assert.equal(res.statusCode, 415, type);
        assert.deepEqual(res.json(), { statusCode: 415, error: 'Unsupported Media Type', message: 'Unsupported Media Type' });
      }
    });

    it('404 Group not found for a well-formed id of no group', async () => {
      for (const length of [18, 26]) {
        const res = await remove(groupIdOfLength(length), { body: { roles: [roles[0]] } });
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), GROUP_NOT_FOUND);
      }
      // The path is checked for length only: another prefix of a valid length is just not found.
      const odd = await remove('xyz_0OIl0OIl0OIl0OIl', { body: { roles: [roles[0]] } });
      assert.deepEqual(odd.json(), GROUP_NOT_FOUND);
    });

    it('204 for ids of 18 and of 26 characters, one role in JSON', async () => {
      for (const length of [18, 26]) {
        const id = groupIdOfLength(length);
        await insertGroup(id, { connection_id: 'con_directory000001' });
        await assign(id, [roles[0]!, roles[1]!]);
        const res = await remove(id, { body: { roles: [roles[0]] } });
        assert.equal(res.statusCode, 204, res.body);
        assert.equal(res.body, '');
        assert.deepEqual(await assigned(id), [roles[1]!]);
      }
    });

    it('204 for a form body with one roles value and with two', async () => {
      await assign(group.id, roles);
      const one = await remove(group.id, { body: `roles=${roles[0]}`, headers: FORM });
      assert.equal(one.statusCode, 204, one.body);
      assert.deepEqual(await assigned(group.id), [roles[1]!, roles[2]!].sort(byCodepoint));
      const two = await remove(group.id, { body: `roles=${roles[1]}&roles=${roles[2]}`, headers: FORM });
      assert.equal(two.statusCode, 204, two.body);
      assert.deepEqual(await assigned(group.id), []);

      // Form bodies get the same validation.
      const extra = await remove(group.id, { body: `roles=${roles[0]}&foo=1`, headers: FORM });
      assert.deepEqual(extra.json(), badRequest("Payload validation error: 'Additional properties not allowed: foo'.", 'invalid_body'));
      const empty = await remove(group.id, { body: '', headers: FORM });
      assert.deepEqual(empty.json(), badRequest("Payload validation error: 'Missing required property: roles'.", 'invalid_body'));
      const blank = await remove(group.id, { body: 'roles=', headers: FORM });
      assert.deepEqual(
        blank.json(),
        badRequest("Payload validation error: 'Object didn't pass validation for format role-id: ' on property roles[0] (Unique identifier for the role (service-generated)).", 'invalid_body'),
      );
    });

    it('removing roles that are not assigned, or that do not exist, is not an error (204)', async () => {
      await assign(group.id, [roles[0]!]);
      const notAssigned = await remove(group.id, { body: { roles: [roles[1]] } });
      assert.equal(notAssigned.statusCode, 204);
      assert.deepEqual(await assigned(group.id), [roles[0]!]);
      const inexistent = await remove(group.id, { body: { roles: [roles[0], 'rol_0000000000000000', roles[0]] } });
      assert.equal(inexistent.statusCode, 204);
      assert.deepEqual(await assigned(group.id), []);
    });

    it('is atomic: a refused request removes nothing; an accepted one removes every listed role', async () => {
      await assign(group.id, roles);
      const everything = [...roles].sort(byCodepoint);
      for (const body of [
        { roles: [roles[0], roles[1], 'not-a-role-id'] },
        { roles: [roles[0], roles[1]], extra: true },
        { roles: [roles[0], 42] },
      ]) {
        const refused = await remove(group.id, { body });
        assert.equal(refused.statusCode, 400, JSON.stringify(body));
        assert.deepEqual(await assigned(group.id), everything, `every assignment is still in place after ${JSON.stringify(body)}`);
      }
      const wrongGroup = await remove(groupIdOfLength(24), { body: { roles } });
      assert.equal(wrongGroup.statusCode, 404);
      assert.deepEqual(await assigned(group.id), everything);

      const accepted = await remove(group.id, { body: { roles: [roles[2], roles[0]] } });
      assert.equal(accepted.statusCode, 204);
      assert.deepEqual(await assigned(group.id), [roles[1]!]);
    });
  });
});
