/**
 * The store of organizations' discovery domains on SQLite and PostgreSQL: one
 * domain per organization, verified for one organization of the tenant at
 * most (the partial unique index), discovery finds only verified domains used
 * for discovery, keyset pages by id, cascade with the organization.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OrganizationDiscoveryDomainRow, OrganizationRow } from '../../src/domain/rows.js';
import type { Stores } from '../../src/domain/stores.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { LOWER, T0, tenantRow } from '../helpers/rows.js';

function organizationRow(tenantId: string): OrganizationRow {
  return { tenant_id: tenantId, id: newPrefixedId('org'), name: `org-${randomString(12, LOWER)}`, display_name: null, branding: null, metadata: {}, created_at: T0 };
}

function domainRow(tenantId: string, organizationId: string, domain: string, status: 'pending' | 'verified' = 'pending'): OrganizationDiscoveryDomainRow {
  return { tenant_id: tenantId, id: newPrefixedId('ordd'), organization_id: organizationId, domain, status, use_for_organization_discovery: 1, verification_txt: 't', created_at: T0 };
}

await forEachStoreFactory('organization discovery domain storage', (h) => {
  let s: Stores;
  before(() => {
    s = h.stores();
  });

  it('verified for one organization only; found by discovery only when verified and used for it', async () => {
    const tenant = tenantRow();
    await s.tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    const [a, b] = [organizationRow(tenant.id), organizationRow(tenant.id)];
    await s.organizations.insert(a);
    await s.organizations.insert(b);
    const mine = domainRow(tenant.id, a.id, 'acme.example');
    assert.equal(await s.organizationDiscoveryDomains.insert(mine), 'done');
    assert.equal(await s.organizationDiscoveryDomains.insert(domainRow(tenant.id, a.id, 'acme.example')), 'domain_taken');
    assert.equal(await s.organizationDiscoveryDomains.insert(domainRow(tenant.id, 'org_missing', 'x.example')), 'not_found');
    assert.equal(await s.organizationDiscoveryDomains.findVerified(tenant.id, 'acme.example'), undefined, 'pending is not discovered');
    const theirs = domainRow(tenant.id, b.id, 'acme.example');
    assert.equal(await s.organizationDiscoveryDomains.insert(theirs), 'done');
    assert.equal(await s.organizationDiscoveryDomains.update(tenant.id, a.id, mine.id, { status: 'verified' }), 'done');
    assert.equal(await s.organizationDiscoveryDomains.update(tenant.id, b.id, theirs.id, { status: 'verified' }), 'verified_elsewhere');
    assert.equal(await s.organizationDiscoveryDomains.insert(domainRow(tenant.id, b.id, 'acme.example', 'verified')), 'domain_taken');
    assert.equal((await s.organizationDiscoveryDomains.findVerified(tenant.id, 'acme.example'))?.organization_id, a.id);
    assert.equal(await s.organizationDiscoveryDomains.update(tenant.id, a.id, mine.id, { use_for_organization_discovery: 0 }), 'done');
    assert.equal(await s.organizationDiscoveryDomains.findVerified(tenant.id, 'acme.example'), undefined, 'not used for discovery');
    assert.equal(await s.organizationDiscoveryDomains.update(tenant.id, b.id, mine.id, { status: 'pending' }), 'not_found', 'another organization\'s domain');

    const other = domainRow(tenant.id, a.id, 'zeta.example');
    await s.organizationDiscoveryDomains.insert(other);
    const ids = [mine.id, other.id].sort();
    assert.deepEqual((await s.organizationDiscoveryDomains.list(tenant.id, a.id, { limit: 1 })).map((r) => r.id), [ids[0]]);
    assert.deepEqual((await s.organizationDiscoveryDomains.list(tenant.id, a.id, { after: ids[0]!, limit: 5 })).map((r) => r.id), [ids[1]]);

    await s.organizations.delete(tenant.id, a.id);
    assert.equal(await s.organizationDiscoveryDomains.get(tenant.id, a.id, mine.id), undefined);
    assert.equal(await s.organizationDiscoveryDomains.update(tenant.id, b.id, theirs.id, { status: 'verified' }), 'done', 'free once the organization went');
  });
});
