/**
 * Behavioural conformance of the storage layer: the same cases against SQLite
 * (a fresh file in a temporary directory) and PostgreSQL (a fresh database,
 * dropped afterwards). Every case checks a store method's documented contract
 * through the store interfaces, on migrated schemas, without query mocks.
 *
 * Cases share one database per dialect; each works in tenants of its own so
 * that the order of cases does not matter.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { discoverMigrations, migrateToLatest, type Db } from '../../src/storage/database.js';
import * as managementApiName from '../../src/storage/migrations/0075_management_api_name.js';
import type { ClientGrantRow, Database, ClientRow, ResourceServerRow, SigningKeyRow, TenantRow } from '../../src/storage/schema.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, LOWER, resourceServerRow, T0, tenantRow } from '../helpers/rows.js';
import { type ClientGrantFilter } from '../../src/domain/client-grants/store.js';
import { type TenantBundle } from '../../src/domain/tenants/store.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';

// ---------------------------------------------------------------------------
// Row factories: every NOT NULL column filled, overridable per case.
// ---------------------------------------------------------------------------




function signingKeyRow(tenantId: string, overrides: Partial<SigningKeyRow> = {}): SigningKeyRow {
  return {
    tenant_id: tenantId,
    kid: randomString(22),
    private_key_enc: `sealed:${randomString(16)}`,
    public_jwk: { kty: 'RSA', n: randomString(16), e: 'AQAB' },
    cert_der: randomString(32),
    status: 'current',
    created_at: T0,
    current_since: T0,
    current_until: null,
    revoked_at: null,
    ...overrides,
  };
}

function clientRow(tenantId: string, overrides: Partial<ClientRow> = {}): ClientRow {
  return {
    tenant_id: tenantId,
    client_id: randomString(32),
    name: 'App',
    description: '',
    app_type: null,
    is_first_party: 1,
    global: 0,
    token_endpoint_auth_method: 'client_secret_post',
    client_authentication_methods: null,
    grant_types: [],
    client_secret_enc: null,
    created_at: T0,
    updated_at: T0,
    external_client_id: null,
    config: {},
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
    organization_usage: null,
    allow_any_organization: null,
    is_system: 0,
    subject_type: 'client',
    authorization_details_types: [],
    allow_all_scopes: null,
    default_for: null,
    created_at: T0,
    ...overrides,
  };
}

function emptyBundle(tenant: TenantRow): TenantBundle {
  return { tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] };
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/** The error a promise rejects with; fails the case when it resolves. */
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
  assert.ok(isUniqueViolation(error), `expected a unique violation, got ${String((error as { code?: string })?.code)}: ${String(error)}`);
}

type TenantTable = Exclude<keyof Database, 'tenants'>;

