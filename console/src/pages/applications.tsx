/**
 * Applications (/api/v2/clients): the list with a search by name, create,
 * the settings of one, its credentials (client id, the secret behind a
 * reveal control) and secret rotation.
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { href, navigate } from '../router.js';
import { ActionButton, Checkbox, DetailPage, Details, Field, Form, ListField, ListPage, SearchBox, Select, toggled, useApi, useLoad } from '../ui.js';

interface Client {
  client_id: string;
  name: string;
  description?: string;
  app_type?: string;
  callbacks?: string[];
  allowed_logout_urls?: string[];
  web_origins?: string[];
  grant_types?: string[];
  client_secret?: string;
  token_endpoint_auth_method?: string;
}

const APP_TYPES: [string, string][] = [
  ['regular_web', 'Regular web application'],
  ['spa', 'Single-page application'],
  ['native', 'Native'],
  ['non_interactive', 'Machine to machine'],
];

const GRANT_TYPES = [
  'authorization_code',
  'implicit',
  'refresh_token',
  'client_credentials',
  'password',
  'http://auth0.com/oauth/grant-type/password-realm',
  'urn:ietf:params:oauth:grant-type:device_code',
  'http://auth0.com/oauth/grant-type/passwordless/otp',
  'http://auth0.com/oauth/grant-type/mfa-otp',
  'http://auth0.com/oauth/grant-type/mfa-oob',
  'http://auth0.com/oauth/grant-type/mfa-recovery-code',
  'urn:openid:params:grant-type:ciba',
  'urn:ietf:params:oauth:grant-type:token-exchange',
];

const appTypeName = (type: string | undefined) => APP_TYPES.find(([t]) => t === type)?.[1] ?? type ?? '—';

export function Applications({ route }: { route: string[] }) {
  return route[0] ? <Application id={route[0]} /> : <ApplicationList />;
}

function ApplicationList() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const clients = useLoad(() => api.get<Client[]>('/clients', { per_page: 100, fields: 'client_id,name,app_type,description', include_fields: true }), []);
  const matching = { ...clients, data: clients.data?.filter((c) => c.name.toLowerCase().includes(search.toLowerCase())) };
  return (
    <ListPage
      title="Applications"
      loaded={matching}
      before={<SearchBox label="Search applications by name" initial="" onSearch={setSearch} />}
      columns={[
        { title: 'Name', cell: (c) => <a href={href('applications', c.client_id)}>{c.name}</a> },
        { title: 'Type', cell: (c) => appTypeName(c.app_type) },
        { title: 'Client ID', cell: (c) => <code>{c.client_id}</code> },
      ]}
    >
      <CreateApplication />
    </ListPage>
  );
}

function CreateApplication() {
  const api = useApi();
  const [name, setName] = useState('');
  const [appType, setAppType] = useState('regular_web');
  return (
    <Form
      title="Create an application"
      submit="Create application"
      onSubmit={async () => {
        const created = await api.post<Client>('/clients', { name, app_type: appType });
        navigate('applications', created.client_id);
      }}
    >
      <Field label="Name" value={name} onValue={setName} required maxLength={255} />
      <Select label="Application type" value={appType} onValue={setAppType} options={APP_TYPES} />
    </Form>
  );
}

function Application({ id }: { id: string }) {
  const api = useApi();
  const client = useLoad(() => api.get<Client>(`/clients/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={client} title={(c) => c.name} fallback="Application" section="applications" sectionTitle="applications">
      {(c) => (
        <>
          <Credentials client={c} onRotated={client.reload} />
          <Settings key={c.client_id} client={c} />
        </>
      )}
    </DetailPage>
  );
}

function Credentials({ client, onRotated }: { client: Client; onRotated: () => void }) {
  const api = useApi();
  const [revealed, setRevealed] = useState(false);
  const secret = client.client_secret;
  return (
    <section class="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Credentials</h2>
      <Details
        items={[
          ['Client ID', <code data-testid="client-id">{client.client_id}</code>],
          [
            'Client secret',
            secret === undefined ? (
              'None (a public application) or not readable with your role.'
            ) : (
              <>
                <code data-testid="client-secret">{revealed ? secret : '•'.repeat(24)}</code>{' '}
                <button type="button" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
                  {revealed ? 'Hide secret' : 'Reveal secret'}
                </button>
              </>
            ),
          ],
          ['Authentication method', client.token_endpoint_auth_method ?? '—'],
        ]}
      />
      <ActionButton
        label="Rotate secret"
        danger
        confirm="The current secret stops working at once. Rotate it?"
        action={async () => {
          await api.post(`/clients/${seg(client.client_id)}/rotate-secret`);
          onRotated();
        }}
      />
    </section>
  );
}

function Settings({ client }: { client: Client }) {
  const api = useApi();
  const [name, setName] = useState(client.name);
  const [description, setDescription] = useState(client.description ?? '');
  const [appType, setAppType] = useState(client.app_type ?? 'regular_web');
  const [callbacks, setCallbacks] = useState(client.callbacks ?? []);
  const [logoutUrls, setLogoutUrls] = useState(client.allowed_logout_urls ?? []);
  const [webOrigins, setWebOrigins] = useState(client.web_origins ?? []);
  const [grants, setGrants] = useState(new Set(client.grant_types ?? []));
  const known = [...GRANT_TYPES, ...(client.grant_types ?? []).filter((g) => !GRANT_TYPES.includes(g))];
  return (
    <Form
      title="Settings"
      submit="Save settings"
      onSubmit={async () => {
        await api.patch(`/clients/${seg(client.client_id)}`, {
          name,
          description,
          app_type: appType,
          callbacks,
          allowed_logout_urls: logoutUrls,
          web_origins: webOrigins,
          grant_types: known.filter((g) => grants.has(g)),
        });
        return 'Settings saved.';
      }}
    >
      <Field label="Name" value={name} onValue={setName} required maxLength={255} />
      <Field label="Description" value={description} onValue={setDescription} maxLength={140} />
      <Select label="Application type" value={appType} onValue={setAppType} options={APP_TYPES.some(([t]) => t === appType) ? APP_TYPES : [...APP_TYPES, appType]} />
      <ListField label="Allowed callback URLs" values={callbacks} onValues={setCallbacks} />
      <ListField label="Allowed logout URLs" values={logoutUrls} onValues={setLogoutUrls} />
      <ListField label="Allowed web origins" values={webOrigins} onValues={setWebOrigins} />
      <fieldset>
        <legend>Grant types</legend>
        {known.map((grant) => (
          <Checkbox
            key={grant}
            label={grant}
            checked={grants.has(grant)}
            onChecked={(on) => setGrants(toggled(grants, grant, on))}
          />
        ))}
      </fieldset>
    </Form>
  );
}
