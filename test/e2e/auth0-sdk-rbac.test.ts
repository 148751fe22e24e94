/**
 * Role-based access control driven by the official `auth0` SDK over real
 * HTTPS against the built server running as its own process
 * (test/e2e/clients/auth0-sdk-rbac.ts does the calls).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, runNode } from './support/https.js';

const IDENTIFIER = 'https://rbac.e2e.example/';
const byCodepoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('auth0 SDK: roles, permissions, groups and what users hold', () => {
  let server: ServerProcess;
  let out: Record<string, any>;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    const admin = server.admin();
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-rbac.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    out = JSON.parse(run.stdout) as Record<string, any>;
  });
  after(() => cleanUp([server], [server.dataDir]));

  it('roles.permissions: add, list (also one per page), delete; refusals reach the SDK as the service words them', () => {
    assert.deepEqual(out.readerPermissions, [
      { permission_name: 'read:things', description: 'Read things', resource_server_name: 'RBAC E2E', resource_server_identifier: IDENTIFIER },
    ]);
    assert.deepEqual(out.writerPermissionsByOnes, ['delete:things', 'write:things']);
    assert.deepEqual(out.writerPermissionsAfterDelete, ['write:things']);
    assert.deepEqual(out.unknownApi, {
      statusCode: 404,
      body: { statusCode: 404, error: 'Not Found', message: "The resource server does not exist: 'https://nope.e2e.example/'", errorCode: 'inexistent_resource_server' },
    });
    assert.deepEqual(out.unknownScope, {
      statusCode: 400,
      body: { statusCode: 400, error: 'Bad Request', message: `Permission 'admin:things' does not exist on resource server '${IDENTIFIER}'`, errorCode: 'invalid_body' },
    });
    assert.deepEqual(out.unknownRolePermissions, { statusCode: 404, body: { statusCode: 404, error: 'Not Found', message: 'The role does not exist.' } });
  });

  it('users.roles and roles.users: assign, list (checkpoint pages followed to the end), delete', () => {
    assert.deepEqual(out.aliceRoles, [{ id: out.roles.reader, name: 'e2e-reader', description: 'Reads' }]);
    // The writer role came to every user through roles.users.assign.
    assert.deepEqual(out.aliceRolesAfterDelete, [{ id: out.roles.writer, name: 'e2e-writer', description: null }]);
    assert.deepEqual(out.writerUsers, [...(out.users as string[])].sort(byCodepoint));
    assert.deepEqual(out.unknownRole, { statusCode: 404, body: { statusCode: 404, error: 'Not Found', message: 'The role does not exist.' } });
    assert.deepEqual(out.unknownUser, {
      statusCode: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' },
    });
  });

  it('users.permissions: create, list with sources (direct, and the user\'s roles), delete', () => {
    const base = { resource_server_name: 'RBAC E2E', resource_server_identifier: IDENTIFIER };
    const viaWriter = {
      permission_name: 'write:things',
      description: 'Write things',
      ...base,
      sources: [{ source_id: out.roles.writer, source_name: 'e2e-writer', source_type: 'ROLE' }],
    };
    assert.deepEqual(out.bobPermissions, [
      { permission_name: 'read:things', description: 'Read things', ...base, sources: [{ source_id: '', source_name: '', source_type: 'DIRECT' }] },
      viaWriter,
    ]);
    assert.deepEqual(out.bobPermissionsAfterDelete, [viaWriter]);
  });

  it('roles.groups, groups.members and users.groups', () => {
    const carol = (out.users as string[])[2];
    assert.deepEqual(out.readerGroups, [out.group]);
    assert.equal(out.groupMembers.length, 1);
    const [member] = out.groupMembers as { id: string; member_type: string; type: string; created_at: string }[];
    assert.deepEqual({ ...member, created_at: 'x' }, { id: carol, member_type: 'user', type: 'tenant', created_at: 'x' });
    assert.ok(!Number.isNaN(Date.parse(member!.created_at)));
    assert.deepEqual(out.carolGroups, [out.group]);
    assert.deepEqual(out.readerGroupsAfterDelete, []);
  });

  it('effective permissions and roles: a role held directly and one through a group, with their sources', () => {
    const base = { resource_server_name: 'RBAC E2E', resource_server_identifier: IDENTIFIER, sources: ['roles'] };
    assert.deepEqual(out.carolEffectivePermissions, [
      { permission_name: 'read:things', description: 'Read things', ...base },
      { permission_name: 'write:things', description: 'Write things', ...base },
    ]);
    const expectedRoles = [
      { id: out.roles.reader, sources: ['groups'] },
      { id: out.roles.writer, sources: ['direct'] },
    ].sort((a, b) => byCodepoint(a.id, b.id));
    assert.deepEqual(out.carolEffectiveRoles, expectedRoles);
    assert.deepEqual(out.carolReaderSources, [out.group]);
    assert.deepEqual(out.carolReadGrantedBy, [{ id: out.roles.reader, sources: ['groups'] }]);
    assert.deepEqual(out.carolAfterGroupRemoval, ['write:things']);
    assert.deepEqual(out.carolRolesAfterRoleDelete, [], 'deleting the role took its assignment with it');
  });

  it('users.listUsersByEmail finds the user whatever the case of the address', () => {
    assert.deepEqual(out.byEmail, [(out.users as string[])[1]]);
  });
});
