/**
 * Applications (/api/v2/clients): the list with a search by name, create,
 * the settings of one, its credentials (client id, the secret behind a
 * reveal control), its token endpoint authentication method and secret
 * rotation.
 *
 * A new application is created as the service's dashboard creates it:
 * first-party (no consent page for the tenant's own users), with
 * `client_secret_post` for a regular web or machine-to-machine application
 * and `none` (a public client, PKCE) for a single-page or native one.
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
  is_first_party?: boolean;
}

const APP_TYPES: [string, string][] = [
  ['regular_web', 'Regular web application'],
  ['spa', 'Single-page application'],
  ['native', 'Native'],
  ['non_interactive', 'Machine to machine'],
];

/** How each application type authenticates at the token endpoint when created (as the service's dashboard does). */
const AUTH_METHOD_OF_TYPE: ReadonlyMap<string, string> = new Map([
  ['regular_web', 'client_secret_post'],
  ['non_interactive', 'client_secret_post'],
  ['spa', 'none'],
  ['native', 'none'],
]);

const AUTH_METHODS: [string, string][] = [
  ['none', 'None'],
  ['client_secret_post', 'Post'],
  ['client_secret_basic', 'Basic'],
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

const authMethodName = (method: string | undefined) => AUTH_METHODS.find(([m]) => m === method)?.[1] ?? method ?? '—';

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
        const created = await api.post<Client>('/clients', {
          name,
          app_type: appType,
          is_first_party: true,
          token_endpoint_auth_method: AUTH_METHOD_OF_TYPE.get(appType) ?? 'client_secret_post',
        });
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
          <AuthenticationMethod key={c.client_id} client={c} onSaved={client.reload} />
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
          ['Authentication method', <span data-testid="auth-method">{authMethodName(client.token_endpoint_auth_method)}</span>],
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

/** The token endpoint authentication method: None (a public client), Post or Basic (the secret in the body or the Authorization header). */
function AuthenticationMethod({ client, onSaved }: { client: Client; onSaved: () => void }) {
  const api = useApi();
  const current = client.token_endpoint_auth_method ?? 'none';
  const [method, setMethod] = useState(current);
  return (
    <Form
      title="Token endpoint authentication"
      submit="Save authentication method"
      onSubmit={async () => {
        await api.patch(`/clients/${seg(client.client_id)}`, { token_endpoint_auth_method: method });
        onSaved();
        return 'Authentication method saved.';
      }}
    >
      <Select
        label="Authentication method"
        value={method}
        onValue={setMethod}
        options={AUTH_METHODS.some(([m]) => m === current) ? AUTH_METHODS : [...AUTH_METHODS, current]}
      />
    </Form>
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
  const [firstParty, setFirstParty] = useState(client.is_first_party !== false);
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
          is_first_party: firstParty,
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
      <Checkbox
        label="First-party application"
        checked={firstParty}
        onChecked={setFirstParty}
        hint="The tenant's own application: its users are not asked for consent. A third-party application asks them."
      />
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
