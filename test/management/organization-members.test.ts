/**
 * An organization's members and their roles, enabled connections and
 * invitations, GET /organizations/name/{name} and GET /users/{id}/organizations,
 * through the real app and database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { enc, rbacFixtures } from '../helpers/rbac-fixtures.js';

describe('/api/v2/organizations: members, connections, invitations', () => {
  let t: TestApp;
  let fx: ReturnType<typeof rbacFixtures>;
  const api = (method: string, url: string, body?: unknown) => t.management(method, url, { ...(body !== undefined && { body }) });

  async function organization(name: string): Promise<string> {
    const res = await api('POST', '/api/v2/organizations', { name, display_name: `${name} Inc.` });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { id: string }).id;
  }

  async function client(body: Record<string, unknown>): Promise<string> {
    const res = await api('POST', '/api/v2/clients', { name: 'Org app', app_type: 'regular_web', callbacks: ['https://app.example.com/cb'], ...body });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { client_id: string }).client_id;
  }

  before(async () => {
    t = await createTestApp();
    fx = rbacFixtures(t);
  });
  after(() => t.close());

  it('GET /organizations/name/{name} finds by exact name; 404 otherwise', async () => {
    const id = await organization('by-name');
    const res = await api('GET', '/api/v2/organizations/name/by-name');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { id, name: 'by-name', display_name: 'by-name Inc.' });
    const missing = await api('GET', '/api/v2/organizations/name/By-Name');
    assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'The organization does not exist.', errorCode: 'inexistent_organization' });
  });

  it('adds, lists (offset and checkpoint) and removes members; a user lists their organizations', async () => {
    const org = await organization('members');
    const users = [];
    for (let i = 0; i < 3; i++) users.push(await fx.user({ email: `m${i}@example.com`, name: `Member ${i}` }));
    users.sort();
    assert.equal((await api('POST', `/api/v2/organizations/${org}/members`, { members: users })).statusCode, 204);
    // Adding again is a no-op; an unknown user adds nobody.
    assert.equal((await api('POST', `/api/v2/organizations/${org}/members`, { members: [users[0]] })).statusCode, 204);
    const unknown = await api('POST', `/api/v2/organizations/${org}/members`, { members: ['auth0|nobody'] });
    assert.equal(unknown.statusCode, 400);
    assert.match((unknown.json() as { message: string }).message, /auth0\|nobody/);

    const all = await api('GET', `/api/v2/organizations/${org}/members?include_totals=true&per_page=2`);
    assert.equal(all.statusCode, 200, all.body);
    const body = all.json() as { members: { user_id: string; email: string; name: string }[]; start: number; limit: number; total: number };
    assert.equal(body.total, 3);
    assert.deepEqual(body.members.map((m) => m.user_id), users.slice(0, 2));
    assert.ok(body.members[0]!.email.endsWith('@example.com'));

    const first = (await api('GET', `/api/v2/organizations/${org}/members?take=2`)).json() as { members: { user_id: string }[]; next?: string };
    assert.deepEqual(first.members.map((m) => m.user_id), users.slice(0, 2));
    assert.ok(first.next);
    const second = (await api('GET', `/api/v2/organizations/${org}/members?take=2&from=${encodeURIComponent(first.next)}`)).json() as { members: { user_id: string }[]; next?: string };
    assert.deepEqual(second.members.map((m) => m.user_id), users.slice(2));
    assert.equal(second.next, undefined);

    const orgs = await api('GET', `/api/v2/users/${enc(users[0]!)}/organizations`);
    assert.equal(orgs.statusCode, 200, orgs.body);
    assert.deepEqual((orgs.json() as { id: string }[]).map((o) => o.id), [org]);

    assert.equal((await api('DELETE', `/api/v2/organizations/${org}/members`, { members: [users[0], 'auth0|not-a-member'] })).statusCode, 204);
    assert.deepEqual(await api('GET', `/api/v2/users/${enc(users[0]!)}/organizations`).then((r) => r.json()), []);
    assert.equal((await api('GET', `/api/v2/users/${enc('auth0|nobody')}/organizations`)).statusCode, 404);
    assert.equal((await api('GET', '/api/v2/organizations/org_missing/members')).statusCode, 404);
  });

  it('gives members roles in the organization, listed with fields=roles; non-members hold none', async () => {
    const org = await organization('member-roles');
    const member = await fx.user();
    const outsider = await fx.user();
    const admin = await fx.role('org-admin');
    const viewer = await fx.role('org-viewer');
    await api('POST', `/api/v2/organizations/${org}/members`, { members: [member] });
    const url = `/api/v2/organizations/${org}/members/${enc(member)}/roles`;
    assert.equal((await api('POST', url, { roles: [admin.id, viewer.id] })).statusCode, 204);
    const roles = (await api('GET', url)).json() as { id: string; name: string }[];
    assert.deepEqual(roles.map((r) => r.name).sort(), ['org-admin', 'org-viewer']);
    const withRoles = (await api('GET', `/api/v2/organizations/${org}/members?fields=user_id,roles`)).json() as { user_id: string; roles: { name: string }[] }[];
    assert.deepEqual(withRoles[0]!.roles.map((r) => r.name).sort(), ['org-admin', 'org-viewer']);
    assert.deepEqual(Object.keys(withRoles[0]!).sort(), ['roles', 'user_id']);

    assert.equal((await api('DELETE', url, { roles: [viewer.id] })).statusCode, 204);
    assert.deepEqual(((await api('GET', url)).json() as { id: string }[]).map((r) => r.id), [admin.id]);
    // Unknown role: nothing assigned. Outsider: refused.
    assert.equal((await api('POST', url, { roles: ['rol_missing'] })).statusCode, 404);
    const refused = await api('POST', `/api/v2/organizations/${org}/members/${enc(outsider)}/roles`, { roles: [admin.id] });
    assert.equal(refused.statusCode, 404);
    assert.equal((refused.json() as { message: string }).message, 'The user is not a member of the organization.');
    // Roles go with the membership.
    await api('DELETE', `/api/v2/organizations/${org}/members`, { members: [member] });
    await api('POST', `/api/v2/organizations/${org}/members`, { members: [member] });
    assert.deepEqual((await api('GET', url)).json(), []);
  });

  it('enables, updates, lists and disables connections', async () => {
    const org = await organization('connections');
    const created = await api('POST', '/api/v2/connections', { name: 'org-db', strategy: 'auth0' });
    assert.equal(created.statusCode, 201, created.body);
    const connectionId = (created.json() as { id: string }).id;
    const url = `/api/v2/organizations/${org}/enabled_connections`;
    const added = await api('POST', url, { connection_id: connectionId, assign_membership_on_login: true });
    assert.equal(added.statusCode, 201, added.body);
    assert.deepEqual(added.json(), {
      connection_id: connectionId,
      assign_membership_on_login: true,
      show_as_button: true,
      is_signup_enabled: false,
      connection: { name: 'org-db', strategy: 'auth0' },
    });
    assert.equal((await api('POST', url, { connection_id: connectionId })).statusCode, 409);
    assert.equal((await api('POST', url, { connection_id: 'con_missing' })).statusCode, 404);
    assert.equal((await api('POST', url, { connection_id: connectionId, bogus: 1 })).statusCode, 400);
    const patched = await api('PATCH', `${url}/${connectionId}`, { is_signup_enabled: true, show_as_button: false });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal((patched.json() as { is_signup_enabled: boolean }).is_signup_enabled, true);
    // Signup without membership cannot be.
    assert.equal((await api('PATCH', `${url}/${connectionId}`, { assign_membership_on_login: false })).statusCode, 400);
    const listed = (await api('GET', `${url}?include_totals=true`)).json() as { enabled_connections: unknown[]; total: number };
    assert.equal(listed.total, 1);
    assert.equal((await api('DELETE', `${url}/${connectionId}`)).statusCode, 204);
    assert.equal((await api('GET', `${url}/${connectionId}`)).statusCode, 404);
  });

  it('serves the same connections at /connections with is_enabled, and refuses disabling one', async () => {
    const org = await organization('all-connections');
    const created = await api('POST', '/api/v2/connections', { name: 'org-all-db', strategy: 'auth0' });
    assert.equal(created.statusCode, 201, created.body);
    const connectionId = (created.json() as { id: string }).id;
    const url = `/api/v2/organizations/${org}/connections`;
    const added = await api('POST', url, { connection_id: connectionId, assign_membership_on_login: true, is_enabled: true });
    assert.equal(added.statusCode, 201, added.body);
    const expected = {
      assign_membership_on_login: true,
      show_as_button: true,
      is_signup_enabled: false,
      is_enabled: true,
      connection_id: connectionId,
      connection: { name: 'org-all-db', strategy: 'auth0' },
    };
    assert.deepEqual(added.json(), expected);
    // The same enabled connection, seen through the older path.
    assert.equal((await api('GET', `/api/v2/organizations/${org}/enabled_connections/${connectionId}`)).statusCode, 200);
    assert.deepEqual((await api('GET', `${url}?include_totals=true`)).json(), { connections: [expected], start: 0, limit: 50, total: 1 });
    assert.deepEqual((await api('GET', url)).json(), [expected]);
    assert.deepEqual((await api('GET', `${url}?is_enabled=false`)).json(), []);
    const refused = await api('PATCH', `${url}/${connectionId}`, { is_enabled: false });
    assert.equal(refused.statusCode, 400);
    assert.equal((refused.json() as { errorCode: string }).errorCode, 'operation_not_supported');
    assert.equal((await api('POST', url, { connection_id: connectionId, organization_access_level: 'full' })).statusCode, 400);
    const patched = await api('PATCH', `${url}/${connectionId}`, { show_as_button: false });
    assert.deepEqual(patched.json(), { ...expected, show_as_button: false });
    assert.deepEqual((await api('GET', `${url}/${connectionId}`)).json(), { ...expected, show_as_button: false });
    assert.equal((await api('DELETE', `${url}/${connectionId}`)).statusCode, 204);
    assert.equal((await api('GET', `${url}/${connectionId}`)).statusCode, 404);
    assert.equal((await api('GET', `/api/v2/organizations/org_missing/connections`)).statusCode, 404);
  });

  it('creates an invitation, mails its URL, lists, gets and deletes it', async () => {
    const org = await organization('invites');
    const role = await fx.role('invited-role');
    const clientId = await client({ organization_usage: 'allow', initiate_login_uri: 'https://app.example.com/login' });
    const url = `/api/v2/organizations/${org}/invitations`;
    const res = await api('POST', url, {
      inviter: { name: 'Jane Doe' },
      invitee: { email: 'invitee@example.com' },
      client_id: clientId,
      roles: [role.id],
      ttl_sec: 3600,
    });
    assert.equal(res.statusCode, 200, res.body);
    const invitation = res.json() as Record<string, unknown> & { id: string; invitation_url: string; ticket_id: string; created_at: string; expires_at: string };
    assert.match(invitation.id, /^uinv_/);
    const link = new URL(invitation.invitation_url);
    assert.equal(link.origin + link.pathname, 'https://app.example.com/login');
    assert.equal(link.searchParams.get('invitation'), invitation.ticket_id);
    assert.equal(link.searchParams.get('organization'), org);
    assert.equal(link.searchParams.get('organization_name'), 'invites');
    assert.equal(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at), 3600 * 1000);
    assert.deepEqual(invitation.roles, [role.id]);
    const mail = readOutbox(t.ctx).filter((m) => m.to === 'invitee@example.com');
    assert.equal(mail.length, 1);
    assert.ok(mail[0]!.text.includes(invitation.invitation_url));
    assert.match(mail[0]!.subject, /invites Inc\./);

    // Without the email.
    await api('POST', url, { inviter: { name: 'J' }, invitee: { email: 'quiet@example.com' }, client_id: clientId, send_invitation_email: false });
    assert.equal(readOutbox(t.ctx).filter((m) => m.to === 'quiet@example.com').length, 0);

    const got = await api('GET', `${url}/${invitation.id}?fields=id,invitee&include_fields=true`);
    assert.deepEqual(got.json(), { id: invitation.id, invitee: { email: 'invitee@example.com' } });
    const page = (await api('GET', `${url}?include_totals=true`)).json() as { invitations: { invitee: { email: string } }[]; start: number; limit: number };
    assert.deepEqual(page.invitations.map((i) => i.invitee.email), ['quiet@example.com', 'invitee@example.com']);
    assert.equal(page.limit, 50);
    assert.equal((await api('DELETE', `${url}/${invitation.id}`)).statusCode, 204);
    assert.equal((await api('GET', `${url}/${invitation.id}`)).statusCode, 404);
  });

  it('refuses invitations the service refuses, in its words', async () => {
    const org = await organization('invites-refused');
    const url = `/api/v2/organizations/${org}/invitations`;
    const base = { inviter: { name: 'J' }, invitee: { email: 'x@example.com' } };
    const message = async (body: Record<string, unknown>) => {
      const res = await api('POST', url, { ...base, ...body });
      assert.equal(res.statusCode, 400, res.body);
      return (res.json() as { message: string }).message;
    };
    assert.equal(await message({ client_id: 'missing' }), 'The specified client_id does not exist.');
    const denying = await client({ initiate_login_uri: 'https://app.example.com/login' });
    assert.equal(await message({ client_id: denying }), 'The specified client_id does not allow organizations.');
    const noRoute = await client({ organization_usage: 'require', organization_require_behavior: 'pre_login_prompt' });
    assert.match(await message({ client_id: noRoute }), /^A default login route is required/);
    const good = await client({ organization_usage: 'allow', initiate_login_uri: 'https://app.example.com/login' });
    assert.equal(await message({ client_id: good, roles: ['rol_nope'] }), 'One or more of the specified roles do not exist: rol_nope');
    assert.equal(await message({ client_id: good, ttl_sec: 2_592_001 }).then((m) => m.includes('ttl_sec')), true);
    assert.equal((await api('POST', '/api/v2/organizations/org_missing/invitations', { ...base, client_id: good })).statusCode, 404);
    assert.equal(readOutbox(t.ctx).filter((m) => m.to === 'x@example.com').length, 0);
  });

  it('an invitation past its ttl is still listed, with its expiry', async () => {
    const org = await organization('invites-expiry');
    const clientId = await client({ organization_usage: 'allow', initiate_login_uri: 'https://app.example.com/login' });
    const res = await api('POST', `/api/v2/organizations/${org}/invitations`, { inviter: { name: 'J' }, invitee: { email: 'late@example.com' }, client_id: clientId });
    const { expires_at, created_at } = res.json() as { expires_at: string; created_at: string };
    assert.equal(Date.parse(expires_at) - Date.parse(created_at), 604_800_000);
    await withClockAdvanced(t, 8 * 86_400_000, async () => {
      assert.equal(((await api('GET', `/api/v2/organizations/${org}/invitations`)).json() as unknown[]).length, 1);
    });
  });
});
