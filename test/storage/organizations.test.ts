/**
 * The organization store's documented contracts, on SQLite and PostgreSQL, the
 * way test/storage/conformance.test.ts runs its suite: a fresh database per
 * dialect, migrated, each case in tenants of its own, no query mocks.
 *
 * PostgreSQL runs in a database whose default collation is ICU en-US (when the
 * server has ICU), so the byte-wise orderings the store promises are checked
 * where the database's own ordering differs ('B' < 'a' byte-wise, not there).
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db } from '../../src/storage/database.js';
import type { ClientGrantRow, OrganizationRow } from '../../src/domain/rows.js';
import type { Stores } from '../../src/domain/stores.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { forEachStoreFactory, kyselyPostgres, kyselySqlite } from '../helpers/databases.js';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../helpers/postgres.js';
import { at, LOWER, resourceServerRow, T0, tenantRow } from '../helpers/rows.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';




function organizationRow(tenantId: string, overrides: Partial<OrganizationRow> = {}): OrganizationRow {
  return {
    tenant_id: tenantId,
    id: newPrefixedId('org'),
    name: `org-${randomString(12, LOWER)}`,
    display_name: null,
    branding: null,
    metadata: {},
    created_at: T0,
    ...overrides,
  };
}

function clientGrantRow(tenantId: string, overrides: Partial<ClientGrantRow> = {}): ClientGrantRow {
  return {
    tenant_id: tenantId,
    id: newPrefixedId('cgr'),
    client_id: randomString(32),
    audience: 'https://api.example.test/',
    scope: [],
    organization_usage: 'allow',
    allow_any_organization: 0,
    is_system: 0,
    subject_type: 'client',
    authorization_details_types: [],
    allow_all_scopes: null,
    default_for: null,
    created_at: T0,
    ...overrides,
  };
}


async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('expected the operation to fail');
}

async function expectUniqueViolation(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  assert.ok(isUniqueViolation(error), `expected a unique violation, got ${String(error)}`);
}

const byteWise = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
const ids = (rows: { id: string }[]): string[] => rows.map((r) => r.id);

await forEachStoreFactory('organization storage', (h) => {
  // The link table is read and a tenant deleted in SQL.
  let db: Db;
  let tenants: Stores['tenants'];
  let organizations: Stores['organizations'];
  let grants: Stores['clientGrants'];
  let resourceServers: Stores['resourceServers'];

  before(() => {
    db = h.db();
    ({ tenants, organizations, clientGrants: grants, resourceServers } = h.stores());
  });

  async function newTenant(): Promise<string> {
    const tenant = tenantRow();
    await tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    return tenant.id;
  }

  /** An organization and `n` grants linked to it. */
  async function linked(tenantId: string, n: number, overrides: Partial<ClientGrantRow>[] = []) {
    const organization = organizationRow(tenantId);
    await organizations.insert(organization);
    const rows: ClientGrantRow[] = [];
    for (let i = 0; i < n; i++) {
      const grant = clientGrantRow(tenantId, overrides[i]);
      await grants.insert(grant);
      assert.equal(await organizations.linkClientGrant(tenantId, organization.id, grant.id, T0), 'linked');
      rows.push(grant);
    }
    return { organization, grants: rows };
  }

  const linksOf = (tenantId: string) =>
    db.selectFrom('organization_client_grants').select(['organization_id', 'grant_id']).where('tenant_id', '=', tenantId).orderBy('organization_id').orderBy('grant_id').execute();

  describe('organizations', () => {
    it('insert then get returns the row; unknown ids and other tenants find nothing', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const row = organizationRow(a, { display_name: 'Acme', branding: { logo_url: 'https://x.test/l.png' }, metadata: { k: 'v' } });
      await organizations.insert(row);
      assert.deepEqual(await organizations.get(a, row.id), row);
      assert.equal(await organizations.get(a, 'org_unknown'), undefined);
      assert.equal(await organizations.get(b, row.id), undefined);
    });

    it('names are unique per tenant, on insert and on rename', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const first = organizationRow(a, { name: 'same' });
      await organizations.insert(first);
      await expectUniqueViolation(organizations.insert(organizationRow(a, { name: 'same' })));
      await organizations.insert(organizationRow(b, { name: 'same' }));
      const second = organizationRow(a, { name: 'other' });
      await organizations.insert(second);
      await expectUniqueViolation(organizations.update(a, second.id, { name: 'same' }));
      assert.deepEqual(await organizations.get(a, second.id), second, 'a refused rename changes nothing');
    });

    it('update applies the changed columns; false when the organization does not exist', async () => {
      const a = await newTenant();
      const row = organizationRow(a, { display_name: 'Before' });
      await organizations.insert(row);
      const changes = { name: 'renamed', display_name: null, metadata: { a: 'b' } };
      assert.equal(await organizations.update(a, row.id, changes), true);
      assert.deepEqual(await organizations.get(a, row.id), { ...row, ...changes });
      assert.equal(await organizations.update(a, row.id, {}), true, 'no change, but it exists');
      assert.equal(await organizations.update(a, 'org_unknown', { name: 'x' }), false);
      assert.equal(await organizations.update(a, 'org_unknown', {}), false);
      assert.equal(await organizations.update(await newTenant(), row.id, { name: 'x' }), false);
    });

    it('delete removes the organization and only its links; false when unknown', async () => {
      const a = await newTenant();
      const doomed = await linked(a, 2);
      const kept = await linked(a, 1);
      // One grant linked to both organizations keeps its link to the surviving one.
      assert.equal(await organizations.linkClientGrant(a, kept.organization.id, doomed.grants[0]!.id, T0), 'linked');

      assert.equal(await organizations.delete(a, doomed.organization.id), true);
      assert.equal(await organizations.get(a, doomed.organization.id), undefined);
      assert.deepEqual(
        await linksOf(a),
        [kept.grants[0]!.id, doomed.grants[0]!.id].sort(byteWise).map((grant_id) => ({ organization_id: kept.organization.id, grant_id })),
      );
      for (const g of doomed.grants) assert.deepEqual(await grants.get(a, g.id), g, 'the grants themselves stay');
      assert.equal(await organizations.delete(a, doomed.organization.id), false);
      assert.equal(await organizations.delete(await newTenant(), kept.organization.id), false);
    });

    describe('list', () => {
      let tenantId: string;
      let rows: OrganizationRow[];

      before(async () => {
        tenantId = await newTenant();
        // Ids, names and display names whose byte-wise order differs from a locale's.
        const specs: [string, string, string | null, number][] = [
          ['org_B', 'b-x', 'Zed', 3],
          ['org_a', 'Zed', null, 1],
          ['org_C', 'bx', 'alpha', 1],
          ['org_b', 'b_x', 'Beta', 2],
          ['org_A', 'alpha', null, 0],
        ];
        rows = specs.map(([suffix, name, display_name, t]) =>
          organizationRow(tenantId, { id: `${suffix}${randomString(8)}`, name, display_name, created_at: at(t) }),
        );
        for (const row of rows) await organizations.insert(row);
        await organizations.insert(organizationRow(await newTenant()));
      });

      const sortedIds = () => ids(rows).sort(byteWise);

      it('offset pages are ordered by id, byte-wise; withTotal counts every organization of the tenant', async () => {
        assert.deepEqual(ids((await organizations.list(tenantId, { kind: 'offset', offset: 0, limit: 10, withTotal: false })).rows), sortedIds());
        const page = await organizations.list(tenantId, { kind: 'offset', offset: 2, limit: 2, withTotal: true });
        assert.deepEqual(ids(page.rows), sortedIds().slice(2, 4));
        assert.equal(page.total, 5);
        assert.equal((await organizations.list(tenantId, { kind: 'offset', offset: 0, limit: 1, withTotal: false })).total, undefined);
      });

      it('keyset pages return ids greater than after, ascending byte-wise', async () => {
        const all = sortedIds();
        assert.deepEqual(ids((await organizations.list(tenantId, { kind: 'keyset', limit: 2 })).rows), all.slice(0, 2));
        assert.deepEqual(ids((await organizations.list(tenantId, { kind: 'keyset', after: all[1]!, limit: 10 })).rows), all.slice(2));
        assert.deepEqual((await organizations.list(tenantId, { kind: 'keyset', after: all[4]!, limit: 10 })).rows, []);
      });

      it('sorts offset pages by name, display_name (missing last, or first descending) or created_at, ties by id', async () => {
        const sorted = async (field: 'name' | 'display_name' | 'created_at', descending: boolean) =>
          (await organizations.list(tenantId, { kind: 'offset', offset: 0, limit: 10, withTotal: false, sort: { field, descending } })).rows;
        const names = (await sorted('name', false)).map((r) => r.name);
        assert.deepEqual(names, ['Zed', 'alpha', 'b-x', 'b_x', 'bx']);
        assert.deepEqual((await sorted('name', true)).map((r) => r.name), [...names].reverse());

        const withDisplay = rows.filter((r) => r.display_name !== null).sort((x, y) => byteWise(x.display_name!, y.display_name!));
        const withoutDisplay = ids(rows.filter((r) => r.display_name === null)).sort(byteWise);
        assert.deepEqual(ids(await sorted('display_name', false)), [...ids(withDisplay), ...withoutDisplay]);
        assert.deepEqual(ids(await sorted('display_name', true)), [...withoutDisplay.reverse(), ...ids(withDisplay).reverse()]);

        const byTime = [...rows].sort((x, y) => x.created_at.localeCompare(y.created_at) || byteWise(x.id, y.id));
        assert.deepEqual(ids(await sorted('created_at', false)), ids(byTime));
        assert.deepEqual(ids(await sorted('created_at', true)), ids(byTime).reverse());
      });
    });
  });

  describe('client grant links', () => {
    it('link reports linked, already_linked, and missing for an unknown organization or grant', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const { organization, grants: [grant] } = await linked(a, 1);
      assert.equal(await organizations.linkClientGrant(a, organization.id, grant!.id, T0), 'already_linked');
      assert.equal(await organizations.linkClientGrant(a, 'org_unknown', grant!.id, T0), 'missing');
      assert.equal(await organizations.linkClientGrant(a, organization.id, 'cgr_unknown', T0), 'missing');
      const foreign = clientGrantRow(b);
      await grants.insert(foreign);
      assert.equal(await organizations.linkClientGrant(a, organization.id, foreign.id, T0), 'missing', "another tenant's grant");
      assert.equal(await organizations.countClientGrants(a, organization.id), 1);
    });

    it('unlink removes one link; false when there was none', async () => {
      const a = await newTenant();
      const { organization, grants: [g1, g2] } = await linked(a, 2);
      assert.equal(await organizations.unlinkClientGrant(a, organization.id, g1!.id), true);
      assert.equal(await organizations.unlinkClientGrant(a, organization.id, g1!.id), false);
      assert.deepEqual(await linksOf(a), [{ organization_id: organization.id, grant_id: g2!.id }]);
      assert.equal(await organizations.countClientGrants(a, organization.id), 1);
    });

    it('listClientGrants pages the linked grants by id, with filters and totals', async () => {
      const a = await newTenant();
      const audience = 'https://filtered.example.test/';
      const { organization, grants: linkedGrants } = await linked(a, 5, [{}, { audience }, { audience, client_id: 'shared' }, { client_id: 'shared' }, {}]);
      await linked(a, 2); // another organization's
      await grants.insert(clientGrantRow(a)); // not linked
      const list = (filter = {}, page = { offset: 0, limit: 10, withTotal: true }) => organizations.listClientGrants(a, organization.id, filter, page);
      const all = ids(linkedGrants).sort(byteWise);

      const everything = await list();
      assert.deepEqual(ids(everything.rows), all);
      assert.equal(everything.total, 5);
      assert.deepEqual(everything.rows.find((r) => r.id === linkedGrants[1]!.id), linkedGrants[1], 'whole client grant rows');
      const page = await list({}, { offset: 1, limit: 2, withTotal: true });
      assert.deepEqual(ids(page.rows), all.slice(1, 3));
      assert.equal(page.total, 5);
      assert.equal((await list({}, { offset: 0, limit: 1, withTotal: false })).total, undefined);

      assert.deepEqual(ids((await list({ audience })).rows), [linkedGrants[1]!.id, linkedGrants[2]!.id].sort(byteWise));
      assert.deepEqual(ids((await list({ client_id: 'shared' })).rows), [linkedGrants[2]!.id, linkedGrants[3]!.id].sort(byteWise));
      assert.deepEqual(ids((await list({ audience, client_id: 'shared' })).rows), [linkedGrants[2]!.id]);
      const chosen = await list({ grant_ids: [linkedGrants[4]!.id, linkedGrants[0]!.id, 'cgr_unknown'] });
      assert.deepEqual(ids(chosen.rows), [linkedGrants[4]!.id, linkedGrants[0]!.id].sort(byteWise));
      assert.equal(chosen.total, 2);
      assert.deepEqual((await list({ grant_ids: [] })).rows, []);
      assert.deepEqual((await organizations.listClientGrants(a, 'org_unknown', {}, { offset: 0, limit: 10, withTotal: true })).rows, []);
    });

    it('deleting a client grant removes its links to every organization, and only them', async () => {
      const a = await newTenant();
      const first = await linked(a, 2);
      const second = await linked(a, 0);
      const [doomed, kept] = first.grants;
      assert.equal(await organizations.linkClientGrant(a, second.organization.id, doomed!.id, T0), 'linked');

      assert.equal(await grants.delete(a, doomed!.id), true);
      assert.deepEqual(await linksOf(a), [{ organization_id: first.organization.id, grant_id: kept!.id }]);
      assert.deepEqual(await organizations.listClientGrants(a, second.organization.id, {}, { offset: 0, limit: 10, withTotal: false }), { rows: [] });
    });

    it("deleting a resource server removes the links of the grants it takes along", async () => {
      const a = await newTenant();
      const rs = resourceServerRow(a, { identifier: `https://rs-${randomString(8, LOWER)}.example.test/` });
      await resourceServers.insert(rs);
      const { organization, grants: [doomed, kept] } = await linked(a, 2, [{ audience: rs.identifier }, {}]);
      assert.equal(await resourceServers.delete(a, rs.id), true);
      assert.equal(await grants.get(a, doomed!.id), undefined);
      assert.deepEqual(await linksOf(a), [{ organization_id: organization.id, grant_id: kept!.id }]);
    });

    it('deleting the tenant removes its organizations and links', async () => {
      const a = await newTenant();
      await linked(a, 2);
      await db.deleteFrom('tenants').where('id', '=', a).execute();
      for (const table of ['organizations', 'organization_client_grants'] as const) {
        const n = await db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', a).executeTakeFirstOrThrow();
        assert.equal(Number(n.n), 0, `${table} kept rows of the deleted tenant`);
      }
    });
  });

  describe('clientIdsWithGrantForOrganization', () => {
    it('the distinct client_ids with a linked grant: byte-wise, after a key, at most a limit', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const clients = ['beta', 'Zeta', 'alpha', 'Beta', 'b_x', 'b-x'];
      const { organization } = await linked(a, clients.length + 2, [
        ...clients.map((client_id) => ({ client_id })),
        { client_id: 'alpha', audience: 'https://second.example.test/' }, // the same client twice
        { client_id: null, default_for: 'third_party_clients' }, // no client
      ]);
      await linked(a, 1, [{ client_id: 'other-org' }]);
      await grants.insert(clientGrantRow(a, { client_id: 'not-linked' }));
      const foreign = await linked(b, 1, [{ client_id: 'other-tenant' }]);

      const expected = [...clients].sort(byteWise);
      assert.deepEqual(expected, ['Beta', 'Zeta', 'alpha', 'b-x', 'b_x', 'beta']);
      const query = (after: string | undefined, limit: number) => organizations.clientIdsWithGrantForOrganization(a, organization.id, after, limit);
      assert.deepEqual(await query(undefined, 100), expected);
      assert.deepEqual(await query(undefined, 2), expected.slice(0, 2));
      assert.deepEqual(await query('Zeta', 3), expected.slice(2, 5));
      assert.deepEqual(await query('Zz', 100), expected.slice(2), 'after need not be a client_id');
      assert.deepEqual(await query('beta', 100), []);
      assert.deepEqual(await organizations.clientIdsWithGrantForOrganization(a, foreign.organization.id, undefined, 10), []);
      assert.deepEqual(await organizations.clientIdsWithGrantForOrganization(b, foreign.organization.id, undefined, 10), ['other-tenant']);
      assert.deepEqual(await organizations.clientIdsWithGrantForOrganization(a, 'org_unknown', undefined, 10), []);
    });
  });
}, [kyselySqlite(), kyselyPostgres(createCollatedDatabase)]);

// ---------------------------------------------------------------------------
// Dialects
// ---------------------------------------------------------------------------

/**
 * A fresh PostgreSQL database whose default collation is ICU en-US when the
 * server offers it; otherwise the server's default (then byte-wise results
 * are still checked, only less sharply).
 */
async function createCollatedDatabase(): Promise<TestDatabase> {
  const name = `gatehouse_test_orgs_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`);
  } catch {
    return createTestDatabase();
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
