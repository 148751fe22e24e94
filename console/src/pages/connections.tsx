/**
 * Connections (/api/v2/connections): the list, create a database connection,
 * and which applications may use one (PATCH /connections/{id}/clients).
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { href, navigate } from '../router.js';
import { Checkbox, DetailPage, Field, Form, InfoCard, ListPage, LoadState, toggled, useApi, useLoad } from '../ui.js';

interface Connection {
  id: string;
  name: string;
  strategy: string;
  display_name?: string;
  realms?: string[];
}

interface Client {
  client_id: string;
  name: string;
}

export function Connections({ route }: { route: string[] }) {
  return route[0] ? <ConnectionDetail id={route[0]} /> : <ConnectionList />;
}

function ConnectionList() {
  const api = useApi();
  const connections = useLoad(() => api.get<Connection[]>('/connections', { per_page: 100 }), []);
  return (
    <ListPage
      title="Connections"
      loaded={connections}
      columns={[
        { title: 'Name', cell: (c) => <a href={href('connections', c.id)}>{c.name}</a> },
        { title: 'Strategy', cell: (c) => c.strategy },
        { title: 'ID', cell: (c) => <code>{c.id}</code> },
      ]}
    >
      <CreateConnection />
    </ListPage>
  );
}

function CreateConnection() {
  const api = useApi();
  const [name, setName] = useState('');
  return (
    <Form
      title="Create a database connection"
      submit="Create connection"
      onSubmit={async () => {
        const created = await api.post<Connection>('/connections', { name, strategy: 'auth0' });
        navigate('connections', created.id);
      }}
    >
      <Field label="Name" value={name} onValue={setName} required pattern="[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?" hint="Letters, digits and hyphens; no hyphen at either end." />
    </Form>
  );
}

function ConnectionDetail({ id }: { id: string }) {
  const api = useApi();
  const connection = useLoad(() => api.get<Connection>(`/connections/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={connection} title={(c) => c.name} fallback="Connection" section="connections" sectionTitle="connections">
      {(c) => (
        <>
          <InfoCard
            title="General"
            items={[
              ['ID', <code>{c.id}</code>],
              ['Strategy', c.strategy],
            ]}
          />
          <EnabledClients connection={c} />
        </>
      )}
    </DetailPage>
  );
}

function EnabledClients({ connection }: { connection: Connection }) {
  const api = useApi();
  const path = `/connections/${seg(connection.id)}/clients`;
  const loaded = useLoad(async () => {
    const [clients, enabled] = await Promise.all([
      api.get<Client[]>('/clients', { per_page: 100, fields: 'client_id,name', include_fields: true }),
      api.get<{ clients: { client_id: string }[] }>(path, { take: 1000 }),
    ]);
    return { clients, enabled: new Set(enabled.clients.map((c) => c.client_id)) };
  }, [path]);
  return (
    <LoadState loaded={loaded}>
      {({ clients, enabled }) => <EnabledClientsForm path={path} clients={clients} enabled={enabled} />}
    </LoadState>
  );
}

function EnabledClientsForm({ path, clients, enabled }: { path: string; clients: Client[]; enabled: Set<string> }) {
  const api = useApi();
  const [chosen, setChosen] = useState(new Set(enabled));
  return (
    <Form
      title="Applications using this connection"
      submit="Save applications"
      onSubmit={async () => {
        const changes = clients.filter((c) => chosen.has(c.client_id) !== enabled.has(c.client_id)).map((c) => ({ client_id: c.client_id, status: chosen.has(c.client_id) }));
        if (changes.length > 0) await api.patch(path, changes);
        for (const change of changes) if (change.status) enabled.add(change.client_id);
        else enabled.delete(change.client_id);
        return 'Applications saved.';
      }}
    >
      <fieldset>
        <legend>Enabled for</legend>
        {clients.map((c) => (
          <Checkbox
            key={c.client_id}
            label={c.name}
            checked={chosen.has(c.client_id)}
            onChecked={(on) => setChosen(toggled(chosen, c.client_id, on))}
          />
        ))}
      </fieldset>
    </Form>
  );
}