/** Rows a tenant owns in a table, counted directly (not through a store). */
async function countRows(db: Db, table: TenantTable, tenantId: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where tenant_id = ${tenantId}`.execute(db);
  return Number(result.rows[0]?.n ?? NaN);
}

const byCodepoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const ids = (rows: { id: string }[]): string[] => rows.map((r) => r.id);

// ---------------------------------------------------------------------------
// The suite, once per dialect
// ---------------------------------------------------------------------------


await forEachStoreFactory('storage conformance', (h) => {
  // The SQL database itself for what only the SQL implementations have: the
  // migrations, row counts behind the stores (atomicity, cascades) and a
  // trigger that makes a delete fail halfway.
  let db: Db;
  let tenants: Stores['tenants'];
  let keys: Stores['signingKeys'];
  let clients: Stores['clients'];
  let resourceServers: Stores['resourceServers'];
  let grants: Stores['clientGrants'];

  before(() => {
    db = h.db();
    ({ tenants, signingKeys: keys, clients, resourceServers, clientGrants: grants } = h.stores());
  });

  /** A fresh, empty tenant for one case. */
  async function newTenant(overrides: Partial<TenantRow> = {}): Promise<string> {
    const row = tenantRow(overrides);
    await tenants.create(emptyBundle(row));
    return row.id;
  }

  describe('migrations', () => {
    const TABLES = [
      'tenants',
      'signing_keys',
      'clients',
      'resource_servers',
      'client_grants',
      'client_counts',
      'organizations',
      'organization_client_grants',
      'roles',
      'groups',
      'group_roles',
      'guardian_push_notification',
      'connections',
      'connection_clients',
      'users',
      'tickets',
      'refresh_tokens',
      'sessions',
      'authorization_requests',
      'authorization_codes',
      'guardian_factors',
      'guardian_policies',
      'mfa_authenticators',
      'mfa_challenges',
      'mfa_failures',
      'passwordless_codes',
      'guardian_sms',
      'user_grants',
      'role_permissions',
      'user_roles',
      'user_permissions',
      'group_members',
      'client_credentials',
      'one_time_uses',
      'pushed_authorization_requests',
      'custom_domains',
      'samlp_session_participants',
      'organization_members',
      'organization_member_roles',
      'organization_connections',
      'organization_invitations',
      'device_codes',
      'session_clients',
      'backchannel_logout_deliveries',
      'backchannel_auth_requests',
      'jobs',
      'job_files',
      'job_errors',
      'tenant_logs',
      'log_streams',
      'organization_discovery_domains',
      'email_providers',
      'email_templates',
      'ui_settings',
    ];
    // Released migrations keep their names: databases record them, and a renamed one would run again
    // (or make an older version refuse the database). A new migration file needs no line here.
    const RELEASED_MIGRATIONS = [
      '0001_foundation',
      '0002_clients',
      '0003_organizations',
      '0004_roles_groups',
      '0005_guardian_push',
      '0006_connections_users',
      '0007_tickets',
      '0008_refresh_tokens',
      '0009_authorization',
      '0010_user_grants',
      '0011_rbac',
      '0012_hardening',
      '0013_interaction_steps',
      '0014_client_credentials',
      '0015_pushed_authorization_requests',
      '0016_dpop_binding',
      '0017_custom_domains',
      '0020_mfa',
      '0021_passwordless',
      '0022_guardian_sms',
      '0030_samlp_sessions',
      '0040_organization_members',
      '0041_device_codes',
      '0042_backchannel_logout',
      '0043_backchannel_authentication',
      '0050_mfa_push',
      '0051_sms_passwordless_users',
      '0055_organization_discovery_domains',
      '0056_email_provider_templates',
      '0060_session_activity',
      '0061_signing_key_rotation',
      '0065_tenant_logs',
      '0070_jobs',
      '0071_ticket_options',
      '0075_management_api_name',
      '0080_ui_settings',
      '0085_linked_identities',
      '0090_user_read_indexes',
      '0091_job_file_parts',
      '0092_user_prefix_indexes',
    ];

    it('creates every table', async () => {
      const names = (await db.introspection.getTables()).map((t) => t.name);
      for (const table of TABLES) assert.ok(names.includes(table), `table ${table} is missing (have ${names.join(', ')})`);
    });

    it('applying them again is a no-op that keeps the data', async () => {
      const tenantId = await newTenant();
      await keys.insert(signingKeyRow(tenantId));
      const migrationsBefore = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      const recorded = migrationsBefore.rows.map((r) => r.name);
      assert.deepEqual(recorded, [...discoverMigrations().keys()], 'every migration of the folder ran, and nothing else');
      assert.deepEqual(
        RELEASED_MIGRATIONS.filter((name) => !recorded.includes(name)),
        [],
        'a released migration was renamed or removed',
      );

      await migrateToLatest(db);
      await migrateToLatest(db);

      const migrationsAfter = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      assert.deepEqual(migrationsAfter.rows, migrationsBefore.rows);
      const names = (await db.introspection.getTables()).map((t) => t.name);
      for (const table of TABLES) assert.ok(names.includes(table));
      assert.equal(await countRows(db, 'signing_keys', tenantId), 1);
    });

    it('0075 names a tenant\'s system API as the service does, and only that one', async () => {
      const tenantId = await newTenant();
      const system = resourceServerRow(tenantId, { is_system: 1, name: 'Management API' });
      const own = resourceServerRow(tenantId, { name: 'Management API' });
      await resourceServers.insert(system);
      await resourceServers.insert(own);
      await managementApiName.up(db as unknown as Kysely<unknown>);
      assert.equal((await resourceServers.get(tenantId, system.id))?.name, 'Auth0 Management API');
      assert.equal((await resourceServers.get(tenantId, own.id))?.name, 'Management API');
    });
  });

  describe('TenantStore', () => {
    it('create inserts the tenant and everything in its bundle', async () => {
      const tenant = tenantRow();
      const key = signingKeyRow(tenant.id);
      const client = clientRow(tenant.id, { app_type: 'non_interactive', client_secret_enc: 'sealed' });
      const rs = resourceServerRow(tenant.id, { is_system: 1 });
      const grant = clientGrantRow(tenant.id, { client_id: client.client_id, audience: rs.identifier, scope: ['read:x'] });
      await tenants.create({ tenant, signingKeys: [key], clients: [client], resourceServers: [rs], clientGrants: [grant] });

      assert.deepEqual(await tenants.getByName(tenant.name), tenant);
      assert.deepEqual(await keys.listByTenant(tenant.id), [key]);
      assert.deepEqual(await clients.get(tenant.id, client.client_id), client);
      assert.deepEqual(await resourceServers.get(tenant.id, rs.id), rs);
      assert.deepEqual(await grants.get(tenant.id, grant.id), grant);
    });

    it('getByIdForUpdate serialises read-modify-writes of the settings: concurrent changes to different settings all survive', async () => {
      const tenant = tenantRow();
      await tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
      const names = ['a', 'b', 'c', 'd', 'e'];
      await Promise.all(
        names.map((name) =>
          h.unitOfWork().transaction(async (stores) => {
            const row = await stores.tenants.getByIdForUpdate(tenant.id);
            assert.ok(row);
            // Another transaction gets every chance to read the same settings before this one writes.
            await new Promise((resolve) => setTimeout(resolve, 20));
            const storedOnly = { ...row.settings.stored_only, [name]: true };
            await stores.tenants.updateSettings(tenant.id, { ...row.settings, stored_only: storedOnly });
          }),
        ),
      );
      const settings = (await tenants.getById(tenant.id))!.settings;
      assert.deepEqual(Object.keys(settings.stored_only ?? {}).sort(), names);
      assert.equal(await tenants.getByIdForUpdate('missing'), undefined);
    });

    it('create is atomic: a duplicate client in the bundle leaves nothing behind', async () => {
      const tenant = tenantRow();
      const dup = clientRow(tenant.id);
      const bundle: TenantBundle = {
        tenant,
        signingKeys: [signingKeyRow(tenant.id)],
        clients: [dup, clientRow(tenant.id, { client_id: dup.client_id, name: 'Other' })],
        resourceServers: [resourceServerRow(tenant.id)],
        clientGrants: [clientGrantRow(tenant.id)],
      };
      await expectUniqueViolation(tenants.create(bundle));

      assert.equal(await tenants.getByName(tenant.name), undefined);
      assert.equal(await tenants.getByDomain(tenant.domain), undefined);
      assert.ok(!(await tenants.list()).some((t) => t.id === tenant.id));
      assert.deepEqual(await keys.listByTenant(tenant.id), []);
      assert.equal(await clients.get(tenant.id, dup.client_id), undefined);
      for (const table of ['signing_keys', 'clients', 'resource_servers', 'client_grants'] as const) {
        assert.equal(await countRows(db, table, tenant.id), 0, `${table} kept rows of the failed tenant`);
      }

      // Nothing blocks the corrected bundle afterwards.
      await tenants.create({ ...bundle, clients: [dup] });
      assert.deepEqual(await tenants.getByName(tenant.name), tenant);
      assert.equal(await countRows(db, 'clients', tenant.id), 1);
    });

    it('create is atomic: a duplicate client grant (the last rows written) leaves nothing behind', async () => {
      const tenant = tenantRow();
      const client = clientRow(tenant.id);
      const rs = resourceServerRow(tenant.id);
      const grant = clientGrantRow(tenant.id, { client_id: client.client_id, audience: rs.identifier });
      const bundle: TenantBundle = {
        tenant,
        signingKeys: [signingKeyRow(tenant.id), signingKeyRow(tenant.id, { status: 'previous' })],
        clients: [client, clientRow(tenant.id)],
        resourceServers: [rs],
        clientGrants: [grant, { ...grant, id: newPrefixedId('cgr') }],
      };
      await expectUniqueViolation(tenants.create(bundle));

      assert.equal(await tenants.getByName(tenant.name), undefined);
      assert.equal(await tenants.getByDomain(tenant.domain), undefined);
      assert.deepEqual(await keys.listByTenant(tenant.id), []);
      assert.equal(await clients.get(tenant.id, client.client_id), undefined);
      assert.equal(await resourceServers.get(tenant.id, rs.id), undefined);
      assert.equal(await grants.get(tenant.id, grant.id), undefined);
      for (const table of ['signing_keys', 'clients', 'resource_servers', 'client_grants'] as const) {
        assert.equal(await countRows(db, table, tenant.id), 0, `${table} kept rows of the failed tenant`);
      }
    });

    it('create is atomic: a duplicate resource server identifier leaves nothing behind', async () => {
      const tenant = tenantRow();
      const rs = resourceServerRow(tenant.id);
      await expectUniqueViolation(
        tenants.create({
          ...emptyBundle(tenant),
          signingKeys: [signingKeyRow(tenant.id)],
          clients: [clientRow(tenant.id)],
          resourceServers: [rs, resourceServerRow(tenant.id, { identifier: rs.identifier })],
        }),
      );
      assert.equal(await tenants.getByName(tenant.name), undefined);
      for (const table of ['signing_keys', 'clients', 'resource_servers', 'client_grants'] as const) {
        assert.equal(await countRows(db, table, tenant.id), 0, `${table} kept rows of the failed tenant`);
      }
    });

    it('create fails with a unique violation for a taken name or domain and leaves the existing tenant alone', async () => {
      const existing = tenantRow({ settings: { admin_client_id: 'a' } });
      await tenants.create(emptyBundle(existing));

      const sameName = tenantRow({ name: existing.name });
      await expectUniqueViolation(tenants.create({ ...emptyBundle(sameName), signingKeys: [signingKeyRow(sameName.id)] }));
      const sameDomain = tenantRow({ domain: existing.domain });
      await expectUniqueViolation(tenants.create({ ...emptyBundle(sameDomain), clients: [clientRow(sameDomain.id)] }));

      assert.deepEqual(await tenants.getByName(existing.name), existing);
      assert.deepEqual(await tenants.getByDomain(existing.domain), existing);
      assert.equal(await countRows(db, 'signing_keys', sameName.id), 0);
      assert.equal(await countRows(db, 'clients', sameDomain.id), 0);
      assert.equal(await tenants.getByDomain(sameName.domain), undefined);
      assert.equal(await tenants.getByName(sameDomain.name), undefined);
    });

    it('getByDomain and getByName find the tenant, undefined when unknown', async () => {
      const a = tenantRow({ domain: `${randomString(10, LOWER)}.example.test:8443` });
      const b = tenantRow();
      await tenants.create(emptyBundle(a));
      await tenants.create(emptyBundle(b));

      assert.deepEqual(await tenants.getByDomain(a.domain), a);
      assert.deepEqual(await tenants.getByDomain(b.domain), b);
      assert.deepEqual(await tenants.getByName(a.name), a);
      assert.deepEqual(await tenants.getByName(b.name), b);
      assert.equal(await tenants.getByDomain('nobody.example.test'), undefined);
      assert.equal(await tenants.getByDomain(a.domain.split(':')[0]!), undefined, 'the port is part of the domain');
      assert.equal(await tenants.getByName('no-such-tenant'), undefined);
      assert.equal(await tenants.getByName(a.domain), undefined, 'a domain is not a name');
    });

    it('list returns every tenant by creation time (id breaks ties)', async () => {
      const late = tenantRow({ created_at: at(300) });
      const early = tenantRow({ created_at: at(100) });
      const tieB = tenantRow({ id: `ten_tie_${randomString(8)}_b`, created_at: at(200) });
      const tieA = tenantRow({ id: tieB.id.replace(/_b$/, '_a'), created_at: at(200) });
      for (const t of [late, tieB, early, tieA]) await tenants.create(emptyBundle(t));

      const all = await tenants.list();
      const mine = all.filter((t) => [late, early, tieA, tieB].some((x) => x.id === t.id));
      assert.deepEqual(mine, [early, tieA, tieB, late]);
      const sorted = [...all].sort((x, y) => byCodepoint(x.created_at, y.created_at) || byCodepoint(x.id, y.id));
      assert.deepEqual(ids(all), ids(sorted), 'the whole list is in (created_at, id) order');
      assert.equal(new Set(ids(all)).size, all.length);
    });

    it('updateSettings replaces the settings of that tenant only; false when unknown', async () => {
      const a = tenantRow({ settings: { admin_client_id: 'x' } });
      const b = tenantRow({ settings: { admin_client_id: 'y' } });
      await tenants.create(emptyBundle(a));
      await tenants.create(emptyBundle(b));

      assert.equal(await tenants.updateSettings(a.id, { admin_client_id: 'z', default_audience: 'aud' }), true);
      assert.deepEqual(await tenants.getByName(a.name), { ...a, settings: { admin_client_id: 'z', default_audience: 'aud' } });
      assert.deepEqual(await tenants.getByName(b.name), b);

      assert.equal(await tenants.updateSettings('ten_does_not_exist', { admin_client_id: 'none' }), false);
      assert.deepEqual(await tenants.getByName(b.name), b);
    });
  });

  describe('SigningKeyStore', () => {
    it('insert round-trips every column; listByTenant is oldest first (kid breaks ties)', async () => {
      const tenantId = await newTenant();
      const newest = signingKeyRow(tenantId, { kid: 'kid-c', created_at: at(30) });
      const oldest = signingKeyRow(tenantId, { kid: 'kid-z', created_at: at(10), status: 'previous' });
      const tieB = signingKeyRow(tenantId, { kid: 'kid-b', created_at: at(20) });
      const tieA = signingKeyRow(tenantId, { kid: 'kid-a', created_at: at(20) });
      for (const k of [newest, tieB, oldest, tieA]) await keys.insert(k);

      assert.deepEqual(await keys.listByTenant(tenantId), [oldest, tieA, tieB, newest]);
    });

    it('rotate: current to previous, next to current, a new next, atomically; false and nothing changed when another rotation came first', async () => {
      const tenantId = await newTenant();
      const current = signingKeyRow(tenantId, { kid: 'kid-cur', created_at: at(1) });
      const next = signingKeyRow(tenantId, { kid: 'kid-next', status: 'next', current_since: null, created_at: at(2) });
      await keys.insert(current);
      await keys.insert(next);
      const newNext = signingKeyRow(tenantId, { kid: 'kid-new', status: 'next', current_since: null, created_at: at(50) });
      assert.equal(await keys.rotate(tenantId, { currentKid: current.kid, nextKid: next.kid, newNext, at: at(50) }), true);
      assert.deepEqual(await keys.listByTenant(tenantId), [
        { ...current, status: 'previous', current_until: at(50) },
        { ...next, status: 'current', current_since: at(50) },
        newNext,
      ]);
      const late = signingKeyRow(tenantId, { kid: 'kid-late', status: 'next', current_since: null, created_at: at(60) });
      assert.equal(await keys.rotate(tenantId, { currentKid: current.kid, nextKid: next.kid, newNext: late, at: at(60) }), false);
      assert.equal(await keys.get(tenantId, 'kid-late'), undefined, 'the losing rotation inserted nothing');
      assert.equal((await keys.get(tenantId, next.kid))?.status, 'current');
    });

    it('revoke: only a previous key, once; get finds any key of the tenant', async () => {
      const tenantId = await newTenant();
      const previous = signingKeyRow(tenantId, { kid: 'kid-prev', status: 'previous', current_until: at(5) });
      const current = signingKeyRow(tenantId, { kid: 'kid-cur' });
      await keys.insert(previous);
      await keys.insert(current);
      assert.equal(await keys.revoke(tenantId, current.kid, at(10)), false);
      assert.equal(await keys.revoke(tenantId, 'kid-unknown', at(10)), false);
      assert.equal(await keys.revoke(tenantId, previous.kid, at(10)), true);
      assert.equal(await keys.revoke(tenantId, previous.kid, at(11)), false);
      assert.deepEqual(await keys.get(tenantId, previous.kid), { ...previous, status: 'revoked', revoked_at: at(10) });
      assert.deepEqual(await keys.get(tenantId, current.kid), current);
      assert.equal(await keys.get(await newTenant(), current.kid), undefined);
    });

    it('insert fails for an existing (tenant, kid) and keeps the first key', async () => {
      const tenantId = await newTenant();
      const key = signingKeyRow(tenantId);
      await keys.insert(key);
      await expectUniqueViolation(keys.insert(signingKeyRow(tenantId, { kid: key.kid, status: 'previous', created_at: at(5) })));
      assert.deepEqual(await keys.listByTenant(tenantId), [key]);
    });

    it('keys are per tenant: the same kid in two tenants, each listed with its own', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const keyA = signingKeyRow(a, { kid: 'shared-kid' });
      const keyB = signingKeyRow(b, { kid: 'shared-kid', cert_der: 'other-cert' });
      const onlyB = signingKeyRow(b, { created_at: at(1) });
      await keys.insert(keyA);
      await keys.insert(keyB);
      await keys.insert(onlyB);

      assert.deepEqual(await keys.listByTenant(a), [keyA]);
      assert.deepEqual(await keys.listByTenant(b), [keyB, onlyB]);
      assert.deepEqual(await keys.listByTenant('ten_unknown'), []);
    });

    it('insert fails for a tenant that does not exist (foreign key)', async () => {
      await rejection(keys.insert(signingKeyRow('ten_missing')));
      assert.deepEqual(await keys.listByTenant('ten_missing'), []);
    });
  });

  describe('ClientStore', () => {
    it('get returns the inserted client with every column; undefined when unknown', async () => {
      const tenantId = await newTenant();
      const plain = clientRow(tenantId);
      const full = clientRow(tenantId, {
        name: 'Full',
        description: 'with every optional column set',
        app_type: 'non_interactive',
        is_first_party: 0,
        global: 1,
        token_endpoint_auth_method: 'private_key_jwt',
        client_authentication_methods: { private_key_jwt: { credentials: [] } },
        grant_types: ['client_credentials'],
        client_secret_enc: 'sealed-secret',
        created_at: at(1),
        updated_at: at(2),
      });
      await clients.insert(plain);
      await clients.insert(full);

      assert.deepEqual(await clients.get(tenantId, plain.client_id), plain);
      assert.deepEqual(await clients.get(tenantId, full.client_id), full);
      assert.equal(await clients.get(tenantId, 'no-such-client'), undefined);
      assert.equal(await clients.get('ten_unknown', plain.client_id), undefined);
    });

    it('insert fails on a duplicate (tenant, client_id) and keeps the first client', async () => {
      const tenantId = await newTenant();
      const client = clientRow(tenantId, { name: 'First' });
      await clients.insert(client);
      await expectUniqueViolation(clients.insert(clientRow(tenantId, { client_id: client.client_id, name: 'Second' })));
      assert.deepEqual(await clients.get(tenantId, client.client_id), client);
      assert.equal(await countRows(db, 'clients', tenantId), 1);
    });

    it('the same client_id in two tenants is allowed; each get returns its own', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const clientA = clientRow(a, { client_id: 'shared-client-id', name: 'In A' });
      const clientB = clientRow(b, { client_id: 'shared-client-id', name: 'In B', global: 1 });
      const onlyA = clientRow(a);
      await clients.insert(clientA);
      await clients.insert(clientB);
      await clients.insert(onlyA);

      assert.deepEqual(await clients.get(a, 'shared-client-id'), clientA);
      assert.deepEqual(await clients.get(b, 'shared-client-id'), clientB);
      assert.equal(await clients.get(b, onlyA.client_id), undefined);
    });
  });

  describe('ResourceServerStore', () => {
    it('get and getByIdentifier return the inserted row; undefined when unknown or in another tenant', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const rs = resourceServerRow(a, {
        scopes: [{ value: 'read:x', description: 'Read X' }],
        signing_alg: 'HS256',
        signing_secret_enc: 'sealed-secret',
        allow_offline_access: 1,
        skip_consent_for_verifiable_first_party_clients: 1,
        enforce_policies: 1,
        token_dialect: 'access_token_authz',
        options: { token_encryption: null },
        created_at: at(1),
        updated_at: at(2),
      });
      await resourceServers.insert(rs);

      assert.deepEqual(await resourceServers.get(a, rs.id), rs);
      assert.deepEqual(await resourceServers.getByIdentifier(a, rs.identifier), rs);
      assert.equal(await resourceServers.get(a, 'no-such-id'), undefined);
      assert.equal(await resourceServers.getByIdentifier(a, 'https://unknown.example.test/'), undefined);
      assert.equal(await resourceServers.get(b, rs.id), undefined);
      assert.equal(await resourceServers.getByIdentifier(b, rs.identifier), undefined);
    });

    it('insert fails with a unique violation when the identifier is taken in the tenant', async () => {
      const tenantId = await newTenant();
      const rs = resourceServerRow(tenantId, { name: 'First' });
      await resourceServers.insert(rs);
      await expectUniqueViolation(resourceServers.insert(resourceServerRow(tenantId, { identifier: rs.identifier, name: 'Second' })));
      assert.deepEqual(await resourceServers.getByIdentifier(tenantId, rs.identifier), rs);
      assert.equal(await countRows(db, 'resource_servers', tenantId), 1);
    });

    it('insert fails with a unique violation for a taken id in the tenant', async () => {
      const tenantId = await newTenant();
      const rs = resourceServerRow(tenantId);
      await resourceServers.insert(rs);
      await expectUniqueViolation(resourceServers.insert(resourceServerRow(tenantId, { id: rs.id })));
      assert.equal(await countRows(db, 'resource_servers', tenantId), 1);
    });

    it('the same identifier in another tenant is fine', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const inA = resourceServerRow(a, { identifier: 'https://shared.example.test/', name: 'A' });
      const inB = resourceServerRow(b, { identifier: 'https://shared.example.test/', name: 'B' });
      await resourceServers.insert(inA);
      await resourceServers.insert(inB);
      assert.deepEqual(await resourceServers.getByIdentifier(a, 'https://shared.example.test/'), inA);
      assert.deepEqual(await resourceServers.getByIdentifier(b, 'https://shared.example.test/'), inB);
    });

    describe('list', () => {
      let tenantId: string;
      let otherTenantId: string;
      /** The tenant's resource servers in creation order. */
      let ordered: ResourceServerRow[];

      before(async () => {
        tenantId = await newTenant();
        otherTenantId = await newTenant();
        // Inserted out of order; two share a timestamp, so the id breaks the tie.
        const rows = [
          resourceServerRow(tenantId, { id: 'rs-e', identifier: 'https://e.example.test/', created_at: at(50) }),
          resourceServerRow(tenantId, { id: 'rs-a', identifier: 'https://a.example.test/', created_at: at(10) }),
          resourceServerRow(tenantId, { id: 'rs-d', identifier: 'https://d.example.test/', created_at: at(30) }),
          resourceServerRow(tenantId, { id: 'rs-c', identifier: 'https://c.example.test/', created_at: at(30) }),
          resourceServerRow(tenantId, { id: 'rs-b', identifier: 'https://b.example.test/', created_at: at(20) }),
          resourceServerRow(tenantId, { id: 'rs-f', identifier: 'https://f.example.test/', created_at: at(60) }),
        ];
        for (const row of rows) await resourceServers.insert(row);
        await resourceServers.insert(resourceServerRow(otherTenantId, { id: 'rs-0', identifier: 'https://a.example.test/', created_at: at(0) }));
        ordered = [...rows].sort((x, y) => byCodepoint(x.created_at, y.created_at) || byCodepoint(x.id, y.id));
      });

      it('pages in creation order with offset and limit, only the tenant’s own rows', async () => {
        assert.deepEqual(ids(ordered), ['rs-a', 'rs-b', 'rs-c', 'rs-d', 'rs-e', 'rs-f']);
        const all = await resourceServers.list(tenantId, { offset: 0, limit: 100, withTotal: false });
        assert.deepEqual(all.rows, ordered);
        assert.equal(all.total, undefined);

        const pages: ResourceServerRow[] = [];
        for (let offset = 0; offset < 8; offset += 4) {
          const page = await resourceServers.list(tenantId, { offset, limit: 4, withTotal: true });
          assert.equal(page.total, 6);
          pages.push(...page.rows);
        }
        assert.deepEqual(pages, ordered);
        assert.deepEqual(ids((await resourceServers.list(tenantId, { offset: 2, limit: 2, withTotal: false })).rows), ['rs-c', 'rs-d']);
      });

      it('withTotal counts every match, also past the last page', async () => {
        const page = await resourceServers.list(tenantId, { offset: 10, limit: 5, withTotal: true });
        assert.deepEqual(page.rows, []);
        assert.equal(page.total, 6);
        const empty = await resourceServers.list('ten_unknown', { offset: 0, limit: 5, withTotal: true });
        assert.deepEqual(empty, { rows: [], total: 0 });
      });

      it('identifiers narrows to those identifiers, in creation order, with their total', async () => {
        const page = await resourceServers.list(tenantId, {
          offset: 0,
          limit: 10,
          identifiers: ['https://f.example.test/', 'https://b.example.test/', 'https://nothing.example.test/'],
          withTotal: true,
        });
        assert.deepEqual(ids(page.rows), ['rs-b', 'rs-f']);
        assert.equal(page.total, 2);

        const second = await resourceServers.list(tenantId, {
          offset: 1,
          limit: 1,
          identifiers: ['https://a.example.test/', 'https://c.example.test/', 'https://e.example.test/'],
          withTotal: true,
        });
        assert.deepEqual(ids(second.rows), ['rs-c']);
        assert.equal(second.total, 3);

        const none = await resourceServers.list(tenantId, { offset: 0, limit: 10, identifiers: ['https://nothing.example.test/'], withTotal: true });
        assert.deepEqual(none, { rows: [], total: 0 });

        // The other tenant's https://a.example.test/ is not this tenant's.
        const other = await resourceServers.list(otherTenantId, { offset: 0, limit: 10, identifiers: ['https://a.example.test/'], withTotal: true });
        assert.deepEqual(ids(other.rows), ['rs-0']);
        assert.equal(other.total, 1);
      });
    });

    it('update applies only the changed columns; false for an unknown id or another tenant’s', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const rs = resourceServerRow(a);
      const untouched = resourceServerRow(a);
      const inB = resourceServerRow(b, { id: rs.id, identifier: rs.identifier });
      await resourceServers.insert(rs);
      await resourceServers.insert(untouched);
      await resourceServers.insert(inB);

      const changes = { name: 'Renamed', scopes: [{ value: 'write:x' }], token_lifetime: 60, updated_at: at(99) };
      assert.equal(await resourceServers.update(a, rs.id, changes), true);
      assert.deepEqual(await resourceServers.get(a, rs.id), { ...rs, ...changes });
      assert.deepEqual(await resourceServers.get(a, untouched.id), untouched);
      assert.deepEqual(await resourceServers.get(b, rs.id), inB);

      assert.equal(await resourceServers.update(a, 'no-such-id', { name: 'x' }), false);
      assert.equal(await resourceServers.update('ten_unknown', rs.id, { name: 'x' }), false);
      assert.deepEqual(await resourceServers.get(a, rs.id), { ...rs, ...changes });
      assert.deepEqual(await resourceServers.get(b, rs.id), inB);
    });

    it('delete removes the resource server and the client grants for its identifier; false when unknown', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const rs = resourceServerRow(a);
      const keep = resourceServerRow(a);
      await resourceServers.insert(rs);
      await resourceServers.insert(keep);
      await resourceServers.insert(resourceServerRow(b, { identifier: rs.identifier }));
      const doomed = [
        clientGrantRow(a, { audience: rs.identifier }),
        clientGrantRow(a, { audience: rs.identifier, subject_type: 'user' }),
        clientGrantRow(a, { audience: rs.identifier, client_id: null, default_for: 'third_party_clients' }),
      ];
      const kept = [clientGrantRow(a, { audience: keep.identifier })];
      const otherTenant = clientGrantRow(b, { audience: rs.identifier });
      for (const g of [...doomed, ...kept, otherTenant]) await grants.insert(g);

      assert.equal(await resourceServers.delete(a, rs.id), true);
      assert.equal(await resourceServers.get(a, rs.id), undefined);
      assert.equal(await resourceServers.getByIdentifier(a, rs.identifier), undefined);
      for (const g of doomed) assert.equal(await grants.get(a, g.id), undefined, `grant ${g.id} for the deleted audience survived`);
      assert.deepEqual(await grants.get(a, kept[0]!.id), kept[0]);
      assert.deepEqual(await resourceServers.get(a, keep.id), keep);
      assert.deepEqual(await grants.get(b, otherTenant.id), otherTenant);
      assert.ok(await resourceServers.getByIdentifier(b, rs.identifier));

      assert.equal(await resourceServers.delete(a, rs.id), false, 'a second delete finds nothing');
      assert.equal(await resourceServers.delete(a, 'no-such-id'), false);
      assert.equal(await resourceServers.delete('ten_unknown', keep.id), false);
      assert.deepEqual(await resourceServers.get(a, keep.id), keep);
    });

    it('delete is atomic: when removing the resource server fails, its client grants stay', async () => {
      const tenantId = await newTenant();
      const guardedId = `guarded${randomString(8, '0123456789abcdef')}`;
      const rs = resourceServerRow(tenantId, { id: guardedId });
      await resourceServers.insert(rs);
      const grant = clientGrantRow(tenantId, { audience: rs.identifier });
      await grants.insert(grant);

      // A trigger makes the second statement of the delete (the resource server row) fail.
      if (h.dialect() === 'sqlite') {
        await sql`CREATE TRIGGER rs_delete_guard BEFORE DELETE ON resource_servers WHEN old.id = ${sql.lit(guardedId)} BEGIN SELECT RAISE(ABORT, 'guarded'); END`.execute(db);
      } else {
        await sql`CREATE FUNCTION rs_delete_guard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF OLD.id = ${sql.lit(guardedId)} THEN RAISE EXCEPTION 'guarded'; END IF; RETURN OLD; END $$`.execute(db);
        await sql`CREATE TRIGGER rs_delete_guard BEFORE DELETE ON resource_servers FOR EACH ROW EXECUTE FUNCTION rs_delete_guard()`.execute(db);
      }
      try {
        const error = await rejection(resourceServers.delete(tenantId, rs.id));
        assert.match(String(error), /guarded/);
      } finally {
        if (h.dialect() === 'sqlite') {
          await sql`DROP TRIGGER rs_delete_guard`.execute(db);
        } else {
          await sql`DROP TRIGGER rs_delete_guard ON resource_servers`.execute(db);
          await sql`DROP FUNCTION rs_delete_guard()`.execute(db);
        }
      }
      assert.deepEqual(await resourceServers.get(tenantId, rs.id), rs);
      assert.deepEqual(await grants.get(tenantId, grant.id), grant, 'the grant was deleted although the resource server was not');

      assert.equal(await resourceServers.delete(tenantId, rs.id), true);
      assert.equal(await grants.get(tenantId, grant.id), undefined);
    });
  });

  describe('ClientGrantStore', () => {
    it('get returns the inserted grant with every column; undefined when unknown or in another tenant', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const sparse = clientGrantRow(a, { client_id: null, default_for: 'third_party_clients' });
      const full = clientGrantRow(a, {
        scope: ['read:x', 'write:x'],
        organization_usage: 'allow',
        allow_any_organization: 1,
        is_system: 1,
        subject_type: 'user',
        authorization_details_types: ['payment'],
        allow_all_scopes: 0,
        created_at: at(7),
      });
      await grants.insert(sparse);
      await grants.insert(full);

      assert.deepEqual(await grants.get(a, sparse.id), sparse);
      assert.deepEqual(await grants.get(a, full.id), full);
      assert.equal(await grants.get(a, 'cgr_unknown'), undefined);
      assert.equal(await grants.get(b, full.id), undefined);
    });

    it('insert fails with a unique violation for a second grant of one client, audience and subject type', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const first = clientGrantRow(a, { scope: ['a'] });
      await grants.insert(first);
      await expectUniqueViolation(grants.insert(clientGrantRow(a, { client_id: first.client_id, audience: first.audience, scope: ['b'] })));

      const user = clientGrantRow(a, { client_id: first.client_id, audience: first.audience, subject_type: 'user' });
      await grants.insert(user);
      await expectUniqueViolation(grants.insert(clientGrantRow(a, { client_id: first.client_id, audience: first.audience, subject_type: 'user' })));

      // Other audience, other client, other tenant: all fine.
      await grants.insert(clientGrantRow(a, { client_id: first.client_id, audience: 'https://other.example.test/' }));
      await grants.insert(clientGrantRow(a, { audience: first.audience }));
      await grants.insert(clientGrantRow(b, { client_id: first.client_id, audience: first.audience }));

      const page = await grants.list(a, { client_id: first.client_id!, audience: first.audience }, { kind: 'offset', offset: 0, limit: 10, withTotal: true });
      assert.deepEqual(page.rows, [first, user].sort((x, y) => byCodepoint(x.id, y.id)));
      assert.equal(page.total, 2);
    });

    it('refuses a grant without a subject type (NOT NULL; the service defaults it to client)', async () => {
      const tenantId = await newTenant();
      await assert.rejects(grants.insert(clientGrantRow(tenantId, { subject_type: null as unknown as string })));
      assert.deepEqual((await grants.list(tenantId, {}, { kind: 'keyset', limit: 10 })).rows, []);
    });

    it('insert fails with a unique violation for a taken id in the tenant', async () => {
      const tenantId = await newTenant();
      const grant = clientGrantRow(tenantId);
      await grants.insert(grant);
      await expectUniqueViolation(grants.insert(clientGrantRow(tenantId, { id: grant.id })));
      assert.deepEqual(await grants.get(tenantId, grant.id), grant);
    });

    it('findForClient matches subject_type client, never user', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const audX = 'https://x.example.test/';
      const audY = 'https://y.example.test/';
      const audZ = 'https://z.example.test/';
      const asClient = clientGrantRow(a, { client_id: 'client-1', audience: audX, subject_type: 'client' });
      const asUser = clientGrantRow(a, { client_id: 'client-1', audience: audY, subject_type: 'user' });
      const unset = clientGrantRow(a, { client_id: 'client-2', audience: audY, subject_type: 'client' });
      const userBeside = clientGrantRow(a, { client_id: 'client-2', audience: audX, subject_type: 'user' });
      const clientBeside = clientGrantRow(a, { client_id: 'client-2', audience: audX, subject_type: 'client' });
      const otherTenant = clientGrantRow(b, { client_id: 'client-3', audience: audZ });
      for (const g of [asClient, asUser, unset, userBeside, clientBeside, otherTenant]) await grants.insert(g);

      assert.deepEqual(await grants.findForClient(a, 'client-1', audX), asClient);
      assert.equal(await grants.findForClient(a, 'client-1', audY), undefined, 'a user grant does not let the client act as itself');
      assert.deepEqual(await grants.findForClient(a, 'client-2', audY), unset);
      assert.deepEqual(await grants.findForClient(a, 'client-2', audX), clientBeside);
      assert.equal(await grants.findForClient(a, 'client-1', audZ), undefined);
      assert.equal(await grants.findForClient(a, 'client-9', audX), undefined);
      assert.equal(await grants.findForClient(a, 'client-3', audZ), undefined, 'another tenant’s grant');
      assert.deepEqual(await grants.findForClient(b, 'client-3', audZ), otherTenant);
    });

    describe('list filters', () => {
      let tenantId: string;
      const audX = 'https://x.example.test/';
      const audY = 'https://y.example.test/';
      const rows: Record<string, ClientGrantRow> = {};

      before(async () => {
        tenantId = await newTenant();
        const other = await newTenant();
        rows.g1 = clientGrantRow(tenantId, { client_id: 'client-a', audience: audX, subject_type: 'client', organization_usage: 'allow', allow_any_organization: 1 });
        rows.g2 = clientGrantRow(tenantId, { client_id: 'client-a', audience: audY, subject_type: 'user', organization_usage: 'deny', allow_any_organization: 0 });
        rows.g3 = clientGrantRow(tenantId, { client_id: 'client-b', audience: audX, subject_type: 'client', organization_usage: 'deny', allow_any_organization: 0 });
        rows.g4 = clientGrantRow(tenantId, { client_id: null, audience: audX, subject_type: 'client', default_for: 'third_party_clients' });
        rows.g5 = clientGrantRow(tenantId, { client_id: 'client-b', audience: audY, subject_type: 'client', allow_any_organization: null });
        for (const g of Object.values(rows)) await grants.insert(g);
        // Matches most filters, but lives in another tenant.
        await grants.insert(clientGrantRow(other, { client_id: 'client-a', audience: audX, allow_any_organization: 1, default_for: 'third_party_clients' }));
      });

      /** Both paging kinds, with room for every row; they must agree. */
      async function listIds(filter: ClientGrantFilter): Promise<string[]> {
        const keyset = await grants.list(tenantId, filter, { kind: 'keyset', limit: 100 });
        const offset = await grants.list(tenantId, filter, { kind: 'offset', offset: 0, limit: 100, withTotal: true });
        assert.deepEqual(offset.rows, keyset.rows);
        assert.equal(offset.total, offset.rows.length);
        return ids(keyset.rows);
      }

      const expect = (...names: string[]): string[] => names.map((n) => rows[n]!.id).sort(byCodepoint);

      it('no filter: every grant of the tenant, by id', async () => {
        assert.deepEqual(await listIds({}), expect('g1', 'g2', 'g3', 'g4', 'g5'));
        const all = await grants.list(tenantId, {}, { kind: 'keyset', limit: 100 });
        assert.deepEqual(all.rows, Object.values(rows).sort((x, y) => byCodepoint(x.id, y.id)));
      });

      it('audience', async () => {
        assert.deepEqual(await listIds({ audience: audX }), expect('g1', 'g3', 'g4'));
        assert.deepEqual(await listIds({ audience: audY }), expect('g2', 'g5'));
        assert.deepEqual(await listIds({ audience: 'https://none.example.test/' }), []);
      });

      it('client_id', async () => {
        assert.deepEqual(await listIds({ client_id: 'client-a' }), expect('g1', 'g2'));
        assert.deepEqual(await listIds({ client_id: 'client-b' }), expect('g3', 'g5'));
        assert.deepEqual(await listIds({ client_id: 'client-z' }), []);
      });

      it('allow_any_organization', async () => {
        assert.deepEqual(await listIds({ allow_any_organization: true }), expect('g1'));
        const notAllowed = await listIds({ allow_any_organization: false });
        // Unset (g4, g5) counts as false.
        assert.deepEqual(notAllowed, expect('g2', 'g3', 'g4', 'g5'));
        assert.ok(!notAllowed.includes(rows.g1!.id));
      });

      it('subject_type', async () => {
        assert.deepEqual(await listIds({ subject_type: 'user' }), expect('g2'));
        assert.deepEqual(await listIds({ subject_type: 'client' }), expect('g1', 'g3', 'g4', 'g5'));
      });

      it('default_for', async () => {
        assert.deepEqual(await listIds({ default_for: 'third_party_clients' }), expect('g4'));
        assert.deepEqual(await listIds({ default_for: 'first_party_clients' }), []);
      });

      it('filters combine', async () => {
        assert.deepEqual(await listIds({ audience: audX, client_id: 'client-b' }), expect('g3'));
        assert.deepEqual(await listIds({ audience: audX, subject_type: 'client', allow_any_organization: false }), expect('g3', 'g4'));
        assert.deepEqual(await listIds({ client_id: 'client-a', subject_type: 'client', audience: audY }), []);
      });

      it('keyset paging applies the filter too', async () => {
        const [first, second, third] = expect('g1', 'g3', 'g4');
        const page1 = await grants.list(tenantId, { audience: audX }, { kind: 'keyset', limit: 2 });
        assert.deepEqual(ids(page1.rows), [first, second]);
        const page2 = await grants.list(tenantId, { audience: audX }, { kind: 'keyset', after: second!, limit: 2 });
        assert.deepEqual(ids(page2.rows), [third]);
        assert.equal((page2 as { total?: number }).total, undefined);
      });
    });

    it('offset paging walks every row once, by id, with the total of all matches', async () => {
      const tenantId = await newTenant();
      const rows = Array.from({ length: 8 }, (_, i) => clientGrantRow(tenantId, { audience: i % 2 ? 'https://odd.example.test/' : 'https://even.example.test/' }));
      for (const g of rows) await grants.insert(g);
      const expected = ids(rows).sort(byCodepoint);

      const seen: string[] = [];
      for (let offset = 0; offset < 12; offset += 3) {
        const page = await grants.list(tenantId, {}, { kind: 'offset', offset, limit: 3, withTotal: true });
        assert.equal(page.total, 8);
        assert.ok(page.rows.length <= 3);
        seen.push(...ids(page.rows));
      }
      assert.deepEqual(seen, expected);

      const noTotal = await grants.list(tenantId, {}, { kind: 'offset', offset: 0, limit: 3, withTotal: false });
      assert.equal(noTotal.total, undefined);
      assert.deepEqual(ids(noTotal.rows), expected.slice(0, 3));

      const filtered = await grants.list(tenantId, { audience: 'https://odd.example.test/' }, { kind: 'offset', offset: 1, limit: 2, withTotal: true });
      const odd = ids(rows.filter((_, i) => i % 2)).sort(byCodepoint);
      assert.deepEqual(ids(filtered.rows), odd.slice(1, 3));
      assert.equal(filtered.total, 4);
    });

    it('keyset paging with after visits every row exactly once, in id order', async () => {
      const tenantId = await newTenant();
      // Random mixed-case ids, as the service generates them (cgr_ + [A-Za-z0-9]).
      const rows = Array.from({ length: 11 }, () => clientGrantRow(tenantId));
      for (const g of rows) await grants.insert(g);
      const expected = ids(rows).sort(byCodepoint);

      const seen: string[] = [];
      let after: string | undefined;
      for (let guard = 0; guard < 20; guard++) {
        const page = await grants.list(tenantId, {}, { kind: 'keyset', limit: 4, ...(after !== undefined && { after }) });
        assert.ok(page.rows.length <= 4);
        if (!page.rows.length) break;
        seen.push(...ids(page.rows));
        after = page.rows.at(-1)!.id;
      }
      assert.deepEqual(seen, expected);

      assert.deepEqual(ids((await grants.list(tenantId, {}, { kind: 'keyset', after: expected.at(-1)!, limit: 4 })).rows), []);
      // The cursor need not be an existing id (the row may have been deleted since).
      const gone = expected[5]!;
      assert.equal(await grants.delete(tenantId, gone), true);
      assert.deepEqual(ids((await grants.list(tenantId, {}, { kind: 'keyset', after: gone, limit: 100 })).rows), expected.slice(6));
    });

    it('keyset paging stays correct when rows are inserted and deleted between pages', async () => {
      const tenantId = await newTenant();
      const id = (n: number): string => `cgr_k${String(n).padStart(3, '0')}`;
      const initial = Array.from({ length: 12 }, (_, i) => i * 10); // k000 … k110
      for (const n of initial) await grants.insert(clientGrantRow(tenantId, { id: id(n) }));

      const deleted = new Map<string, 'ahead' | 'behind'>();
      const inserted = new Map<string, 'ahead' | 'behind'>();
      const seen: string[] = [];
      let after: string | undefined;
      let page = 0;
      for (let guard = 0; guard < 30; guard++) {
        const { rows } = await grants.list(tenantId, {}, { kind: 'keyset', limit: 3, ...(after !== undefined && { after }) });
        if (!rows.length) break;
        seen.push(...ids(rows));
        const cursorId = rows.at(-1)!.id;
        after = cursorId;
        page++;

        // Between pages: insert behind and ahead of the cursor, delete the cursor row itself,
        // a row already visited and a row not yet visited.
        const cursor = Number(cursorId.slice('cgr_k'.length));
        const where = (x: string): 'ahead' | 'behind' => (x > cursorId ? 'ahead' : 'behind');
        const insert = async (n: number): Promise<void> => {
          await grants.insert(clientGrantRow(tenantId, { id: id(n) }));
          inserted.set(id(n), where(id(n)));
        };
        const remove = async (n: number): Promise<void> => {
          assert.equal(await grants.delete(tenantId, id(n)), true, `${id(n)} should exist`);
          deleted.set(id(n), where(id(n)));
        };
        if (page === 1) {
          await insert(cursor - 5); // behind
          await insert(cursor + 5); // ahead, right after the cursor
          await remove(cursor); // the cursor row itself
          await remove(cursor + 30); // ahead
        } else if (page === 2) {
          await insert(cursor + 1); // ahead
          await insert(999); // far ahead
          await remove(0); // visited
          await remove(cursor + 20); // ahead
          await insert(1); // behind
        } else if (page === 3) {
          await remove(cursor); // the cursor row itself
          await remove(999); // inserted ahead, deleted before it was reached
        }
      }

      assert.ok(page >= 4, 'the walk took several pages');
      assert.equal(new Set(seen).size, seen.length, `a row was visited twice: ${seen.join(', ')}`);
      assert.deepEqual(seen, [...seen].sort(byCodepoint), 'rows are visited in id order');
      const throughout = initial.map(id).filter((x) => !deleted.has(x));
      for (const x of throughout) assert.ok(seen.includes(x), `${x}, present throughout, was skipped (saw ${seen.join(', ')})`);
      for (const [x, position] of inserted) {
        if (position === 'behind') assert.ok(!seen.includes(x), `${x}, inserted behind the cursor, was visited`);
        else if (!deleted.has(x)) assert.ok(seen.includes(x), `${x}, inserted ahead of the cursor, was skipped`);
      }
      for (const [x, position] of deleted) {
        if (position === 'ahead') assert.ok(!seen.includes(x), `${x}, deleted before the cursor reached it, was visited`);
      }
      // What is left is exactly what a fresh walk sees.
      const fresh = await grants.list(tenantId, {}, { kind: 'keyset', limit: 100 });
      assert.deepEqual(ids(fresh.rows), [...new Set([...throughout, ...[...inserted.keys()].filter((x) => !deleted.has(x))])].sort(byCodepoint));
      assert.equal(deleted.size, 6);
      assert.equal(inserted.size, 5);
    });

    it('update applies the changes; false for an unknown id or another tenant’s', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const grant = clientGrantRow(a);
      const inB = clientGrantRow(b, { id: grant.id });
      await grants.insert(grant);
      await grants.insert(inB);

      const changes = { scope: ['read:y'], organization_usage: 'allow', allow_any_organization: 1, allow_all_scopes: null };
      assert.equal(await grants.update(a, grant.id, changes), true);
      assert.deepEqual(await grants.get(a, grant.id), { ...grant, ...changes });
      assert.deepEqual(await grants.get(b, grant.id), inB);

      assert.equal(await grants.update(a, 'cgr_unknown', { scope: [] }), false);
      assert.equal(await grants.update('ten_unknown', grant.id, { scope: [] }), false);
      assert.deepEqual(await grants.get(a, grant.id), { ...grant, ...changes });
    });

    it('delete removes the grant; false for an unknown id or another tenant’s', async () => {
      const a = await newTenant();
      const b = await newTenant();
      const grant = clientGrantRow(a);
      const sibling = clientGrantRow(a);
      const inB = clientGrantRow(b, { id: grant.id });
      for (const g of [grant, sibling, inB]) await grants.insert(g);

      assert.equal(await grants.delete(a, grant.id), true);
      assert.equal(await grants.get(a, grant.id), undefined);
      assert.deepEqual(await grants.get(a, sibling.id), sibling);
      assert.deepEqual(await grants.get(b, grant.id), inB);
      assert.equal(await grants.delete(a, grant.id), false);
      assert.equal(await grants.delete(a, 'cgr_unknown'), false);
      assert.equal(await grants.delete('ten_unknown', sibling.id), false);
      assert.deepEqual(await grants.get(a, sibling.id), sibling);
    });
  });

  it('deleting a tenant cascades to its rows (ON DELETE CASCADE)', async () => {
    const tenant = tenantRow();
    const rs = resourceServerRow(tenant.id);
    await tenants.create({
      tenant,
      signingKeys: [signingKeyRow(tenant.id)],
      clients: [clientRow(tenant.id)],
      resourceServers: [rs],
      clientGrants: [clientGrantRow(tenant.id, { audience: rs.identifier })],
    });
    await db.deleteFrom('tenants').where('id', '=', tenant.id).execute();
    for (const table of ['signing_keys', 'clients', 'resource_servers', 'client_grants'] as const) {
      assert.equal(await countRows(db, table, tenant.id), 0, `${table} kept rows of the deleted tenant`);
    }
  });
});
