/**
 * The stores of organization members (and their roles), enabled connections
 * and invitations, on SQLite and PostgreSQL: byte-wise member order, all-or-
 * nothing additions, cascades when a user, role, connection or organization
 * goes, and the single use of an invitation.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OrganizationInvitationRow, OrganizationRow } from '../../src/domain/rows.js';
import type { Stores } from '../../src/domain/stores.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, connectionRow, LOWER, roleRow, T0, tenantRow, userRow } from '../helpers/rows.js';

function organizationRow(tenantId: string): OrganizationRow {
  return { tenant_id: tenantId, id: newPrefixedId('org'), name: `org-${randomString(12, LOWER)}`, display_name: null, branding: null, metadata: {}, created_at: T0 };
}

await forEachStoreFactory('organization member storage', (h) => {
  let s: Stores;
  before(() => {
    s = h.stores();
  });

  async function world() {
    const tenant = tenantRow();
    await s.tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    const connection = connectionRow(tenant.id);
    await s.connections.insert(connection, []);
    const organization = organizationRow(tenant.id);
    await s.organizations.insert(organization);
    // 'B' sorts before 'a' byte-wise, after it in en-US collations.
    const users = [];
    for (const id of ['auth0|a1', 'auth0|B2', 'auth0|c3']) {
      const row = userRow(tenant.id, connection.id, { user_id: id });
      await s.users.insert(row);
      users.push(row.user_id);
    }
    return { tenantId: tenant.id, connection, organization, users };
  }

  describe('members', () => {
    it('adds all or none, lists byte-wise by user id, pages by key', async () => {
      const { tenantId, organization, users } = await world();
      assert.deepEqual(await s.organizationMembers.addMembers(tenantId, organization.id, [users[0]!, 'auth0|missing'], T0), { status: 'item_not_found', id: 'auth0|missing' });
      assert.equal(await s.organizationMembers.isMember(tenantId, organization.id, users[0]!), false);
      assert.deepEqual(await s.organizationMembers.addMembers(tenantId, 'org_missing', users, T0), { status: 'owner_not_found' });
      assert.deepEqual(await s.organizationMembers.addMembers(tenantId, organization.id, users, T0), { status: 'assigned' });
      const page = await s.organizationMembers.listMembers(tenantId, organization.id, { kind: 'offset', offset: 0, limit: 10, withTotal: true });
      assert.deepEqual(page.rows.map((r) => r.user_id), ['auth0|B2', 'auth0|a1', 'auth0|c3']);
      assert.equal(page.total, 3);
      const after = await s.organizationMembers.listMembers(tenantId, organization.id, { kind: 'keyset', after: 'auth0|B2', limit: 1 });
      assert.deepEqual(after.rows.map((r) => r.user_id), ['auth0|a1']);
      const orgs = await s.organizationMembers.listUserOrganizations(tenantId, users[0]!, { offset: 0, limit: 10, withTotal: true });
      assert.deepEqual(orgs.rows.map((o) => o.id), [organization.id]);
      assert.equal(orgs.total, 1);
    });

    it('member roles need a membership and go with it, with the role, and with the user', async () => {
      const { tenantId, organization, users } = await world();
      const roles = [roleRow(tenantId), roleRow(tenantId)];
      for (const role of roles) await s.roles.insert(role);
      await s.organizationMembers.addMembers(tenantId, organization.id, users, T0);
      assert.deepEqual(await s.organizationMembers.assignMemberRoles(tenantId, organization.id, 'auth0|missing', [roles[0]!.id], T0), { status: 'owner_not_found' });
      assert.deepEqual(await s.organizationMembers.assignMemberRoles(tenantId, organization.id, users[0]!, [roles[0]!.id, 'rol_x'], T0), { status: 'item_not_found', id: 'rol_x' });
      for (const user of users) assert.deepEqual(await s.organizationMembers.assignMemberRoles(tenantId, organization.id, user, roles.map((r) => r.id), T0), { status: 'assigned' });
      const byUser = await s.organizationMembers.rolesOfMembers(tenantId, organization.id, users);
      assert.equal(byUser.get(users[0]!)!.length, 2);

      await s.roles.delete(tenantId, roles[1]!.id);
      assert.deepEqual((await s.organizationMembers.listMemberRoles(tenantId, organization.id, users[0]!, { offset: 0, limit: 10, withTotal: false })).rows.map((r) => r.id), [roles[0]!.id]);
      await s.organizationMembers.removeMembers(tenantId, organization.id, [users[0]!]);
      await s.organizationMembers.addMembers(tenantId, organization.id, [users[0]!], T0);
      assert.deepEqual((await s.organizationMembers.listMemberRoles(tenantId, organization.id, users[0]!, { offset: 0, limit: 10, withTotal: false })).rows, []);
      await s.users.delete(tenantId, users[1]!);
      assert.equal(await s.organizationMembers.isMember(tenantId, organization.id, users[1]!), false);
      await s.organizations.delete(tenantId, organization.id);
      assert.equal(await s.organizationMembers.isMember(tenantId, organization.id, users[2]!), false);
    });
  });

  describe('enabled connections', () => {
    it('enables once, tells which side is missing, and goes with the connection', async () => {
      const { tenantId, organization, connection } = await world();
      const row = { tenant_id: tenantId, organization_id: organization.id, connection_id: connection.id, assign_membership_on_login: 1, show_as_button: 1, is_signup_enabled: 0, created_at: T0 };
      assert.equal(await s.organizationConnections.enable(row), 'enabled');
      assert.equal(await s.organizationConnections.enable(row), 'already_enabled');
      assert.equal(await s.organizationConnections.enable({ ...row, connection_id: 'con_missing' }), 'connection_not_found');
      assert.equal(await s.organizationConnections.enable({ ...row, organization_id: 'org_missing' }), 'organization_not_found');
      assert.equal((await s.organizationConnections.get(tenantId, organization.id, connection.id))?.name, connection.name);
      assert.equal(await s.organizationConnections.update(tenantId, organization.id, connection.id, { show_as_button: 0 }), true);
      assert.equal((await s.organizationConnections.get(tenantId, organization.id, connection.id))?.show_as_button, 0);
      await s.connections.delete(tenantId, connection.id);
      assert.equal(await s.organizationConnections.get(tenantId, organization.id, connection.id), undefined);
    });
  });

  describe('invitations', () => {
    it('are found by ticket hash and consumed once, never after expiry', async () => {
      const { tenantId, organization } = await world();
      const row = (id: string, expires: string): OrganizationInvitationRow => ({
        tenant_id: tenantId,
        id,
        organization_id: organization.id,
        ticket_hash: `hash-${id}`,
        ticket_enc: 'sealed',
        inviter_name: 'J',
        invitee_email: 'x@example.com',
        client_id: 'c',
        connection_id: null,
        app_metadata: { a: 1 },
        user_metadata: {},
        roles: ['rol_1'],
        created_at: T0,
        expires_at: expires,
        used_at: null,
      });
      await s.organizationInvitations.insert(row('uinv_1', at(100)));
      await s.organizationInvitations.insert(row('uinv_2', at(100)));
      assert.deepEqual(await s.organizationInvitations.findByTicket(tenantId, 'hash-uinv_1'), row('uinv_1', at(100)));
      assert.equal(await s.organizationInvitations.consume(tenantId, 'uinv_1', at(200)), false);
      assert.equal(await s.organizationInvitations.consume(tenantId, 'uinv_1', at(50)), true);
      assert.equal(await s.organizationInvitations.consume(tenantId, 'uinv_1', at(51)), false);
      const listed = await s.organizationInvitations.list(tenantId, organization.id, { offset: 0, limit: 10, withTotal: false }, true);
      assert.deepEqual(listed.rows.map((r) => r.id), ['uinv_2', 'uinv_1']);
      await s.organizations.delete(tenantId, organization.id);
      assert.equal(await s.organizationInvitations.findByTicket(tenantId, 'hash-uinv_2'), undefined);
    });
  });
});
