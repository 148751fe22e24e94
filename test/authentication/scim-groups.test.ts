// /Groups of a connection's SCIM endpoint: Okta's Group Push and Entra ID's group provisioning (their
// request shapes, test/fixtures/scim-requests.ts) create, find, rename, fill, empty and delete connection
// groups whose members are the connection's provisioned users; the groups are the Management API's
// connection groups, whose roles their members then hold. Deprovisioning as configured (delete or block).
// Refusals in SCIM's error shape change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENTRA, ENTRA_GROUPS, OKTA, OKTA_GROUPS } from '../fixtures/scim-requests.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { assertScimError, scimConnection, scimToken } from '../helpers/scim.js';

const USERS_ONLY = ['get:users', 'post:users', 'put:users', 'patch:users', 'delete:users'];

const postgresSkip = (await postgresAvailable()) ? false : 'PostgreSQL is not reachable';

for (const database of ['SQLite', 'PostgreSQL'] as const) describe(`SCIM /Groups and deprovisioning (${database})`, { skip: database === 'PostgreSQL' && postgresSkip }, () => {
  let t: TestApp;
  let okta: string;
  let entra: string;
  let oktaToken: string;
  let entraToken: string;
  let usersOnly: string;
  let oktaUser: string;
  let entraUser: string;

  const createConnection = (name: string) => scimConnection(t, name);
  const issue = (id: string, scopes?: string[]) => scimToken(t, id, scopes);
  const scim = (method: string, path: string, connection: string, token: string, body?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `/scim/v2/connections/${connection}${path}`,
      headers: { host: DOMAIN, authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/scim+json' }) },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
  const asOkta = (method: string, path: string, body?: unknown) => scim(method, path, okta, oktaToken, body);
  const asEntra = (method: string, path: string, body?: unknown) => scim(method, path, entra, entraToken, body);
  const membersOf = async (groupId: string) => {
    const res = await t.management('GET', `/api/v2/groups/${groupId}/members`);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().members as { id: string }[]).map((member) => member.id);
  };

  before(async () => {
    t = await createTestApp({ postgres: database === 'PostgreSQL' });
    okta = await createConnection('okta-groups');
    entra = await createConnection('entra-groups');
    oktaToken = await issue(okta);
    entraToken = await issue(entra);
    usersOnly = await issue(okta, USERS_ONLY);
    const created = await asOkta('POST', '/Users', OKTA.create);
    assert.equal(created.statusCode, 201, created.body);
    oktaUser = created.json().id;
    const other = await asEntra('POST', '/Users', ENTRA.create);
    assert.equal(other.statusCode, 201, other.body);
    entraUser = other.json().id;
  });
  after(() => t.close());

  it('Okta Group Push: looks up, creates, renames, adds and removes members, replaces, deletes', async () => {
    assert.equal((await asOkta('GET', `/Groups?${OKTA_GROUPS.lookupQuery}`)).json().totalResults, 0);
    const created = await asOkta('POST', '/Groups', OKTA_GROUPS.create);
    assert.equal(created.statusCode, 201, created.body);
    const group = created.json();
    assert.match(group.id, /^grp_[1-9A-HJ-NP-Za-km-z]{22}$/);
    assert.equal(group.displayName, 'Test SCIMv2');
    assert.deepEqual(group.members, []);
    assert.equal(created.headers.location, `https://${DOMAIN}/scim/v2/connections/${okta}/Groups/${group.id}`);
    // The Management API's connection group.
    const managed = (await t.management('GET', `/api/v2/groups/${group.id}`)).json();
    assert.equal(managed.connection_id, okta);
    assert.equal(managed.name, 'Test SCIMv2');

    const found = (await asOkta('GET', `/Groups?${OKTA_GROUPS.lookupQuery}`)).json();
    assert.deepEqual(found.Resources.map((r: { id: string }) => r.id), [group.id]);

    const added = await asOkta('PATCH', `/Groups/${group.id}`, OKTA_GROUPS.addMember(oktaUser, 'test.user@okta.local'));
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(added.json().members.map((m: { value: string }) => m.value), [oktaUser]);
    assert.deepEqual(await membersOf(group.id), [oktaUser]);
    const read = (await asOkta('GET', `/Groups/${group.id}`)).json();
    assert.equal(read.members[0].$ref, `https://${DOMAIN}/scim/v2/connections/${okta}/Users/${encodeURIComponent(oktaUser)}`);

    const removed = await asOkta('PATCH', `/Groups/${group.id}`, OKTA_GROUPS.removeMember(oktaUser));
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(await membersOf(group.id), []);

    const renamed = await asOkta('PATCH', `/Groups/${group.id}`, OKTA_GROUPS.rename(group.id));
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().displayName, 'Test SCIMv2 renamed');
    assert.equal((await t.management('GET', `/api/v2/groups/${group.id}`)).json().name, 'Test SCIMv2 renamed');

    const replaced = await asOkta('PUT', `/Groups/${group.id}`, OKTA_GROUPS.replace(group.id, oktaUser, 'test.user@okta.local'));
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.json().displayName, 'Test SCIMv2');
    assert.deepEqual(await membersOf(group.id), [oktaUser]);
    // A PUT without members empties the group (RFC 7644 §3.5.1).
    assert.equal((await asOkta('PUT', `/Groups/${group.id}`, { displayName: 'Test SCIMv2' })).statusCode, 200);
    assert.deepEqual(await membersOf(group.id), []);

    assert.equal((await asOkta('DELETE', `/Groups/${group.id}`)).statusCode, 204);
    assertScimError(await asOkta('GET', `/Groups/${group.id}`), 404);
    assert.equal((await t.management('GET', `/api/v2/groups/${group.id}`)).statusCode, 404);
    assert.ok(await t.ctx.stores.users.get(t.tenant.id, oktaUser), 'the members stay');
  });

  it('Entra ID: creates with externalId, finds without members, Add/Remove with value lists, Replace displayName; a role of the group reaches its member', async () => {
    const created = await asEntra('POST', '/Groups', ENTRA_GROUPS.create);
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    assert.equal(created.json().externalId, '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159');
    const found = (await asEntra('GET', `/Groups?${ENTRA_GROUPS.filterQuery}`)).json();
    assert.equal(found.totalResults, 1);
    assert.equal(found.Resources[0].members, undefined);
    const byExternalId = (await asEntra('GET', `/Groups?filter=${encodeURIComponent('externalId eq "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159"')}`)).json();
    assert.deepEqual(byExternalId.Resources.map((r: { id: string }) => r.id), [id]);

    assert.equal((await asEntra('PATCH', `/Groups/${id}`, ENTRA_GROUPS.addMember(entraUser))).statusCode, 200);
    assert.deepEqual(await membersOf(id), [entraUser]);
    assert.equal((await asEntra('GET', `/Groups/${id}?${ENTRA_GROUPS.getQuery}`)).json().members, undefined);
    // `and` with a members condition is tested on the indexed candidates.
    const withMember = await asEntra('GET', `/Groups?filter=${encodeURIComponent(`displayName eq "displayName" and members[value eq "${entraUser}"]`)}`);
    assert.equal(withMember.json().totalResults, 1, withMember.body);
    const withoutMember = await asEntra('GET', `/Groups?filter=${encodeURIComponent('displayName eq "displayName" and members[value eq "nobody"]')}`);
    assert.equal(withoutMember.json().totalResults, 0);

    // A role given to the connection group through the Management API: its member holds its permissions.
    const api = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'https://reports.example.com', scopes: [{ value: 'read:reports' }] } });
    assert.equal(api.statusCode, 201, api.body);
    const role = (await t.management('POST', '/api/v2/roles', { body: { name: 'Report readers' } })).json();
    assert.equal((await t.management('POST', `/api/v2/roles/${role.id}/permissions`, { body: { permissions: [{ resource_server_identifier: 'https://reports.example.com', permission_name: 'read:reports' }] } })).statusCode, 201);
    assert.equal((await t.management('POST', `/api/v2/groups/${id}/roles`, { body: { roles: [role.id] } })).statusCode, 204);
    assert.deepEqual(await t.ctx.stores.rbac.effectivePermissions(t.tenant.id, entraUser, 'https://reports.example.com'), ['read:reports']);

    assert.equal((await asEntra('PATCH', `/Groups/${id}`, ENTRA_GROUPS.removeMember(entraUser))).statusCode, 200);
    assert.deepEqual(await membersOf(id), []);
    assert.deepEqual(await t.ctx.stores.rbac.effectivePermissions(t.tenant.id, entraUser, 'https://reports.example.com'), []);
    const renamed = await asEntra('PATCH', `/Groups/${id}`, ENTRA_GROUPS.rename);
    assert.equal(renamed.json().displayName, '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
    assert.equal((await asEntra('DELETE', `/Groups/${id}`)).statusCode, 204);
  });

  it('refuses without the group scopes, with another connection\'s token, members of another connection, taken names, unindexed filters and unknown paths, changing nothing', async () => {
    const group = (await asOkta('POST', '/Groups', { displayName: 'Refusals' })).json();
    assertScimError(await scim('POST', '/Groups', okta, usersOnly, { displayName: 'Not created' }), 403);
    assertScimError(await scim('GET', '/Groups', okta, usersOnly), 403);
    assertScimError(await scim('PATCH', `/Groups/${group.id}`, okta, entraToken, OKTA_GROUPS.addMember(oktaUser, 'x')), 403);
    // A group of another connection is not found through this one.
    assertScimError(await asEntra('GET', `/Groups/${group.id}`), 404);
    assertScimError(await asEntra('DELETE', `/Groups/${group.id}`), 404);
    // Members must be users this connection provisioned.
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, OKTA_GROUPS.addMember(entraUser, 'x')), 400, 'invalidValue');
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, OKTA_GROUPS.addMember('auth0|nobody', 'x')), 400, 'invalidValue');
    assertScimError(await asOkta('POST', '/Groups', { displayName: 'With a stranger', members: [{ value: entraUser }] }), 400, 'invalidValue');
    assert.deepEqual(await membersOf(group.id), []);
    assertScimError(await asOkta('POST', '/Groups', { displayName: 'Refusals' }), 409, 'uniqueness');
    assertScimError(await asOkta('POST', '/Groups', { members: [] }), 400, 'invalidValue');
    assertScimError(await asOkta('POST', '/Groups', { displayName: 'x'.repeat(129) }), 400, 'invalidValue');
    assertScimError(await asOkta('POST', '/Groups', { displayName: 'Colour', colour: 'red' }), 400, 'invalidValue');
    assertScimError(await asOkta('POST', '/Groups', { displayName: 'Many', members: Array.from({ length: 1001 }, (_, i) => ({ value: `u${i}` })) }), 400, 'invalidValue');
    assertScimError(await asOkta('GET', `/Groups?filter=${encodeURIComponent('displayName sw "Ref"')}`), 400, 'invalidFilter');
    assertScimError(await asOkta('GET', `/Groups?filter=${encodeURIComponent('members[value eq "x"]')}`), 400, 'invalidFilter');
    const op = (operation: Record<string, unknown>) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [operation] });
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, op({ op: 'replace', path: 'colour', value: 'red' })), 400, 'invalidPath');
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, op({ op: 'add', path: 'members[value eq "x"]', value: 'y' })), 400, 'invalidPath');
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, op({ op: 'remove', path: 'displayName' })), 400, 'mutability');
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, op({ op: 'add', path: 'members', value: 'not a list' })), 400, 'invalidValue');
    assertScimError(await asOkta('PATCH', `/Groups/${group.id}`, { Operations: [] }), 400, 'invalidSyntax');
    assertScimError(await asOkta('GET', '/Groups?startIndex=x'), 400, 'invalidValue');
    assertScimError(await asOkta('GET', `/Groups/${'g'.repeat(300)}`), 404);
    const after = (await asOkta('GET', `/Groups/${group.id}`)).json();
    assert.equal(after.displayName, 'Refusals');
    assert.equal((await asOkta('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Not created"')}`)).json().totalResults, 0);
  });

  it('pages the connection\'s groups with startIndex and count; count=0 answers the total alone', async () => {
    for (const name of ['Page A', 'Page B', 'Page C']) assert.equal((await asEntra('POST', '/Groups', { displayName: name })).statusCode, 201);
    const all = (await asEntra('GET', '/Groups?excludedAttributes=members')).json();
    assert.ok(all.totalResults >= 3);
    const page = (await asEntra('GET', '/Groups?startIndex=2&count=1')).json();
    assert.equal(page.itemsPerPage, 1);
    assert.equal(page.startIndex, 2);
    assert.equal(page.Resources[0].id, all.Resources[1].id);
    const none = (await asEntra('GET', '/Groups?count=0')).json();
    assert.equal(none.itemsPerPage, 0);
    assert.equal(none.totalResults, all.totalResults);
    // Only this connection's groups.
    assert.ok(all.Resources.every((group: { meta: { location: string } }) => group.meta.location.includes(`/connections/${entra}/`)));
  });

  it('deprovisioning: `block` keeps the user blocked and lets the directory provision them again; `delete` (the default) deletes', async () => {
    const configuration = (await t.management('GET', `/api/v2/connections/${okta}/scim-configuration`)).json();
    assert.equal(configuration.deprovisioning, 'delete');
    const set = await t.management('PATCH', `/api/v2/connections/${okta}/scim-configuration`, {
      body: { user_id_attribute: configuration.user_id_attribute, mapping: configuration.mapping, deprovisioning: 'block' },
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().deprovisioning, 'block');
    // The service's body (without it) keeps the setting.
    const kept = await t.management('PATCH', `/api/v2/connections/${okta}/scim-configuration`, { body: { user_id_attribute: configuration.user_id_attribute, mapping: configuration.mapping } });
    assert.equal(kept.json().deprovisioning, 'block');
    const bad = await t.management('PATCH', `/api/v2/connections/${okta}/scim-configuration`, { body: { user_id_attribute: 'externalId', mapping: configuration.mapping, deprovisioning: 'archive' } });
    assert.equal(bad.statusCode, 400, bad.body);

    const user = (await asOkta('POST', '/Users', { userName: 'leaver@corp.example', externalId: 'leaver', emails: [{ primary: true, value: 'leaver@corp.example' }] })).json();
    assert.equal((await asOkta('DELETE', `/Users/${encodeURIComponent(user.id)}`)).statusCode, 204);
    const blocked = await t.ctx.stores.users.get(t.tenant.id, user.id);
    assert.equal(blocked?.blocked, 1, 'blocked, not deleted');
    assertScimError(await asOkta('GET', `/Users/${encodeURIComponent(user.id)}`), 404);
    const again = await asOkta('POST', '/Users', { userName: 'leaver@corp.example', externalId: 'leaver', active: true });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().id, user.id);
    assert.equal((await t.ctx.stores.users.get(t.tenant.id, user.id))?.blocked, 0);

    // The other connection deletes (its default).
    const gone = (await asEntra('POST', '/Users', { userName: 'gone@corp.example', externalId: 'gone' })).json();
    assert.equal((await asEntra('DELETE', `/Users/${encodeURIComponent(gone.id)}`)).statusCode, 204);
    assert.equal(await t.ctx.stores.users.get(t.tenant.id, gone.id), undefined);
  });
});
