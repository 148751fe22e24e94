/**
 * Users (/api/v2/users): search with a Lucene `q`, create in a database
 * connection, and one user's page: block or unblock, a password-change
 * ticket, roles, sessions (list and revoke), and authentication methods
 * (passkeys, security keys, second factors: list and remove).
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { href, navigate } from '../router.js';
import { ActionButton, DetailPage, Details, Field, Form, ListPage, ListSection, LoadState, SearchBox, Select, useApi, useLoad } from '../ui.js';
import { AssignedRoles } from './assigned-roles.js';

interface User {
  user_id: string;
  email?: string;
  name?: string;
  username?: string;
  blocked?: boolean;
  email_verified?: boolean;
  identities?: { connection: string; provider: string }[];
  created_at?: string;
  last_login?: string;
  logins_count?: number;
}

interface Connection {
  id: string;
  name: string;
  strategy: string;
}

interface Session {
  id: string;
  created_at: string;
  updated_at: string;
  authenticated_at: string;
  device?: { last_ip?: string; last_user_agent?: string };
}

/** An entry of GET /users/{id}/authentication-methods. */
interface AuthenticationMethod {
  id: string;
  type: string;
  name?: string;
  email?: string;
  phone_number?: string;
  key_id?: string;
  confirmed?: boolean;
  created_at: string;
  last_auth_at?: string;
}

/** What an operator calls each type of authentication method. */
const METHOD_NAMES: Readonly<Record<string, string>> = {
  passkey: 'Passkey',
  'webauthn-roaming': 'Security key',
  'webauthn-platform': 'Device biometrics',
  totp: 'Authenticator app',
  email: 'Email',
  phone: 'Phone',
  push: 'Push notification',
  'recovery-code': 'Recovery code',
};

const PER_PAGE = 50;

export function Users({ route }: { route: string[] }) {
  return route[0] ? <UserDetail id={route[0]} /> : <UserList />;
}

function UserList() {
  const api = useApi();
  const [search, setSearch] = useState({ q: '', page: 0 });
  const users = useLoad(() => api.get<User[]>('/users', { q: search.q, search_engine: 'v3', per_page: PER_PAGE, page: search.page }), [search.q, search.page]);
  return (
    <ListPage
      title="Users"
      loaded={users}
      before={<SearchBox label="Search users" initial="" onSearch={(q) => setSearch({ q, page: 0 })} hint='Lucene syntax, e.g. email:"jane@example.com" or name:jane*' />}
      pager={{ page: search.page, perPage: PER_PAGE, onPage: (page) => setSearch({ ...search, page }) }}
      columns={[
        { title: 'Email', cell: (u) => <a href={href('users', u.user_id)}>{u.email ?? u.username ?? u.user_id}</a> },
        { title: 'Name', cell: (u) => u.name ?? '' },
        { title: 'Connection', cell: (u) => u.identities?.[0]?.connection ?? '' },
        { title: 'Status', cell: (u) => (u.blocked ? 'Blocked' : 'Active') },
      ]}
    >
      <CreateUser />
    </ListPage>
  );
}

function CreateUser() {
  const api = useApi();
  const connections = useLoad(() => api.get<Connection[]>('/connections', { strategy: 'auth0' }), []);
  const [connection, setConnection] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <LoadState loaded={connections}>
      {(list) => (
        <Form
          title="Create a user"
          submit="Create user"
          onSubmit={async () => {
            const created = await api.post<User>('/users', { connection: connection || list[0]?.name, email, password });
            navigate('users', created.user_id);
          }}
        >
          <Select label="Database connection" value={connection || (list[0]?.name ?? '')} onValue={setConnection} options={list.map((c) => c.name)} required />
          <Field label="Email" type="email" value={email} onValue={setEmail} required autoComplete="off" />
          <Field label="Password" type="password" value={password} onValue={setPassword} required autoComplete="new-password" />
        </Form>
      )}
    </LoadState>
  );
}

