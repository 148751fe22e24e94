/**
 * Roles (/api/v2/roles): the list, create, and the permissions of one (an
 * API's scope each), added and removed.
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { href, navigate } from '../router.js';
import { DetailPage, Field, Form, ListPage, ListSection, LoadState, Select, useApi, useLoad } from '../ui.js';
import type { Role } from './assigned-roles.js';

interface Permission {
  permission_name: string;
  resource_server_identifier: string;
  resource_server_name?: string;
  description?: string;
}

interface ResourceServer {
  identifier: string;
  name: string;
  scopes?: { value: string; description?: string }[];
}

export function Roles({ route }: { route: string[] }) {
  return route[0] ? <RoleDetail id={route[0]} /> : <RoleList />;
}

function RoleList() {
  const api = useApi();
  const roles = useLoad(() => api.get<Role[]>('/roles', { per_page: 100 }), []);
  return (
    <ListPage
      title="Roles"
      loaded={roles}
      columns={[
        { title: 'Name', cell: (r) => <a href={href('roles', r.id)}>{r.name}</a> },
        { title: 'Description', cell: (r) => r.description ?? '' },
      ]}
    >
      <CreateRole />
    </ListPage>
  );
}

function CreateRole() {
  const api = useApi();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  return (
    <Form
      title="Create a role"
      submit="Create role"
      onSubmit={async () => {
        const created = await api.post<Role>('/roles', { name, ...(description && { description }) });
        navigate('roles', created.id);
      }}
    >
      <Field label="Name" value={name} onValue={setName} required />
      <Field label="Description" value={description} onValue={setDescription} />
    </Form>
  );
}

function RoleDetail({ id }: { id: string }) {
  const api = useApi();
  const role = useLoad(() => api.get<Role>(`/roles/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={role} title={(r) => r.name} fallback="Role" section="roles" sectionTitle="roles">
      {(r) => <RolePermissions role={r} />}
    </DetailPage>
  );
}

function RolePermissions({ role }: { role: Role }) {
  const api = useApi();
  const path = `/roles/${seg(role.id)}/permissions`;
  const permissions = useLoad(() => api.get<Permission[]>(path, { per_page: 100 }), [path]);
  const servers = useLoad(() => api.get<ResourceServer[]>('/resource-servers', { per_page: 100 }), []);
  const [server, setServer] = useState('');
  const [scope, setScope] = useState('');
  return (
    <ListSection
      title="Permissions"
      caption={`Permissions of ${role.name}`}
      empty="No permissions."
      rows={permissions}
      columns={[
        { title: 'Permission', cell: (p) => <code>{p.permission_name}</code> },
        { title: 'API', cell: (p) => p.resource_server_name ?? p.resource_server_identifier },
      ]}
      action={{
        label: (p) => `Remove ${p.permission_name}`,
        run: (p) => api.del(path, { permissions: [{ resource_server_identifier: p.resource_server_identifier, permission_name: p.permission_name }] }),
      }}
    >
      <LoadState loaded={servers}>
        {(list) => {
          const withScopes = list.filter((s) => (s.scopes ?? []).length > 0);
          const chosen = withScopes.find((s) => s.identifier === server) ?? withScopes[0];
          const scopes = chosen?.scopes ?? [];
          const chosenScope = scopes.some((s) => s.value === scope) ? scope : (scopes[0]?.value ?? '');
          return (
            <Form
              title="Add a permission"
              level={3}
              submit="Add permission"
              onSubmit={async () => {
                if (!chosen || !chosenScope) throw new Error('Choose an API and one of its scopes.');
                await api.post(path, { permissions: [{ resource_server_identifier: chosen.identifier, permission_name: chosenScope }] });
                permissions.reload();
                return 'Permission added.';
              }}
            >
              <Select label="API" value={chosen?.identifier ?? ''} onValue={setServer} options={withScopes.map((s): [string, string] => [s.identifier, s.name])} />
              <Select label="Scope" value={chosenScope} onValue={setScope} options={scopes.map((s) => s.value)} />
            </Form>
          );
        }}
      </LoadState>
    </ListSection>
  );
}
