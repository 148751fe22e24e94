// Inbound directory provisioning of a Google Workspace connection over the real app and database: the nine
// operations of the service's document, and synchronizations run by the durable job runner against a local
// HTTPS stand-in of Google's token endpoint and Admin SDK Directory API (reached through the outbound guard,
// trusted through GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE). The runner is driven here (`runOnce`) as the server's
// timer does; time moves with the context's clock.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JobRunner } from '../../src/domain/jobs/runner.js';
import { secretHash } from '../../src/domain/secrets.js';
import { isoAt } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { directoryUser, startDirectoryStandIn, type DirectoryStandIn } from '../helpers/google-directory-stand-in.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { connectionRow } from '../helpers/rows.js';

const CLIENT_ID = 'workspace-client.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-stand-in-secret';
const REFRESH_TOKEN = '1//admin-consent-refresh-token';
const CONNECTION = 'corp-workspace';
const base = (id: string) => `/api/v2/connections/${id}/directory-provisioning`;
const userId = (email: string) => `google-apps|${CONNECTION}|${email}`;

const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

const material = await createTlsCertificate(['localhost', '127.0.0.1', '::1']);
const caFile = path.join(tempDir('gatehouse-directory-ca-'), 'stand-in.pem');
fs.writeFileSync(caFile, material.certPem);

