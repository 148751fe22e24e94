/**
 * Groups (/api/v2/groups): the list, create (a Gatehouse extension of the
 * Management API), and one group's roles and members.
 */
import { useState } from 'preact/hooks';
import { listOf, seg } from '../api.js';
import { href, navigate } from '../router.js';
import { DetailPage, Field, Form, InfoCard, ListPage, useApi, useLoad } from '../ui.js';
import { AssignedRoles } from './assigned-roles.js';
import { Members } from './members.js';

interface Group {
  id: string;
  name: string;
  description?: string;
  connection_id?: string;
  organization_id?: string;
}

export function Groups({ route }: { route: string[] }) {
  return route[0] ? <GroupDetail id={route[0]} /> : <GroupList />;
}

function GroupList() {
  const api = useApi();
  const groups = useLoad(async () => listOf<Group>(await api.get('/groups', { per_page: 100 }), 'groups'), []);
  return (
    <ListPage
      title="Groups"
      loaded={groups}
      columns={[
        { title: 'Name', cell: (g) => <a href={href('groups', g.id)}>{g.name}</a> },
        { title: 'Description', cell: (g) => g.description ?? '' },
        { title: 'Source', cell: (g) => (g.connection_id ? `Connection ${g.connection_id}` : g.organization_id ? `Organization ${g.organization_id}` : 'Tenant') },
      ]}
    >
      <CreateGroup />
    </ListPage>
  );
}

function CreateGroup() {
  const api = useApi();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  return (
    <Form
      title="Create a group"
      submit="Create group"
      onSubmit={async () => {
        const created = await api.post<Group>('/groups', { name, ...(description && { description }) });
        navigate('groups', created.id);
      }}
    >
      <Field label="Name" value={name} onValue={setName} required maxLength={128} />
      <Field label="Description" value={description} onValue={setDescription} maxLength={256} />
    </Form>
  );
}

function GroupDetail({ id }: { id: string }) {
  const api = useApi();
  const group = useLoad(() => api.get<Group>(`/groups/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={group} title={(g) => g.name} fallback="Group" section="groups" sectionTitle="groups">
      {(g) => (
        <>
          <InfoCard
            title="General"
            items={[
              ['ID', <code>{g.id}</code>],
              ['Description', g.description ?? '—'],
            ]}
          />
          <AssignedRoles path={`/groups/${seg(g.id)}/roles`} owner={g.name} />
          <Members path={`/groups/${seg(g.id)}/members`} owner={g.name} />
        </>
      )}
    </DetailPage>
  );
}
