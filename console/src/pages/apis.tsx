/**
 * APIs (/api/v2/resource-servers): the list, create with an identifier, the
 * scopes of one, and its RBAC settings (enforce policies; permissions in the
 * access token, i.e. the `_authz` token dialects).
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { href, navigate } from '../router.js';
import { Checkbox, DetailPage, Field, Form, InfoCard, ListPage, ListSection, useApi, useLoad } from '../ui.js';

interface Scope {
  value: string;
  description?: string;
}

interface ResourceServer {
  id: string;
  name: string;
  identifier: string;
  is_system?: boolean;
  scopes?: Scope[];
  enforce_policies?: boolean;
  token_dialect?: string;
  signing_alg?: string;
  token_lifetime?: number;
}

export function Apis({ route }: { route: string[] }) {
  return route[0] ? <ApiDetail id={route[0]} /> : <ApiList />;
}

function ApiList() {
  const api = useApi();
  const servers = useLoad(() => api.get<ResourceServer[]>('/resource-servers', { per_page: 100 }), []);
  return (
    <ListPage
      title="APIs"
      loaded={servers}
      columns={[
        { title: 'Name', cell: (s) => <a href={href('apis', s.id)}>{s.name}</a> },
        { title: 'Identifier (audience)', cell: (s) => <code>{s.identifier}</code> },
        { title: 'Scopes', cell: (s) => String(s.scopes?.length ?? 0) },
      ]}
    >
      <CreateApi />
    </ListPage>
  );
}

function CreateApi() {
  const api = useApi();
  const [name, setName] = useState('');
  const [identifier, setIdentifier] = useState('');
  return (
    <Form
      title="Create an API"
      submit="Create API"
      onSubmit={async () => {
        const created = await api.post<ResourceServer>('/resource-servers', { name, identifier });
        navigate('apis', created.id);
      }}
    >
      <Field label="Name" value={name} onValue={setName} required />
      <Field label="Identifier" value={identifier} onValue={setIdentifier} required hint="The audience of the API's access tokens, such as https://api.example.com/. It cannot be changed later." />
    </Form>
  );
}

function ApiDetail({ id }: { id: string }) {
  const api = useApi();
  const server = useLoad(() => api.get<ResourceServer>(`/resource-servers/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={server} title={(s) => s.name} fallback="API" section="apis" sectionTitle="APIs">
      {(s) => (
        <>
          <InfoCard
            title="General"
            items={[
              ['Identifier', <code>{s.identifier}</code>],
              ['Signing algorithm', s.signing_alg ?? '—'],
              ['Token lifetime', s.token_lifetime === undefined ? '—' : `${s.token_lifetime} seconds`],
            ]}
          />
          <Scopes server={s} onChange={server.reload} />
          <Rbac key={`${s.enforce_policies}${s.token_dialect}`} server={s} />
        </>
      )}
    </DetailPage>
  );
}

function Scopes({ server, onChange }: { server: ResourceServer; onChange: () => void }) {
  const api = useApi();
  const [value, setValue] = useState('');
  const [description, setDescription] = useState('');
  const scopes = server.scopes ?? [];
  const save = (next: Scope[]) => api.patch(`/resource-servers/${seg(server.id)}`, { scopes: next });
  return (
    <ListSection
      title="Scopes"
      caption="Scopes"
      rows={scopes}
      columns={[
        { title: 'Scope', cell: (s) => <code>{s.value}</code> },
        { title: 'Description', cell: (s) => s.description ?? '' },
      ]}
      // The Management API's scopes are the system's: listed, never changed.
      action={
        server.is_system
          ? undefined
          : {
              label: (s) => `Remove ${s.value}`,
              run: async (s) => {
                await save(scopes.filter((o) => o.value !== s.value));
                onChange();
              },
            }
      }
    >
      {!server.is_system && (
        <Form
          title="Add a scope"
          level={3}
          submit="Add scope"
          onSubmit={async () => {
            await save([...scopes.filter((o) => o.value !== value), { value, description }]);
            setValue('');
            setDescription('');
            onChange();
            return 'Scope added.';
          }}
        >
          <Field label="Scope" value={value} onValue={setValue} required placeholder="read:reports" />
          <Field label="Scope description" value={description} onValue={setDescription} />
        </Form>
      )}
    </ListSection>
  );
}

function Rbac({ server }: { server: ResourceServer }) {
  const api = useApi();
  const [enforce, setEnforce] = useState(server.enforce_policies ?? false);
  const dialect = server.token_dialect ?? 'access_token';
  const [inToken, setInToken] = useState(dialect.endsWith('_authz'));
  return (
    <Form
      title="RBAC settings"
      submit="Save RBAC settings"
      onSubmit={async () => {
        const base = dialect.replace(/_authz$/, '');
        await api.patch(`/resource-servers/${seg(server.id)}`, { enforce_policies: enforce, token_dialect: inToken ? `${base}_authz` : base });
        return 'RBAC settings saved.';
      }}
    >
      <Checkbox label="Enable RBAC" checked={enforce} onChecked={setEnforce} hint="Only scopes a user's roles or permissions grant are issued." />
      <Checkbox label="Add permissions in the access token" checked={inToken} onChecked={setInToken} hint="The token carries a permissions claim." />
    </Form>
  );
}
