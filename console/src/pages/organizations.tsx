/**
 * Organizations (/api/v2/organizations): the list, create, and the members
 * of one.
 */
import { useState } from 'preact/hooks';
import { listOf, seg } from '../api.js';
import { href, navigate } from '../router.js';
import { DetailPage, Field, Form, InfoCard, ListPage, useApi, useLoad } from '../ui.js';
import { Members } from './members.js';

interface Organization {
  id: string;
  name: string;
  display_name?: string;
}

export function Organizations({ route }: { route: string[] }) {
  return route[0] ? <OrganizationDetail id={route[0]} /> : <OrganizationList />;
}

function OrganizationList() {
  const api = useApi();
  const organizations = useLoad(async () => listOf<Organization>(await api.get('/organizations', { per_page: 100 }), 'organizations'), []);
  return (
    <ListPage
      title="Organizations"
      loaded={organizations}
      columns={[
        { title: 'Name', cell: (o) => <a href={href('organizations', o.id)}>{o.name}</a> },
        { title: 'Display name', cell: (o) => o.display_name ?? '' },
        { title: 'ID', cell: (o) => <code>{o.id}</code> },
      ]}
    >
      <CreateOrganization />
    </ListPage>
  );
}

function CreateOrganization() {
  const api = useApi();
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  return (
    <Form
      title="Create an organization"
      submit="Create organization"
      onSubmit={async () => {
        const created = await api.post<Organization>('/organizations', { name, ...(displayName && { display_name: displayName }) });
        navigate('organizations', created.id);
      }}
    >
      <Field label="Name" value={name} onValue={setName} required hint="Lowercase letters, digits, hyphens and underscores; used in login URLs." />
      <Field label="Display name" value={displayName} onValue={setDisplayName} />
    </Form>
  );
}

function OrganizationDetail({ id }: { id: string }) {
  const api = useApi();
  const organization = useLoad(() => api.get<Organization>(`/organizations/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={organization} title={(o) => o.display_name ?? o.name} fallback="Organization" section="organizations" sectionTitle="organizations">
      {(o) => (
        <>
          <InfoCard
            title="General"
            items={[
              ['ID', <code>{o.id}</code>],
              ['Name', o.name],
            ]}
          />
          <Members path={`/organizations/${seg(o.id)}/members`} owner={o.display_name ?? o.name} />
        </>
      )}
    </DetailPage>
  );
}
