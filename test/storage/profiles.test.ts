/**
 * The connection profiles' and user attribute profiles' stores on every
 * store implementation: names unique per tenant (create false, update
 * 'conflict', nothing written), the id-ordered pages, tenants apart, and
 * what names a profile: the clients whose express or My Organization
 * configuration does (not a client that merely mentions the id elsewhere),
 * and the self-service profiles.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import type { ClientRow } from '../../src/domain/clients/rows.js';
import type { UserAttributeProfileRow } from '../../src/domain/user-attribute-profiles/rows.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { T0, tenantRow } from '../helpers/rows.js';

const ATTRIBUTES = { email: { description: 'Email', label: 'Email', profile_required: true, auth0_mapping: 'email' } };

function clientRow(tenantId: string, config: Record<string, unknown>): ClientRow {
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
    config,
  };
}

const uap = (tenantId: string, name: string, id = newPrefixedId('uap')): UserAttributeProfileRow => ({
  tenant_id: tenantId,
  id,
  name,
  user_id: null,
  user_attributes: ATTRIBUTES,
  created_at: T0,
  updated_at: T0,
});

await forEachStoreFactory('profile storage', (h) => {
  let stores: Stores;
  let tenantId: string;
  let otherTenantId: string;
  before(async () => {
    stores = h.stores();
    const [first, second] = [tenantRow(), tenantRow()];
    for (const row of [first, second]) await stores.tenants.create({ tenant: row, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    tenantId = first.id;
    otherTenantId = second.id;
  });

  it('keeps names unique per tenant and pages by id', async () => {
    const row = { tenant_id: tenantId, id: 'cop_b', name: 'One', profile: { enabled_features: ['scim' as const] }, created_at: T0, updated_at: T0 };
    assert.equal(await stores.connectionProfiles.create(row), true);
    assert.deepEqual(await stores.connectionProfiles.get(tenantId, 'cop_b'), row);
    assert.equal(await stores.connectionProfiles.create({ ...row, id: 'cop_c' }), false, 'the name is taken');
    assert.equal(await stores.connectionProfiles.get(tenantId, 'cop_c'), undefined, 'nothing written');
    assert.equal(await stores.connectionProfiles.create({ ...row, tenant_id: otherTenantId }), true, 'another tenant may use the name');
    assert.equal(await stores.connectionProfiles.create({ ...row, id: 'cop_a', name: 'Two' }), true);
    assert.equal(await stores.connectionProfiles.update(tenantId, 'cop_a', { name: 'One' }, '2025-01-01T00:00:00.000Z'), 'conflict');
    assert.equal((await stores.connectionProfiles.get(tenantId, 'cop_a'))?.name, 'Two');
    const changed = await stores.connectionProfiles.update(tenantId, 'cop_a', { name: 'Three', profile: {} }, '2025-01-01T00:00:00.000Z');
    assert.deepEqual(changed, { ...row, id: 'cop_a', name: 'Three', profile: {}, updated_at: '2025-01-01T00:00:00.000Z' });
    assert.equal(await stores.connectionProfiles.update(tenantId, 'cop_nope', { name: 'x' }, T0), undefined);
    assert.deepEqual((await stores.connectionProfiles.list(tenantId, undefined, 10)).map((r) => r.id), ['cop_a', 'cop_b']);
    assert.deepEqual((await stores.connectionProfiles.list(tenantId, 'cop_a', 10)).map((r) => r.id), ['cop_b']);
    assert.equal(await stores.connectionProfiles.count(tenantId), 2);
    assert.equal(await stores.connectionProfiles.delete(otherTenantId, 'cop_a'), false, "not another tenant's");
    assert.equal(await stores.connectionProfiles.delete(tenantId, 'cop_a'), true);
    assert.equal(await stores.connectionProfiles.delete(tenantId, 'cop_a'), false);
  });

  it('finds the clients and self-service profiles that name a profile', async () => {
    const profile = uap(tenantId, 'Named');
    assert.equal(await stores.userAttributeProfiles.create(profile), true);
    assert.equal(await stores.userAttributeProfiles.create(uap(tenantId, 'Named')), false);
    const express = clientRow(tenantId, { express_configuration: { user_attribute_profile_id: profile.id, connection_profile_id: 'cop_b' } });
    const myOrg = clientRow(tenantId, { my_organization_configuration: { user_attribute_profile_id: profile.id } });
    const mentions = clientRow(tenantId, { client_metadata: { note: profile.id }, express_configuration: { connection_profile_id: profile.id } });
    const elsewhere = clientRow(otherTenantId, { express_configuration: { user_attribute_profile_id: profile.id } });
    for (const client of [express, myOrg, mentions, elsewhere]) await stores.clients.insert(client);
    assert.deepEqual(await stores.userAttributeProfiles.clientsUsing(tenantId, profile.id, 10), [express.client_id, myOrg.client_id].sort());
    assert.deepEqual(await stores.userAttributeProfiles.clientsUsing(tenantId, profile.id, 1), [[express.client_id, myOrg.client_id].sort()[0]]);
    assert.deepEqual(await stores.connectionProfiles.clientsUsing(tenantId, 'cop_b', 10), [express.client_id]);
    assert.deepEqual(await stores.userAttributeProfiles.selfServiceProfilesUsing(tenantId, profile.id, 10), []);
    const sso = { tenant_id: tenantId, id: newPrefixedId('ssp', 22), name: 'SSO', description: null, branding: null, allowed_strategies: ['samlp'], user_attributes: [], user_attribute_profile_id: profile.id, custom_text: {}, created_at: T0, updated_at: T0 };
    await stores.selfService.insertProfile(sso);
    assert.deepEqual(await stores.userAttributeProfiles.selfServiceProfilesUsing(tenantId, profile.id, 10), [sso.id]);
    assert.deepEqual(await stores.userAttributeProfiles.selfServiceProfilesUsing(otherTenantId, profile.id, 10), []);
  });
});
