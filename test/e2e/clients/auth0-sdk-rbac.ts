/**
 * Drives the official `auth0` SDK (v7) through role-based access control:
 * roles' permissions, users and groups; users' roles, permissions, groups,
 * effective permissions and roles; groups' members; users by email. Prints
 * one JSON result; test/e2e/auth0-sdk-rbac.test.ts runs it as its own process
 * with NODE_EXTRA_CA_CERTS, so TLS verification is real.
 *
 * Usage: node --import tsx auth0-sdk-rbac.ts '{"domain":…,"clientId":…,"clientSecret":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

async function all<T>(page: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of page) items.push(item);
  return items;
}

/** The status and body of the SDK's error for a refused call. */
async function failure(call: Promise<unknown>): Promise<{ statusCode: number | undefined; body: unknown }> {
  try {
    await call;
  } catch (error) {
    const e = error as { statusCode?: number; body?: unknown };
    return { statusCode: e.statusCode, body: e.body };
  }
  throw new Error('expected the call to be refused');
}

/** For Gatehouse's own operations, which the SDK has no method for (POST /groups, POST /groups/{id}/members). */
async function gatehouse(method: string, path: string, body: unknown): Promise<unknown> {
  const token = await fetch(`https://${input.domain}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: input.clientId, client_secret: input.clientSecret, audience: `https://${input.domain}/api/v2/` }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const res = await fetch(`https://${input.domain}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

const CONNECTION = 'Username-Password-Authentication';
await management.connections.create({ name: CONNECTION, strategy: 'auth0' });
const users: string[] = [];
for (let i = 0; i < 3; i++) {
  const user = await management.users.create({ connection: CONNECTION, email: `rbac-${i}@example.com`, password: 'Correct-Horse-7' });
  users.push(user.user_id!);
}
const [alice, bob, carol] = users as [string, string, string];
out.users = users;

const api = await management.resourceServers.create({
  identifier: 'https://rbac.e2e.example/',
  name: 'RBAC E2E',
  scopes: [{ value: 'read:things', description: 'Read things' }, { value: 'write:things', description: 'Write things' }, { value: 'delete:things' }],
});
const identifier = api.identifier!;
const perm = (permission_name: string) => ({ resource_server_identifier: identifier, permission_name });
const reader = await management.roles.create({ name: 'e2e-reader', description: 'Reads' });
const writer = await management.roles.create({ name: 'e2e-writer' });
out.roles = { reader: reader.id, writer: writer.id };

// A role's permissions: add, list (offset pages of one), delete; refusals.
await management.roles.permissions.add(reader.id!, { permissions: [perm('read:things')] });
await management.roles.permissions.add(writer.id!, { permissions: [perm('write:things'), perm('delete:things')] });
out.readerPermissions = await all(await management.roles.permissions.list(reader.id!));
out.writerPermissionsByOnes = (await all(await management.roles.permissions.list(writer.id!, { per_page: 1 }))).map((p) => p.permission_name);
out.unknownApi = await failure(management.roles.permissions.add(reader.id!, { permissions: [{ resource_server_identifier: 'https://nope.e2e.example/', permission_name: 'x' }] }));
out.unknownScope = await failure(management.roles.permissions.add(reader.id!, { permissions: [perm('admin:things')] }));
out.unknownRolePermissions = await failure(management.roles.permissions.list('rol_doesnotexist0000'));
await management.roles.permissions.delete(writer.id!, { permissions: [perm('delete:things')] });
out.writerPermissionsAfterDelete = (await all(await management.roles.permissions.list(writer.id!))).map((p) => p.permission_name);

// A user's roles and a role's users (checkpoint pages of two, as the SDK follows `next`).
await management.users.roles.assign(alice, { roles: [reader.id!] });
out.aliceRoles = await all(await management.users.roles.list(alice));
out.unknownRole = await failure(management.users.roles.assign(alice, { roles: ['rol_doesnotexist0000'] }));
await management.roles.users.assign(writer.id!, { users });
out.writerUsers = (await all(await management.roles.users.list(writer.id!, { take: 2 }))).map((u) => u.user_id);
out.unknownUser = await failure(management.roles.users.assign(writer.id!, { users: ['auth0|doesnotexist'] }));

// A user's direct permissions, with sources.
await management.users.permissions.create(bob, { permissions: [perm('read:things')] });
out.bobPermissions = await all(await management.users.permissions.list(bob));

// Groups: made and filled through Gatehouse's own operations, then used through the SDK.
const group = (await gatehouse('POST', '/groups', { name: 'e2e-readers' })) as { id: string };
await gatehouse('POST', `/groups/${group.id}/members`, { members: [carol] });
await management.roles.groups.create(reader.id!, { groups: [group.id] });
out.group = group.id;
out.readerGroups = (await all(await management.roles.groups.get(reader.id!))).map((g) => g.id);
out.groupMembers = await all(await management.groups.members.get(group.id));
out.carolGroups = (await all(await management.users.groups.get(carol))).map((g) => g.id);

// What Carol holds: the writer role directly, the reader role through the group.
out.carolEffectivePermissions = await all(await management.users.effectivePermissions.list(carol, { resource_server_identifier: identifier }));
out.carolEffectiveRoles = (await all(await management.users.effectiveRoles.list(carol))).map((r) => ({ id: r.id, sources: r.sources }));
out.carolReaderSources = (await all(await management.users.effectiveRoles.sources.groups.list(carol, { role_id: reader.id! }))).map((g) => g.id);
out.carolReadGrantedBy = (
  await all(await management.users.effectivePermissions.sources.roles.list(carol, { resource_server_identifier: identifier, permission_name: 'read:things' }))
).map((r) => ({ id: r.id, sources: r.sources }));

out.byEmail = (await management.users.listUsersByEmail({ email: 'RBAC-1@example.com' })).map((u) => u.user_id);

// Removals.
await management.users.roles.delete(alice, { roles: [reader.id!] });
out.aliceRolesAfterDelete = await all(await management.users.roles.list(alice));
await management.users.permissions.delete(bob, { permissions: [perm('read:things')] });
out.bobPermissionsAfterDelete = await all(await management.users.permissions.list(bob));
await management.roles.groups.delete(reader.id!, { groups: [group.id] });
out.readerGroupsAfterDelete = await all(await management.roles.groups.get(reader.id!));
out.carolAfterGroupRemoval = (await all(await management.users.effectivePermissions.list(carol, { resource_server_identifier: identifier }))).map(
  (p) => p.permission_name,
);

// Deleting a role takes its assignments with it.
await management.roles.delete(writer.id!);
out.carolRolesAfterRoleDelete = await all(await management.users.effectiveRoles.list(carol));

process.stdout.write(JSON.stringify(out));