for (const postgres of [false, true]) describe(`directory provisioning (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && skipPostgres }, () => {
  let t: TestApp;
  let directory: DirectoryStandIn;
  let runner: JobRunner;
  let workspaceId: string;
  let incompleteId: string;
  let databaseId: string;

  before(async () => {
    directory = await startDirectoryStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, refreshToken: REFRESH_TOKEN, tls: { cert: material.certPem, key: material.keyPem } });
    t = await createTestApp({
      postgres,
      env: { GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES, GATEHOUSE_GOOGLE_DIRECTORY_URL: directory.url, GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE: caFile },
    });
    runner = new JobRunner(t.ctx);
    const options = {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      domain: 'corp.example',
      api_enable_users: true,
      api_enable_groups: true,
      admin_refresh_token: REFRESH_TOKEN,
      oidc_metadata: { issuer: 'https://accounts.google.com', token_endpoint: directory.tokenUrl },
    };
    const workspace = connectionRow(t.tenant.id, { name: CONNECTION, strategy: 'google-apps', realms: [CONNECTION], options });
    const incomplete = connectionRow(t.tenant.id, { name: 'half-set-up', strategy: 'google-apps', realms: ['half-set-up'], options: { client_id: CLIENT_ID, domain: 'corp.example', api_enable_users: true } });
    const database = connectionRow(t.tenant.id);
    for (const row of [workspace, incomplete, database]) await t.ctx.stores.connections.insert(row, []);
    [workspaceId, incompleteId, databaseId] = [workspace.id, incomplete.id, database.id];
    directory.users = [
      directoryUser('101', 'alice@corp.example', 'Alice', 'Archer'),
      directoryUser('102', 'bob@corp.example', 'Bob', 'Baker'),
      directoryUser('103', 'carol@corp.example', 'Carol', 'Cook', { suspended: true }),
      directoryUser('104', 'dave@corp.example', 'Dave', 'Dyer'),
      directoryUser('105', 'erin@corp.example', 'Erin', 'East'),
    ];
    directory.groups = [
      { id: 'grp1', email: 'eng@corp.example', name: 'Engineering' },
      { id: 'grp2', email: 'sales@corp.example', name: 'Sales' },
    ];
    directory.members = { grp1: [{ id: '101', type: 'USER' }, { id: '104', type: 'USER' }, { id: 'grp2', type: 'GROUP' }], grp2: [{ id: '102', type: 'USER' }] };
  });
  after(async () => {
    await t.close();
    await directory.close();
  });

  const user = async (email: string) => {
    const res = await t.management('GET', `/api/v2/users/${encodeURIComponent(userId(email))}`);
    assert.equal(res.statusCode, 200, `${email}: ${res.body}`);
    return res.json() as Record<string, unknown> & { app_metadata?: Record<string, unknown>; blocked?: boolean };
  };
  const synchronize = async () => {
    const res = await t.management('POST', `${base(workspaceId)}/synchronizations`);
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['connection_id', 'status', 'synchronization_id']);
    assert.equal(body.status, 'pending');
    assert.equal(body.connection_id, workspaceId);
    assert.equal(await runner.runOnce(), 1);
    return body.synchronization_id as string;
  };

  it('refuses what the service refuses: another strategy 400, an unknown connection 404, no configuration yet 404, a token without the scope 403', async () => {
    const wrong = await t.management('POST', base(databaseId), { body: {} });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.json().message, /does not support inbound directory provisioning/);
    for (const [method, suffix] of [['GET', ''], ['POST', ''], ['PATCH', ''], ['DELETE', ''], ['GET', '/default-mapping'], ['POST', '/synchronizations'], ['GET', '/synchronized-groups']] as const) {
      const res = await t.management(method, `${base('con_doesnotexist00000')}${suffix}`, method === 'PATCH' || method === 'POST' ? { body: {} } : {});
      assert.equal(res.statusCode, 404, `${method} ${suffix}`);
      assert.equal(res.json().errorCode, 'inexistent_connection');
    }
    const none = await t.management('GET', base(workspaceId));
    assert.equal(none.statusCode, 404);
    assert.equal(none.json().message, 'Directory provisioning configuration not found');
    assert.equal((await t.management('POST', `${base(workspaceId)}/synchronizations`)).statusCode, 404);

    const readOnly = await t.managementToken('read:directory_provisionings');
    const forbidden = await t.management('POST', base(workspaceId), { token: readOnly, body: {} });
    assert.equal(forbidden.statusCode, 403);
    assert.match(forbidden.json().message, /Insufficient scope, expected any of: create:directory_provisionings/);
    const listForbidden = await t.management('GET', '/api/v2/connections-directory-provisionings', { token: await t.managementToken('read:users') });
    assert.equal(listForbidden.statusCode, 403);

    const incomplete = await t.management('POST', base(incompleteId), { body: {} });
    assert.equal(incomplete.statusCode, 400);
    assert.match(incomplete.json().message, /setup is incomplete/);
    const badMapping = await t.management('POST', base(workspaceId), { body: { mapping: [{ auth0: 'password_hash', idp: 'primaryEmail' }] } });
    assert.equal(badMapping.statusCode, 400);
    assert.match(badMapping.json().message, /^Invalid mapping provided: unknown profile attribute password_hash/);
    const blockedMapping = await t.management('POST', base(workspaceId), { body: { mapping: [{ auth0: 'blocked', idp: 'suspended' }] } });
    assert.equal(blockedMapping.statusCode, 400);
    const unknownMember = await t.management('POST', base(workspaceId), { body: { mapping: [{ auth0: 'email', idp: 'primaryEmail' }], scim: true } });
    assert.equal(unknownMember.statusCode, 400);
    // Nothing was created by the refusals.
    assert.equal((await t.management('GET', base(workspaceId))).statusCode, 404);
  });

  it('creates a configuration with the default mapping (201), refuses a second (409), reads and lists it', async () => {
    const defaults = await t.management('GET', `${base(workspaceId)}/default-mapping`);
    assert.equal(defaults.statusCode, 200);
    assert.deepEqual(defaults.json().mapping.slice(0, 2), [{ auth0: 'email', idp: 'primaryEmail' }, { auth0: 'name', idp: 'name.fullName' }]);

    const created = await t.management('POST', base(workspaceId), { body: null });
    assert.equal(created.statusCode, 201, created.body);
    const body = created.json();
    assert.equal(body.connection_id, workspaceId);
    assert.equal(body.connection_name, CONNECTION);
    assert.equal(body.strategy, 'google-apps');
    assert.equal(body.synchronize_automatically, false);
    assert.equal(body.synchronize_groups, 'off');
    assert.deepEqual(body.mapping, defaults.json().mapping);
    assert.equal(body.last_synchronization_status, undefined);

    const second = await t.management('POST', base(workspaceId), { body: {} });
    assert.equal(second.statusCode, 409);
    assert.equal(second.json().message, 'Directory provisioning is already enabled on the specified connection');

    assert.deepEqual((await t.management('GET', base(workspaceId))).json(), body);
    const list = await t.management('GET', '/api/v2/connections-directory-provisionings?take=10');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json(), { directory_provisionings: [body] });
  });

  it('synchronizes: users.list paged with pageToken, users created through the mapping, a suspended one blocked; a second request while queued is 409', async () => {
    const requested = await t.management('POST', `${base(workspaceId)}/synchronizations`);
    assert.equal(requested.statusCode, 201, requested.body);
    const again = await t.management('POST', `${base(workspaceId)}/synchronizations`);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().message, 'A synchronization has already been requested or is in progress for the connection');
    assert.equal((await t.management('GET', base(workspaceId))).json().last_synchronization_status, 'pending');
    // The synchronization is a job of the queue, not one of the Management API's jobs.
    assert.equal((await t.management('GET', `/api/v2/jobs/${requested.json().synchronization_id}`)).statusCode, 404);

    directory.calls.length = 0;
    assert.equal(await runner.runOnce(), 1);
    const userCalls = directory.calls.filter((call) => call.startsWith('/admin/directory/v1/users'));
    assert.equal(userCalls.length, 3, 'five users in pages of two');
    assert.doesNotMatch(userCalls[0]!, /pageToken/);
    assert.match(userCalls[1]!, /pageToken=/);
    assert.match(userCalls[0]!, /customer=my_customer/);

    const state = (await t.management('GET', base(workspaceId))).json();
    assert.equal(state.last_synchronization_status, 'completed', JSON.stringify(state));
    assert.equal(state.last_synchronization_error, undefined);
    assert.ok(state.last_synchronization_at);

    const alice = await user('alice@corp.example');
    assert.equal(alice.email, 'alice@corp.example');
    assert.equal(alice.email_verified, true);
    assert.equal(alice.given_name, 'Alice');
    assert.equal(alice.family_name, 'Archer');
    assert.equal(alice.name, 'Alice Archer');
    assert.equal(alice.blocked ?? false, false);
    assert.deepEqual(
      { title: alice.app_metadata?.title, department: alice.app_metadata?.department, external_id: alice.app_metadata?.external_id, employee_id: alice.app_metadata?.employee_id },
      { title: 'Engineer', department: 'R&D', external_id: '101', employee_id: 'E-101' },
    );
    assert.equal((alice.identities as { connection: string }[])[0]!.connection, CONNECTION);
    assert.equal((await user('carol@corp.example')).blocked, true);
    for (const email of ['bob@corp.example', 'dave@corp.example', 'erin@corp.example']) assert.equal((await user(email)).blocked ?? false, false);
  });

  it('a second synchronization within 30 minutes is refused (400); later it updates users, blocks the suspended and the removed, and lifts its own block', async () => {
    const soon = await t.management('POST', `${base(workspaceId)}/synchronizations`);
    assert.equal(soon.statusCode, 400);
    assert.equal(soon.json().message, 'Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again.');

    t.ctx.clock.advance(31 * 60 * 1000);
    // An administrator's own block is not the directory's to lift.
    const adminBlock = await t.management('PATCH', `/api/v2/users/${encodeURIComponent(userId('erin@corp.example'))}`, { body: { blocked: true } });
    assert.equal(adminBlock.statusCode, 200, adminBlock.body);
    directory.users[0] = directoryUser('101', 'alice@corp.example', 'Alice', 'Archer-Smith', { organizations: [{ title: 'Staff Engineer', primary: true }] });
    // Bob and Dave are signed in; the directory is about to take them away.
    const now = t.ctx.now();
    for (const email of ['bob@corp.example', 'dave@corp.example']) {
      await t.ctx.stores.sessions.insert({ tenant_id: t.tenant.id, id_hash: secretHash(`session-${email}`), user_id: userId(email), auth_time: Math.floor(now / 1000), created_at: isoAt(now), expires_at: isoAt(now + 3_600_000) });
      assert.ok(await t.ctx.stores.sessions.findActive(t.tenant.id, secretHash(`session-${email}`), isoAt(now)));
    }
    directory.users[1] = { ...directory.users[1], suspended: true };
    directory.users[2] = { ...directory.users[2], suspended: false };
    directory.users.splice(3, 1); // dave leaves the directory
    await synchronize();

    const alice = await user('alice@corp.example');
    assert.equal(alice.family_name, 'Archer-Smith');
    assert.equal(alice.name, 'Alice Archer-Smith');
    assert.equal(alice.app_metadata?.title, 'Staff Engineer');
    assert.equal(alice.app_metadata?.department, undefined, 'a mapped attribute the directory no longer has is removed');
    assert.equal((await user('bob@corp.example')).blocked, true, 'suspended in the directory');
    assert.equal((await user('dave@corp.example')).blocked, true, 'removed from the directory');
    for (const email of ['bob@corp.example', 'dave@corp.example']) {
      assert.equal(await t.ctx.stores.sessions.findActive(t.tenant.id, secretHash(`session-${email}`), isoAt(t.ctx.now())), undefined, `${email}'s session ended`);
    }
    assert.equal((await user('carol@corp.example')).blocked ?? false, false, 'reactivated: the directory lifts its own block');
    assert.equal((await user('erin@corp.example')).blocked, true, "the administrator's block stays");
  });

  it('updates the configuration (PATCH), selects groups (PUT/GET synchronized-groups) and writes their names into app_metadata.groups', async () => {
    const invalid = await t.management('PUT', `${base(workspaceId)}/synchronized-groups`, { body: { groups: [{ id: 'not-alphanumeric!' }] } });
    assert.equal(invalid.statusCode, 400);
    const put = await t.management('PUT', `${base(workspaceId)}/synchronized-groups`, { body: { groups: [{ id: 'grp1' }] } });
    assert.equal(put.statusCode, 204, put.body);
    const listed = await t.management('GET', `${base(workspaceId)}/synchronized-groups`);
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(listed.json(), { groups: [{ id: 'grp1' }] });

    const patched = await t.management('PATCH', base(workspaceId), { body: { synchronize_groups: 'selected', synchronize_automatically: true } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().synchronize_groups, 'selected');
    assert.equal(patched.json().synchronize_automatically, true);
    assert.equal(patched.json().mapping.length, 12, 'the mapping is kept when the body leaves it out');
    const badPatch = await t.management('PATCH', base(workspaceId), { body: { mapping: [] } });
    assert.equal(badPatch.statusCode, 400);

    t.ctx.clock.advance(31 * 60 * 1000);
    await synchronize();
    assert.deepEqual((await user('alice@corp.example')).app_metadata?.groups, ['Engineering']);
    assert.deepEqual((await user('carol@corp.example')).app_metadata?.groups, []);
    assert.ok(directory.calls.some((call) => call.startsWith('/admin/directory/v1/groups/grp1/members')));
    assert.ok(!directory.calls.some((call) => call.startsWith('/admin/directory/v1/groups/grp2/members')), 'only the selected group is read');
  });

  it('a job a stopped process left is run by the next one; a refused consent fails the synchronization with its reason', async () => {
    t.ctx.clock.advance(31 * 60 * 1000);
    const requested = await t.management('POST', `${base(workspaceId)}/synchronizations`);
    assert.equal(requested.statusCode, 201);
    // A process claims the job and dies before finishing it.
    const now = t.ctx.now();
    const claimed = await t.ctx.stores.jobs.claim('dead-process', isoAt(now), isoAt(now + 60_000));
    assert.equal(claimed?.id, requested.json().synchronization_id);
    assert.equal(await new JobRunner(t.ctx).runOnce(), 0, 'leased to the dead process');
    t.ctx.clock.advance(61_000);
    // A directory user whose address another user of the connection holds is skipped; the others are written.
    directory.users.push(directoryUser('107', 'ALICE@corp.example', 'Impostor', 'Alias'), directoryUser('106', 'frank@corp.example', 'Frank', 'Fox'));
    assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
    assert.equal((await user('frank@corp.example')).given_name, 'Frank');
    assert.equal((await t.management('GET', base(workspaceId))).json().last_synchronization_status, 'completed');
    assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(userId('ALICE@corp.example'))}`)).statusCode, 404);
    assert.equal((await user('alice@corp.example')).given_name, 'Alice');
    directory.users = directory.users.filter((u) => u.id !== '107');

    t.ctx.clock.advance(31 * 60 * 1000);
    directory.refuseTokens = true;
    try {
      await synchronize();
    } finally {
      directory.refuseTokens = false;
    }
    const failed = (await t.management('GET', base(workspaceId))).json();
    assert.equal(failed.last_synchronization_status, 'failed');
    assert.match(failed.last_synchronization_error, /refused the connection's administrator consent \(invalid_grant\)/);
    assert.doesNotMatch(JSON.stringify(failed), new RegExp(REFRESH_TOKEN.replace(/[/]/g, '\\/')));
  });

  it('stops at GATEHOUSE_DIRECTORY_SYNC_MAX_USERS and then blocks nobody for absence', async () => {
    t.ctx.clock.advance(31 * 60 * 1000);
    const limits = t.config.directorySync as { maxUsers: number };
    const saved = limits.maxUsers;
    limits.maxUsers = 3;
    try {
      await synchronize();
    } finally {
      limits.maxUsers = saved;
    }
    const state = (await t.management('GET', base(workspaceId))).json();
    assert.equal(state.last_synchronization_status, 'completed');
    assert.match(state.last_synchronization_error, /more than 3 users/);
    assert.equal((await user('frank@corp.example')).blocked ?? false, false, 'not seen, but the run did not read the whole directory');
  });

  it('the auth0 SDK drives every operation (connections.directoryProvisioning)', async () => {
    const row = connectionRow(t.tenant.id, {
      name: 'sdk-workspace',
      strategy: 'google-apps',
      realms: ['sdk-workspace'],
      options: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, domain: 'corp.example', api_enable_users: true, api_enable_groups: true, admin_refresh_token: REFRESH_TOKEN, oidc_metadata: { token_endpoint: directory.tokenUrl } },
    });
    await t.ctx.stores.connections.insert(row, []);
    const sdk = (await inProcessSdk(t)).connections.directoryProvisioning;
    const defaults = await sdk.getDefaultMapping(row.id);
    assert.equal(defaults.mapping?.[0]?.idp, 'primaryEmail');
    const created = await sdk.create(row.id, { mapping: [{ auth0: 'email', idp: 'primaryEmail' }, { auth0: 'app_metadata.unit', idp: 'orgUnitPath' }], synchronize_groups: 'all' });
    assert.equal(created.connection_name, 'sdk-workspace');
    assert.equal(created.synchronize_groups, 'all');
    assert.equal((await sdk.get(row.id)).mapping.length, 2);
    const page = await sdk.list({ take: 1 });
    assert.equal(page.data.length, 1);
    const all: string[] = [];
    for await (const item of await sdk.list({ take: 1 })) all.push(item.connection_id);
    assert.ok(all.includes(row.id), 'the SDK follows `next` to the second configuration');
    await sdk.set(row.id, { groups: [{ id: 'grp2' }, { id: 'grp1' }] });
    const groups: string[] = [];
    for await (const group of await sdk.listSynchronizedGroups(row.id, { take: 1 })) groups.push(group.id);
    assert.deepEqual(groups, ['grp1', 'grp2']);
    const updated = await sdk.update(row.id, { synchronize_automatically: true });
    assert.equal(updated.synchronize_automatically, true);
    assert.equal(updated.mapping.length, 2);
    const sync = await sdk.synchronizations.create(row.id);
    assert.equal(sync.status, 'pending');
    assert.equal(await runner.runOnce(), 1);
    const state = await sdk.get(row.id);
    assert.equal(state.last_synchronization_status, 'completed', JSON.stringify(state));
    const frank = await t.management('GET', `/api/v2/users/${encodeURIComponent('google-apps|sdk-workspace|frank@corp.example')}`);
    assert.equal(frank.statusCode, 200, frank.body);
    assert.equal(frank.json().app_metadata.unit, '/');
    await assert.rejects(sdk.create(row.id, {}), (error: { statusCode?: number }) => error.statusCode === 409);
    await sdk.delete(row.id);
    await assert.rejects(sdk.get(row.id), (error: { statusCode?: number }) => error.statusCode === 404);
  });

  it('deletes the configuration (204); its users stay', async () => {
    const deleted = await t.management('DELETE', base(workspaceId));
    assert.equal(deleted.statusCode, 204);
    assert.equal((await t.management('GET', base(workspaceId))).statusCode, 404);
    assert.equal((await t.management('DELETE', base(workspaceId))).statusCode, 404);
    assert.deepEqual((await t.management('GET', '/api/v2/connections-directory-provisionings')).json(), { directory_provisionings: [] });
    await user('alice@corp.example');
  });
});

describe('directory provisioning: its settings', () => {
  it('checks GATEHOUSE_GOOGLE_DIRECTORY_URL, _CA_FILE and GATEHOUSE_DIRECTORY_SYNC_MAX_USERS at start, naming the variable', () => {
    const dataDir = tempDir();
    const defaults = loadConfig({ GATEHOUSE_DATA_DIR: dataDir });
    assert.deepEqual(defaults.directorySync, { googleUrl: 'https://admin.googleapis.com', caFile: undefined, maxUsers: 50_000 });
    assert.throws(() => loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_GOOGLE_DIRECTORY_URL: 'http://127.0.0.1:8443' }), /GATEHOUSE_GOOGLE_DIRECTORY_URL.*https/);
    assert.throws(() => loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_GOOGLE_DIRECTORY_URL: 'https://directory.example/admin' }), /GATEHOUSE_GOOGLE_DIRECTORY_URL/);
    assert.throws(() => loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE: path.join(dataDir, 'absent.pem') }), /GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE/);
    assert.throws(() => loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DIRECTORY_SYNC_MAX_USERS: '0' }), /GATEHOUSE_DIRECTORY_SYNC_MAX_USERS/);
    const set = loadConfig({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_GOOGLE_DIRECTORY_URL: 'https://127.0.0.1:8443', GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE: caFile, GATEHOUSE_DIRECTORY_SYNC_MAX_USERS: '10' });
    assert.deepEqual(set.directorySync, { googleUrl: 'https://127.0.0.1:8443', caFile: path.resolve(caFile), maxUsers: 10 });
  });
});

describe('directory provisioning: the outbound guard', () => {
  it('refuses the stand-in on a loopback address without GATEHOUSE_OUTBOUND_ALLOW: the synchronization fails, nothing is written', async () => {
    const directory = await startDirectoryStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, refreshToken: REFRESH_TOKEN, tls: { cert: material.certPem, key: material.keyPem } });
    directory.users = [directoryUser('201', 'gina@corp.example', 'Gina', 'Gale')];
    const t = await createTestApp({ env: { GATEHOUSE_GOOGLE_DIRECTORY_URL: directory.url, GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE: caFile } });
    try {
      const row = connectionRow(t.tenant.id, {
        name: CONNECTION,
        strategy: 'google-apps',
        realms: [CONNECTION],
        options: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, domain: 'corp.example', api_enable_users: true, admin_refresh_token: REFRESH_TOKEN, oidc_metadata: { token_endpoint: directory.tokenUrl } },
      });
      await t.ctx.stores.connections.insert(row, []);
      assert.equal((await t.management('POST', base(row.id), { body: {} })).statusCode, 201);
      assert.equal((await t.management('POST', `${base(row.id)}/synchronizations`)).statusCode, 201);
      assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
      const state = (await t.management('GET', base(row.id))).json();
      assert.equal(state.last_synchronization_status, 'failed');
      assert.match(state.last_synchronization_error, /not a public address/);
      assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(userId('gina@corp.example'))}`)).statusCode, 404);
    } finally {
      await t.close();
      await directory.close();
    }
  });
});
