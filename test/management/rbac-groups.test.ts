/** A group's members (/api/v2/groups/{id}/members) through the real app and database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { badRequest, enc, forbidden, GROUP_NOT_FOUND, rbacFixtures, USER_NOT_FOUND } from '../helpers/rbac-fixtures.js';
import { byCodepoint } from '../helpers/rows.js';

interface Member {
  id: string;
  member_type: string;
  type: string;
  connection_id?: string;
  created_at: string;
}

describe('/api/v2/groups/{id}/members', () => {
  let t: TestApp;
  let make: ReturnType<typeof rbacFixtures>;

  before(async () => {
    t = await createTestApp();
    make = rbacFixtures(t);
  });
  after(() => t.close());

  it('POST adds (204), all or nothing; GET lists {members, next?} by user id; DELETE removes (204)', async () => {
    const group = await make.group();
    const url = `/api/v2/groups/${group}/members`;
    const users = [await make.user(), await make.user(), await make.user()].sort(byCodepoint);

    const refused = await t.management('POST', url, { body: { members: [users[0], 'auth0|doesnotexist'] } });
    assert.equal(refused.statusCode, 404);
    assert.deepEqual(refused.json(), USER_NOT_FOUND);
    assert.deepEqual((await t.management('GET', url)).json(), { members: [] });

    const added = await t.management('POST', url, { body: { members: users } });
    assert.equal(added.statusCode, 204, added.body);
    assert.equal(added.body, '');
    const before = (await t.management('GET', url)).json() as { members: Member[] };
    assert.equal((await t.management('POST', url, { body: { members: [users[0], users[0]] } })).statusCode, 204, 'repeat');
    const after = (await t.management('GET', url)).json() as { members: Member[] };
    assert.deepEqual(after, before, 'a repeat keeps the first membership and its time');

    assert.deepEqual(after.members.map((m) => m.id), users);
    for (const member of after.members) {
      assert.deepEqual(Object.keys(member), ['id', 'member_type', 'type', 'created_at']);
      assert.equal(member.member_type, 'user');
      assert.equal(member.type, 'tenant');
      assert.ok(!Number.isNaN(Date.parse(member.created_at)));
    }
    const page = (await t.management('GET', `${url}?take=2`)).json() as { members: Member[]; next: string };
    assert.deepEqual(page.members, after.members.slice(0, 2));
    assert.deepEqual((await t.management('GET', `${url}?take=2&from=${encodeURIComponent(page.next)}`)).json(), { members: after.members.slice(2) });
    assert.deepEqual((await t.management('GET', `${url}?fields=id`)).json(), { members: users.map((id) => ({ id })) });
    assert.deepEqual(
      ((await t.management('GET', `${url}?fields=created_at,type&include_fields=false`)).json() as { members: object[] }).members[0],
      { id: users[0], member_type: 'user' },
    );

    const removed = await t.management('DELETE', url, { body: { members: [users[1], 'auth0|doesnotexist'] } });
    assert.equal(removed.statusCode, 204);
    assert.deepEqual(((await t.management('GET', url)).json() as { members: Member[] }).members.map((m) => m.id), [users[0], users[2]]);
    // The user's side agrees.
    assert.deepEqual(((await t.management('GET', `/api/v2/users/${enc(users[1]!)}/groups`)).json() as unknown[]), []);
  });

  it('members carry the group’s type: connection (with its connection_id) or organization', async () => {
    const user = await make.user();
    const connectionGroup = await make.group({ connection_id: 'con_abcdefghijklmnop' });
    const organizationGroup = await make.group({ organization_id: 'org_abcdefghijklmnop' });
    for (const [group, expected] of [
      [connectionGroup, { type: 'connection', connection_id: 'con_abcdefghijklmnop' }],
      [organizationGroup, { type: 'organization' }],
    ] as const) {
      assert.equal((await t.management('POST', `/api/v2/groups/${group}/members`, { body: { members: [user] } })).statusCode, 204);
      const { members } = (await t.management('GET', `/api/v2/groups/${group}/members`)).json() as { members: Member[] };
      assert.deepEqual(members, [{ id: user, member_type: 'user', ...expected, created_at: members[0]!.created_at }]);
    }
  });

  it('refuses an unknown or malformed group, bad bodies, and tokens without the scope', async () => {
    const missing = '/api/v2/groups/grp_1111111111111111111111/members';
    const user = await make.user();
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await t.management(method, missing, { ...(method !== 'GET' && { body: { members: [user] } }) });
      assert.equal(res.statusCode, 404, method);
      assert.deepEqual(res.json(), GROUP_NOT_FOUND);
    }
    const short = await t.management('GET', '/api/v2/groups/grp_short/members');
    assert.deepEqual(
      short.json(),
      badRequest("Path validation error: 'String is too short (9 chars), minimum 18' on property id (Unique identifier for the group (service-generated)).", 'invalid_uri'),
    );

    const group = await make.group();
    const url = `/api/v2/groups/${group}/members`;
    const cases: [string, unknown, string][] = [
      ['POST', {}, "Payload validation error: 'Missing required property: members'."],
      ['POST', { members: [] }, "Payload validation error: 'Array is too short (0), minimum 1' on property members (Array of user IDs to add to the group)."],
      ['DELETE', { members: [] }, "Payload validation error: 'Array is too short (0), minimum 1' on property members (Array of user IDs to remove from the group)."],
      [
        'POST',
        { members: Array.from({ length: 101 }, (_, i) => `auth0|${i}`) },
        "Payload validation error: 'Array is too long (101), maximum 100' on property members (Array of user IDs to add to the group).",
      ],
      ['POST', { members: ['x'.repeat(513)] }, "Payload validation error: 'String is too long (513 chars), maximum 512' on property members[0]."],
      ['POST', { members: [user], users: [user] }, "Payload validation error: 'Additional properties not allowed: users'."],
    ];
    for (const [method, body, message] of cases) {
      const res = await t.management(method, url, { body });
      assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(body).slice(0, 60)}`);
      assert.deepEqual(res.json(), badRequest(message));
    }
    const form = await t.management('POST', url, { body: `members=${encodeURIComponent(user)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.statusCode, 204, form.body);

    const readGroups = await t.managementToken('read:groups create:groups delete:groups');
    assert.deepEqual((await t.management('GET', url, { token: readGroups })).json(), forbidden('read:group_members'));
    assert.deepEqual((await t.management('POST', url, { token: readGroups, body: { members: [user] } })).json(), forbidden('create:group_members'));
    assert.deepEqual((await t.management('DELETE', url, { token: readGroups, body: { members: [user] } })).json(), forbidden('delete:group_members'));
    assert.equal((await t.management('DELETE', url, { token: await t.managementToken('delete:group_members'), body: { members: [user] } })).statusCode, 204);
  });

  it('DELETE /groups/{id} takes its members and role assignments with it', async () => {
    const group = await make.group();
    const user = await make.user();
    const role = await make.role();
    await t.management('POST', `/api/v2/groups/${group}/members`, { body: { members: [user] } });
    await t.management('POST', `/api/v2/groups/${group}/roles`, { body: { roles: [role.id] } });
    const effective = `/api/v2/users/${enc(user)}/effective-roles`;
    assert.deepEqual((await t.management('GET', effective)).json(), { roles: [{ ...role, sources: ['groups'] }] });

    assert.equal((await t.management('DELETE', `/api/v2/groups/${group}`)).statusCode, 204);
    assert.deepEqual((await t.management('GET', effective)).json(), { roles: [] });
    assert.deepEqual((await t.management('GET', `/api/v2/users/${enc(user)}/groups`)).json(), []);
    assert.deepEqual((await t.management('GET', `/api/v2/roles/${role.id}/groups`)).json(), { groups: [] });
    assert.deepEqual(await t.ctx.database.db.selectFrom('group_members').select('user_id').where('group_id', '=', group).execute(), []);
  });
});
