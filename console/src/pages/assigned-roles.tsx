/**
 * The roles assigned to a user or a group: a table with a remove button per
 * role and a form to assign one of the tenant's roles. `path` is the
 * assignment's resource (`/users/{id}/roles`, `/groups/{id}/roles`), which
 * answers GET with the roles and POST/DELETE with `{roles: [id]}`.
 */
import { useState } from 'preact/hooks';
import { listOf } from '../api.js';
import { href } from '../router.js';
import { Form, ListSection, LoadState, Select, useApi, useLoad } from '../ui.js';

export interface Role {
  id: string;
  name: string;
  description?: string;
}

/** GET /groups/{id}/roles pages with `{roles, next}`; GET /users/{id}/roles answers an array (`listOf` reads both). */
export function AssignedRoles({ path, owner }: { path: string; owner: string }) {
  const api = useApi();
  const assigned = useLoad(async () => listOf<Role>(await api.get(path), 'roles'), [path]);
  const all = useLoad(() => api.get<Role[]>('/roles', { per_page: 100 }), []);
  const [choice, setChoice] = useState('');
  return (
    <ListSection
      title="Roles"
      caption={`Roles of ${owner}`}
      empty="No roles assigned."
      rows={assigned}
      columns={[
        { title: 'Role', cell: (r) => <a href={href('roles', r.id)}>{r.name}</a> },
        { title: 'Description', cell: (r) => r.description ?? '' },
      ]}
      action={{ label: (r) => `Remove role ${r.name}`, run: (r) => api.del(path, { roles: [r.id] }) }}
    >
      <LoadState loaded={all}>
        {(roles) => {
          const free = roles.filter((r) => !assigned.data?.some((a) => a.id === r.id));
          return (
            <Form
              title="Assign a role"
              level={3}
              submit="Assign role"
              onSubmit={async () => {
                const role = choice || free[0]?.id;
                if (!role) throw new Error('Choose a role to assign.');
                await api.post(path, { roles: [role] });
                setChoice('');
                assigned.reload();
                return 'Role assigned.';
              }}
            >
              <Select label="Role to assign" value={choice || (free[0]?.id ?? '')} onValue={setChoice} options={free.map((r): [string, string] => [r.id, r.name])} />
            </Form>
          );
        }}
      </LoadState>
    </ListSection>
  );
}
