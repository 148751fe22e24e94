/** /api/v2/organizations and /api/v2/organizations/{id}/client-grants through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newPrefixedId } from '../../src/platform/crypto/ids.js';
import { MAX_CLIENT_GRANTS_PER_ORGANIZATION } from '../../src/management/organizations/client-grants/service.js';
import { KyselyOrganizationStore } from '../../src/storage/kysely/organizations.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';

interface Organization {
  id: string;
  name: string;
  display_name?: string;
}

interface Grant {
  id: string;
  client_id: string;
  audience: string;
}

interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errorCode?: string;
}

describe('/api/v2/organizations', () => {
  let t: TestApp;
  let token: string;
  const API = 'https://orgs.example.com/';
  const OTHER_API = 'https://orgs-other.example.com/';

  const api = (method: string, url: string, body?: unknown) => t.management(method, url, { token, ...(body !== undefined && { body }) });

  async function createOrganization(body: Record<string, unknown>): Promise<Organization> {
    const res = await api('POST', '/api/v2/organizations', body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Organization;
  }

  /** A client grant of a fresh client, created through the API. */
  async function createGrant(organization_usage: 'deny' | 'allow' | 'require', options: { audience?: string; client_id?: string } = {}): Promise<Grant> {
    const client_id = options.client_id ?? (await insertClient(t)).client_id;
    const res = await api('POST', '/api/v2/client-grants', { client_id, audience: options.audience ?? API, scope: ['a'], organization_usage });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Grant;
  }

  async function link(organizationId: string, grantId: string) {
    return api('POST', `/api/v2/organizations/${organizationId}/client-grants`, { grant_id: grantId });
  }

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
    for (const identifier of [API, OTHER_API]) {
      const rs = await api('POST', '/api/v2/resource-servers', { identifier, scopes: [{ value: 'a' }] });
      assert.equal(rs.statusCode, 201, rs.body);
    }
  });
  after(() => t.close());

  describe('CRUD', () => {
    it('creates (201), gets, updates (200) and deletes (204) an organization', async () => {
      const created = await api('POST', '/api/v2/organizations', {
        name: 'acme-crud',
        display_name: 'Acme Inc.',
        branding: { logo_url: 'https://acme.example.com/logo.svg', colors: { primary: '#e3e2f0', page_background: '#e3e2ff' } },
        metadata: { tier: 'gold', dropped: null },
      });
      assert.equal(created.statusCode, 201, created.body);
      const organization = created.json() as Record<string, unknown>;
      assert.match(organization.id as string, /^org_[A-Za-z0-9]{16}$/);
      assert.deepEqual(organization, {
        id: organization.id,
        name: 'acme-crud',
        display_name: 'Acme Inc.',
        branding: { logo_url: 'https://acme.example.com/logo.svg', colors: { primary: '#e3e2f0', page_background: '#e3e2ff' } },
        metadata: { tier: 'gold' },
      });
      const url = `/api/v2/organizations/${organization.id as string}`;
      assert.deepEqual((await api('GET', url)).json(), organization);

      // metadata and branding are replaced whole, as the service does.
      const updated = await api('PATCH', url, { name: 'acme-renamed', metadata: { region: 'eu' }, branding: { logo_url: 'https://acme.example.com/2.png' } });
      assert.equal(updated.statusCode, 200, updated.body);
      const expected = {
        id: organization.id,
        name: 'acme-renamed',
        display_name: 'Acme Inc.',
        branding: { logo_url: 'https://acme.example.com/2.png' },
        metadata: { region: 'eu' },
      };
      assert.deepEqual(updated.json(), expected);
      assert.deepEqual((await api('GET', url)).json(), expected);
      const unchanged = await api('PATCH', url, {});
      assert.equal(unchanged.statusCode, 200);
      assert.deepEqual(unchanged.json(), expected);

      const deleted = await api('DELETE', url);
      assert.equal(deleted.statusCode, 204);
      assert.equal(deleted.body, '');
      const gone = await api('GET', url);
      assert.equal(gone.statusCode, 404);
      assert.deepEqual(gone.json(), {
        statusCode: 404,
        error: 'Not Found',
        message: 'The organization does not exist.',
        errorCode: 'inexistent_organization',
      });
    });

    it('returns only the members that are set', async () => {
      const organization = await createOrganization({ name: '0-starts-with-a-digit_ok' });
      assert.deepEqual(organization, { id: organization.id, name: '0-starts-with-a-digit_ok' });
      assert.deepEqual((await api('GET', `/api/v2/organizations/${organization.id}`)).json(), organization);
    });

    it('refuses invalid bodies with the service validation messages', async () => {
      const cases: [unknown, string][] = [
        [{}, "Payload validation error: 'Missing required property: name'."],
        [{ name: '' }, "Payload validation error: 'String is too short (0 chars), minimum 1' on property name (The name of this organization)."],
        [
          { name: 'a'.repeat(51) },
          "Payload validation error: 'String is too long (51 chars), maximum 50' on property name (The name of this organization).",
        ],
        [
          { name: 'Acme Corp' },
          "Payload validation error: 'Object didn't pass validation for format organization-name: Acme Corp' on property name (The name of this organization).",
        ],
        [{ name: 'extra', members: [] }, "Payload validation error: 'Additional properties not allowed: members'."],
        [
          { name: 'extra', display_name: '' },
          "Payload validation error: 'String is too short (0 chars), minimum 1' on property display_name (Friendly name of this organization).",
        ],
        [
          { name: 'logo', branding: { logo_url: 'http://acme.example.com/logo.png' } },
          "Payload validation error: 'Object didn't pass validation for format strict-https-uri-or-null: http://acme.example.com/logo.png' on property branding.logo_url (URL of logo to display on login page).",
        ],
        [
          { name: 'colors', branding: { colors: { primary: 'red', page_background: '#fff' } } },
          "Payload validation error: 'Object didn't pass validation for format html-color: red' on property branding.colors.primary (HEX Color for primary elements).",
        ],
        [
          { name: 'colors', branding: { colors: { primary: '#fff' } } },
          "Payload validation error: 'Missing required property: page_background' on property branding.colors (Color scheme used to customize the login pages).",
        ],
        [
          { name: 'meta', metadata: { key: 'x'.repeat(256) } },
          "Payload validation error: 'String is too long (256 chars), maximum 255' on property metadata.key.",
        ],
        [
          { name: 'meta', metadata: { key: 1 } },
          "Payload validation error: 'Expected type string,null but found type integer' on property metadata.key.",
        ],
      ];
      for (const [body, message] of cases) {
        const res = await api('POST', '/api/v2/organizations', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_body' });
      }
      const tooMany = await api('POST', '/api/v2/organizations', {
        name: 'meta',
        metadata: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v'])),
      });
      assert.equal(tooMany.statusCode, 400);
      assert.match((tooMany.json() as ErrorBody).message, /^Payload validation error: 'Too many properties defined \(26\), maximum 25' on property metadata/);

      const unsupported = await api('POST', '/api/v2/organizations', { name: 'conn', enabled_connections: [{ connection_id: 'con_x' }] });
      assert.deepEqual(unsupported.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: 'enabled_connections is not supported: there are no connections to enable.',
        errorCode: 'operation_not_supported',
      });
    });

    it('refuses a second organization of the same name, on create and on rename (409)', async () => {
      await createOrganization({ name: 'taken' });
      const other = await createOrganization({ name: 'free' });
      const conflict = { statusCode: 409, error: 'Conflict', message: 'An organization with this name already exists.', errorCode: 'conflict' };
      const dup = await api('POST', '/api/v2/organizations', { name: 'taken' });
      assert.equal(dup.statusCode, 409);
      assert.deepEqual(dup.json(), conflict);
      const rename = await api('PATCH', `/api/v2/organizations/${other.id}`, { name: 'taken' });
      assert.equal(rename.statusCode, 409);
      assert.deepEqual(rename.json(), conflict);
      const bad = await api('PATCH', `/api/v2/organizations/${other.id}`, { name: 'Not Valid' });
      assert.equal(bad.statusCode, 400);
      assert.equal((bad.json() as ErrorBody).errorCode, 'invalid_body');
    });

    it('answers 404 inexistent_organization for an unknown id, and 400 for an id the path refuses', async () => {
      const unknown = `/api/v2/organizations/${newPrefixedId('org')}`;
      const notFound = { statusCode: 404, error: 'Not Found', message: 'The organization does not exist.', errorCode: 'inexistent_organization' };
      for (const [method, body] of [['GET'], ['PATCH', { display_name: 'x' }], ['DELETE']] as const) {
        const res = await api(method, unknown, body);
        assert.equal(res.statusCode, 404, `${method}: ${res.body}`);
        assert.deepEqual(res.json(), notFound);
      }
      const subNotFound = { statusCode: 404, error: 'Not Found', message: 'No organization found by that id.', errorCode: 'inexistent_organization' };
      for (const [method, url, body] of [
        ['GET', `${unknown}/client-grants`],
        ['POST', `${unknown}/client-grants`, { grant_id: 'cgr_whatever' }],
        ['DELETE', `${unknown}/client-grants/cgr_whatever`],
      ] as const) {
        const res = await api(method, url, body);
        assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
        assert.deepEqual(res.json(), subNotFound);
      }
      const long = await api('DELETE', `/api/v2/organizations/org_${'x'.repeat(47)}`);
      assert.equal(long.statusCode, 400);
      assert.deepEqual(long.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: "Path validation error: 'String is too long (51 chars), maximum 50' on property id (Organization identifier).",
        errorCode: 'invalid_uri',
      });
    });
  });

  describe('paging', () => {
    before(async () => {
      for (let i = 0; i < 7; i++) await createOrganization({ name: `paged-${i}`, display_name: `Paged ${6 - i}` });
    });

    async function everyId(): Promise<string[]> {
      const res = await api('GET', '/api/v2/organizations?per_page=100');
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as Organization[]).map((o) => o.id);
    }

    it('offset pages: a plain array, or {organizations, start, limit, total} with include_totals', async () => {
      const all = await everyId();
      assert.deepEqual(all, [...all].sort(), 'ordered by id');
      const seen: string[] = [];
      for (let page = 0; ; page++) {
        const res = await api('GET', `/api/v2/organizations?per_page=3&page=${page}&include_totals=true`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as { organizations: Organization[]; start: number; limit: number; total: number };
        assert.deepEqual(Object.keys(body), ['organizations', 'start', 'limit', 'total']);
        assert.deepEqual({ start: body.start, limit: body.limit, total: body.total }, { start: page * 3, limit: 3, total: all.length });
        if (!body.organizations.length) break;
        seen.push(...body.organizations.map((o) => o.id));
      }
      assert.deepEqual(seen, all);
      const beyond = await api('GET', '/api/v2/organizations?per_page=3&page=1000');
      assert.deepEqual(beyond.json(), []);
      const tooFar = await api('GET', '/api/v2/organizations?page=1001');
      assert.equal(tooFar.statusCode, 400);
      assert.equal((tooFar.json() as ErrorBody).errorCode, 'invalid_query_string');
    });

    it('checkpoint pages visit every organization once; next is absent on the last page', async () => {
      const all = await everyId();
      const seen: string[] = [];
      // The SDK sends the offset parameters too; from/take win over them.
      let url = '/api/v2/organizations?include_totals=true&per_page=50&take=3';
      for (let n = 0; n < 20; n++) {
        const res = await api('GET', url);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json() as { organizations: Organization[]; next?: string };
        assert.deepEqual(Object.keys(page).filter((k) => k !== 'next'), ['organizations']);
        seen.push(...page.organizations.map((o) => o.id));
        if (page.next === undefined) {
          assert.ok(!('next' in page), 'next is absent on the last page');
          break;
        }
        url = `/api/v2/organizations?take=3&from=${encodeURIComponent(page.next)}`;
      }
      assert.deepEqual(seen, all);

      // A page that ends exactly at the last organization has no next either.
      const exact = (await api('GET', `/api/v2/organizations?take=${all.length}`)).json() as { organizations: Organization[]; next?: string };
      assert.equal(exact.organizations.length, all.length);
      assert.ok(!('next' in exact), 'no next after a page that ends at the last organization');

      // A checkpoint of another list does not open here.
      await createGrant('allow');
      await createGrant('allow');
      const grants = (await api('GET', '/api/v2/client-grants?take=1')).json() as { next?: string };
      assert.ok(grants.next, 'the client grant list has a next page');
      const foreign = await api('GET', `/api/v2/organizations?take=1&from=${encodeURIComponent(grants.next)}`);
      assert.equal(foreign.statusCode, 400);
      assert.equal((foreign.json() as ErrorBody).errorCode, 'invalid_query_string');
    });

    it('sorts offset pages by name, display_name or created_at', async () => {
      const names = async (sort: string) =>
        ((await api('GET', `/api/v2/organizations?per_page=100&sort=${sort}`)).json() as Organization[]).map((o) => o.name).filter((n) => n.startsWith('paged-'));
      const ascending = ['paged-0', 'paged-1', 'paged-2', 'paged-3', 'paged-4', 'paged-5', 'paged-6'];
      assert.deepEqual(await names('name:1'), ascending);
      assert.deepEqual(await names('name:-1'), [...ascending].reverse());
      assert.deepEqual(await names(encodeURIComponent('display_name:1')), [...ascending].reverse());
      const bad = await api('GET', '/api/v2/organizations?sort=id:1');
      assert.deepEqual(bad.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message:
          "Query validation error: 'String does not match pattern ^(name|display_name|created_at):(1|-1)$: id:1' on property sort (Field to sort by. Use field:order where order is 1 for ascending and -1 for descending).",
        errorCode: 'invalid_query_string',
      });
    });
  });

  describe('client grants', () => {
    it('links (201) an allow or require grant, lists it and unlinks it (204)', async () => {
      const organization = await createOrganization({ name: 'linking' });
      const base = `/api/v2/organizations/${organization.id}/client-grants`;
      const allow = await createGrant('allow');
      const require = await createGrant('require', { audience: OTHER_API });

      const linked = await link(organization.id, allow.id);
      assert.equal(linked.statusCode, 201, linked.body);
      assert.deepEqual(linked.json(), {
        id: allow.id,
        client_id: allow.client_id,
        audience: API,
        scope: ['a'],
        organization_usage: 'allow',
        allow_any_organization: false,
      });
      assert.equal((await link(organization.id, require.id)).statusCode, 201);

      const again = await link(organization.id, allow.id);
      assert.equal(again.statusCode, 409);
      assert.deepEqual(again.json(), {
        statusCode: 409,
        error: 'Conflict',
        message: 'The client grant has already been added to this organization.',
        errorCode: 'conflict',
      });

      const list = (await api('GET', base)).json() as Grant[];
      assert.deepEqual(list.map((g) => g.id), [allow.id, require.id].sort());
      const totals = (await api('GET', `${base}?include_totals=true&per_page=1&page=1`)).json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(totals), ['client_grants', 'start', 'limit', 'total']);
      assert.deepEqual({ ...totals, client_grants: (totals.client_grants as Grant[]).length }, { client_grants: 1, start: 1, limit: 1, total: 2 });
      const ids = async (query: string) => ((await api('GET', `${base}?${query}`)).json() as Grant[]).map((g) => g.id);
      assert.deepEqual(await ids(`audience=${encodeURIComponent(OTHER_API)}`), [require.id]);
      assert.deepEqual(await ids(`client_id=${allow.client_id}`), [allow.id]);
      assert.deepEqual(await ids(`grant_ids=${allow.id}`), [allow.id]);
      assert.deepEqual(await ids(`grant_ids=${allow.id}&grant_ids=${require.id}`), [allow.id, require.id].sort());
      assert.deepEqual(await ids('grant_ids=cgr_none'), []);
      const tooMany = await api('GET', `${base}?${Array.from({ length: 11 }, (_, i) => `grant_ids=g${i}`).join('&')}`);
      assert.equal(tooMany.statusCode, 400);
      assert.equal((tooMany.json() as ErrorBody).errorCode, 'invalid_query_string');

      const unlinked = await api('DELETE', `${base}/${allow.id}`);
      assert.equal(unlinked.statusCode, 204);
      assert.deepEqual(await ids(''), [require.id]);
      assert.equal((await api('DELETE', `${base}/${allow.id}`)).statusCode, 204, 'unlinking a grant that is not linked succeeds');
      assert.equal((await api('GET', `/api/v2/client-grants/${allow.id}`)).statusCode, 200, 'the grant itself stays');
    });

    it('refuses to link a grant whose organization_usage is deny, or a grant that does not exist', async () => {
      const organization = await createOrganization({ name: 'deny-refused' });
      const deny = await createGrant('deny');
      const refused = await link(organization.id, deny.id);
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: `The client grant ${deny.id} has organization_usage deny; only grants with organization_usage allow or require can be associated with an organization.`,
        errorCode: 'invalid_body',
      });
      const missing = await link(organization.id, 'cgr_doesnotexist00');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'The grant does not exist.', errorCode: 'inexistent_client_grant' });
      const noBody = await api('POST', `/api/v2/organizations/${organization.id}/client-grants`, {});
      assert.deepEqual(noBody.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: "Payload validation error: 'Missing required property: grant_id'.",
        errorCode: 'invalid_body',
      });
      assert.deepEqual((await api('GET', `/api/v2/organizations/${organization.id}/client-grants`)).json(), []);
    });

    it(`refuses more than ${MAX_CLIENT_GRANTS_PER_ORGANIZATION} grants in one organization`, async () => {
      const organization = await createOrganization({ name: 'quota' });
      const store = new KyselyOrganizationStore(t.ctx.database.db);
      const now = new Date().toISOString();
      for (let i = 0; i < MAX_CLIENT_GRANTS_PER_ORGANIZATION; i++) {
        const id = newPrefixedId('cgr');
        await t.ctx.stores.clientGrants.insert({
          tenant_id: t.tenant.id,
          id,
          client_id: `quota-client-${i}`,
          audience: API,
          scope: [],
          organization_usage: 'allow',
          allow_any_organization: 0,
          is_system: 0,
          subject_type: 'client',
          authorization_details_types: [],
          allow_all_scopes: null,
          default_for: null,
          created_at: now,
        });
        assert.equal(await store.linkClientGrant(t.tenant.id, organization.id, id, now), 'linked');
      }
      const over = await link(organization.id, (await createGrant('allow')).id);
      assert.equal(over.statusCode, 409);
      assert.deepEqual(over.json(), {
        statusCode: 409,
        error: 'Conflict',
        message: 'Quota exceeded; cannot add more than 100 client grants to a single organization',
        errorCode: 'conflict',
      });
    });

    it('deleting the client grant removes its links; deleting the organization removes its links', async () => {
      const first = await createOrganization({ name: 'links-a' });
      const second = await createOrganization({ name: 'links-b' });
      const grant = await createGrant('allow');
      const kept = await createGrant('require');
      for (const org of [first, second]) {
        assert.equal((await link(org.id, grant.id)).statusCode, 201);
        assert.equal((await link(org.id, kept.id)).statusCode, 201);
      }
      assert.equal((await api('DELETE', `/api/v2/client-grants/${grant.id}`)).statusCode, 204);
      for (const org of [first, second]) {
        const list = (await api('GET', `/api/v2/organizations/${org.id}/client-grants`)).json() as Grant[];
        assert.deepEqual(list.map((g) => g.id), [kept.id]);
      }
      const links = () =>
        t.ctx.database.db.selectFrom('organization_client_grants').select(['organization_id', 'grant_id']).where('tenant_id', '=', t.tenant.id);
      assert.deepEqual(await links().where('grant_id', '=', grant.id).execute(), [], 'no link to the deleted grant is left');

      assert.equal((await api('DELETE', `/api/v2/organizations/${first.id}`)).statusCode, 204);
      assert.deepEqual(await links().where('organization_id', '=', first.id).execute(), []);
      assert.deepEqual(await links().where('grant_id', '=', kept.id).execute(), [{ organization_id: second.id, grant_id: kept.id }]);
      assert.equal((await api('GET', `/api/v2/client-grants/${kept.id}`)).statusCode, 200, 'the grant outlives the organization');
    });
  });

  describe('scopes', () => {
    it('refuses operations the token has no scope for (403)', async () => {
      const readOnly = await t.managementToken('read:organizations');
      const organization = await createOrganization({ name: 'scoped' });
      const call = (method: string, url: string, body?: unknown) =>
        t.management(method, url, { token: readOnly, ...(body !== undefined && { body }) });
      assert.equal((await call('GET', '/api/v2/organizations')).statusCode, 200);
      assert.equal((await call('GET', `/api/v2/organizations/${organization.id}`)).statusCode, 200);
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/v2/organizations', { name: 'nope' }, 'create:organizations, create:organization_connections'],
        ['PATCH', `/api/v2/organizations/${organization.id}`, { display_name: 'x' }, 'update:organizations'],
        ['DELETE', `/api/v2/organizations/${organization.id}`, undefined, 'delete:organizations'],
        ['GET', `/api/v2/organizations/${organization.id}/client-grants`, undefined, 'read:organization_client_grants'],
        ['POST', `/api/v2/organizations/${organization.id}/client-grants`, { grant_id: 'cgr_x' }, 'create:organization_client_grants'],
        ['DELETE', `/api/v2/organizations/${organization.id}/client-grants/cgr_x`, undefined, 'delete:organization_client_grants'],
      ];
      for (const [method, url, body, expected] of cases) {
        const res = await call(method, url, body);
        assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
        assert.deepEqual(res.json(), {
          statusCode: 403,
          error: 'Forbidden',
          message: `Insufficient scope, expected any of: ${expected}`,
          errorCode: 'insufficient_scope',
        });
      }
      assert.equal((await api('GET', `/api/v2/organizations/${organization.id}`)).statusCode, 200, 'nothing was deleted');
    });
  });

  describe('clientIdsWithGrantForOrganization', () => {
    it('lists the distinct client_ids with a grant linked to the organization, byte-wise, after a key, at most a limit', async () => {
      const store = new KyselyOrganizationStore(t.ctx.database.db);
      const organization = await createOrganization({ name: 'client-ids' });
      const elsewhere = await createOrganization({ name: 'client-ids-elsewhere' });
      // Byte-wise, upper case sorts before lower case; a locale collation would interleave them.
      const suffix = newPrefixedId('x').slice(2);
      const ids = [`Zeta${suffix}`, `alpha${suffix}`, `Beta${suffix}`, `beta${suffix}`];
      for (const client_id of ids) {
        await insertClient(t, { client_id });
        assert.equal((await link(organization.id, (await createGrant('allow', { client_id })).id)).statusCode, 201);
      }
      // A second linked grant of one client counts once.
      assert.equal((await link(organization.id, (await createGrant('require', { client_id: ids[1]!, audience: OTHER_API })).id)).statusCode, 201);
      // Clients linked only elsewhere, or not linked, are not listed.
      const other = await createGrant('allow');
      assert.equal((await link(elsewhere.id, other.id)).statusCode, 201);
      await createGrant('allow');

      const sorted = [...ids].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
      assert.deepEqual(sorted, [`Beta${suffix}`, `Zeta${suffix}`, `alpha${suffix}`, `beta${suffix}`]);
      assert.deepEqual(await store.clientIdsWithGrantForOrganization(t.tenant.id, organization.id, undefined, 10), sorted);
      assert.deepEqual(await store.clientIdsWithGrantForOrganization(t.tenant.id, organization.id, undefined, 2), sorted.slice(0, 2));
      assert.deepEqual(await store.clientIdsWithGrantForOrganization(t.tenant.id, organization.id, sorted[1], 2), sorted.slice(2, 4));
      assert.deepEqual(await store.clientIdsWithGrantForOrganization(t.tenant.id, organization.id, sorted[3], 2), []);
      assert.deepEqual(await store.clientIdsWithGrantForOrganization(t.tenant.id, elsewhere.id, undefined, 10), [other.client_id]);
      assert.deepEqual(await store.clientIdsWithGrantForOrganization('ten_other', organization.id, undefined, 10), []);
    });
  });
});

