/**
 * The roles assigned to a user or a group: a table with a remove button per
 * role and a form to assign one of the tenant's roles. `path` is the
 * assignment's resource (`/users/{id}/roles`, `/groups/{id}/roles`), which
 * answers GET with the roles and POST/DELETE with `{roles: [id]}`.
 */
import { useState } from 'preact/hooks';
import { listOf } from '../api.js';
import { href } from '../router.js';
import { ActionButton, Form, LoadState, Select, Table, useApi, useLoad } from '../ui.js';

export interface Role {
  id: string;
  name: string;
  description?: string;
}

/** GET /groups/{id}/roles pages with `{roles, next}`; GET /users/{id}/roles answers an array. */


export function AssignedRoles({ path, owner }: { path: string; owner: string }) {
  const api = useApi();
  const assigned = useLoad(async () => listOf<Role>(await api.get(path), 'roles'), [path]);
  const all = useLoad(() => api.get<Role[]>('/roles', { per_page: 100 }), []);
  const [choice, setChoice] = useState('');
  return (
    <section class="card" aria-labelledby="roles-title">
      <h2 id="roles-title">Roles</h2>
      <LoadState loaded={assigned}>
        {(roles) => (
          <Table
            caption={`Roles of ${owner}`}
            empty="No roles assigned."
            rows={roles}
            columns={[
              { title: 'Role', cell: (r) => <a href={href('roles', r.id)}>{r.name}</a> },
              { title: 'Description', cell: (r) => r.description ?? '' },
              {
                title: 'Actions',
                cell: (r) => (
                  <ActionButton
                    label={`Remove role ${r.name}`}
                    action={async () => {
                      await api.del(path, { roles: [r.id] });
                      assigned.reload();
                    }}
                  />
                ),
              },
            ]}
          />
        )}
      </LoadState>
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
    </section>
  );
}