function UserDetail({ id }: { id: string }) {
  const api = useApi();
  const user = useLoad(() => api.get<User>(`/users/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={user} title={(u) => u.email ?? u.name} fallback="User" section="users" sectionTitle="users">
      {(u) => (
        <>
          <section class="card" aria-labelledby="user-profile">
            <h2 id="user-profile">Profile</h2>
            <Details
              items={[
                ['User ID', <code>{u.user_id}</code>],
                ['Email verified', u.email_verified ? 'Yes' : 'No'],
                ['Status', <strong data-testid="user-status">{u.blocked ? 'Blocked' : 'Active'}</strong>],
                ['Created', u.created_at ?? '—'],
                ['Last login', u.last_login ?? 'Never'],
                ['Logins', String(u.logins_count ?? 0)],
              ]}
            />
            <p class="actions">
              <ActionButton
                label={u.blocked ? 'Unblock user' : 'Block user'}
                danger={!u.blocked}
                action={async () => {
                  await api.patch(`/users/${seg(u.user_id)}`, { blocked: !u.blocked });
                  user.reload();
                }}
              />
            </p>
          </section>
          <PasswordReset user={u} />
          <AssignedRoles path={`/users/${seg(u.user_id)}/roles`} owner={u.email ?? u.user_id} />
          <Sessions userId={u.user_id} />
          <AuthenticationMethods userId={u.user_id} />
        </>
      )}
    </DetailPage>
  );
}

function PasswordReset({ user }: { user: User }) {
  const api = useApi();
  const [ticket, setTicket] = useState<string>();
  return (
    <Form
      title="Password reset"
      submit="Create password reset link"
      onSubmit={async () => {
        const made = await api.post<{ ticket: string }>('/tickets/password-change', { user_id: user.user_id });
        setTicket(made.ticket);
        return 'Password reset link created. Send it to the user; it works once.';
      }}
    >
      <p>A password-change ticket: a link the user opens to choose a new password.</p>
      {ticket && (
        <p>
          Link: <code class="wrap">{ticket}</code>
        </p>
      )}
    </Form>
  );
}

function Sessions({ userId }: { userId: string }) {
  const api = useApi();
  const sessions = useLoad(async () => (await api.get<{ sessions: Session[] }>(`/users/${seg(userId)}/sessions`)).sessions, [userId]);
  return (
    <ListSection
      title="Sessions"
      caption="Active sessions"
      empty="No active sessions."
      rows={sessions}
      columns={[
        { title: 'Signed in', cell: (s) => s.authenticated_at },
        { title: 'Last used', cell: (s) => s.updated_at },
        { title: 'Device', cell: (s) => [s.device?.last_ip, s.device?.last_user_agent].filter(Boolean).join(' · ') },
      ]}
      action={{ label: () => 'Revoke session', run: (s) => api.del(`/sessions/${seg(s.id)}`) }}
    >
      {(sessions.data?.length ?? 0) > 0 && (
        <ActionButton
          label="Revoke all sessions"
          danger
          confirm="Sign the user out everywhere?"
          action={async () => {
            await api.del(`/users/${seg(userId)}/sessions`);
            sessions.reload();
          }}
        />
      )}
    </ListSection>
  );
}

function AuthenticationMethods({ userId }: { userId: string }) {
  const api = useApi();
  const methods = useLoad(() => api.get<AuthenticationMethod[]>(`/users/${seg(userId)}/authentication-methods`), [userId]);
  return (
    <ListSection
      title="Authentication methods"
      caption="Passkeys, security keys and second factors"
      empty="No passkey, security key or second factor."
      rows={methods}
      columns={[
        { title: 'Type', cell: (m) => METHOD_NAMES[m.type] ?? m.type },
        { title: 'Name', cell: (m) => m.name ?? m.email ?? m.phone_number ?? (m.key_id ? <code class="wrap">{m.key_id}</code> : '—') },
        { title: 'Added', cell: (m) => m.created_at },
        { title: 'Last used', cell: (m) => m.last_auth_at ?? (m.confirmed === false ? 'Not confirmed' : 'Never') },
      ]}
      action={{ label: (m) => `Remove ${(METHOD_NAMES[m.type] ?? m.type).toLowerCase()}`, run: (m) => api.del(`/users/${seg(userId)}/authentication-methods/${seg(m.id)}`) }}
    />
  );
}