describe('a linked client grant keeps organization_usage allow or require', () => {
  it('refuses switching it to deny while organizations are linked, and allows it once they are not', async () => {
    const t = await createTestApp();
    try {
      await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'org-usage-api' } });
      const client = await insertClient(t);
      const grant = (await t.management('POST', '/api/v2/client-grants', {
        body: { client_id: client.client_id, audience: 'org-usage-api', scope: [], organization_usage: 'allow' },
      })).json() as { id: string };
      const org = (await t.management('POST', '/api/v2/organizations', { body: { name: 'usage-org' } })).json() as { id: string };
      assert.equal((await t.management('POST', `/api/v2/organizations/${org.id}/client-grants`, { body: { grant_id: grant.id } })).statusCode, 201);
      const refused = await t.management('PATCH', `/api/v2/client-grants/${grant.id}`, { body: { organization_usage: 'deny' } });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal((refused.json() as { errorCode: string }).errorCode, 'invalid_body');
      assert.equal(((await t.management('GET', `/api/v2/client-grants/${grant.id}`)).json() as { organization_usage: string }).organization_usage, 'allow');
      assert.equal((await t.management('DELETE', `/api/v2/organizations/${org.id}/client-grants/${grant.id}`)).statusCode, 204);
      const allowed = await t.management('PATCH', `/api/v2/client-grants/${grant.id}`, { body: { organization_usage: 'deny' } });
      assert.equal(allowed.statusCode, 200, allowed.body);
    } finally {
      await t.close();
    }
  });
});
