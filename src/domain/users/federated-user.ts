/**
 * Users of federated connections: their id is the strategy's
 * (`samlp|{connection}|{id}`, `oidc|{connection}|{sub}`, `github|{id}`:
 * ../connections/strategies/), with no password, their profile taken from
 * what the IdP says (SAML: its attributes through the connection's
 * `fieldsMap`, over the default mapping of the WS-Federation claim URIs) and
 * refreshed at every login, as the service does for enterprise users.
 */
import { CLAIMS } from '../clients/samlp-addon.js';
import type { ConnectionRow } from '../connections/model.js';
import type { ConnectionStrategy } from '../connections/strategies/strategy.js';
import type { UserRow } from '../rows.js';
import type { UserStore } from './store.js';
import { defaultPicture } from './new-user.js';
import { userLoggingIn } from './linked.js';

/** Profile member → the attribute names it is read from, first with a value wins. */
const DEFAULT_FIELDS_MAP: Readonly<Record<string, readonly string[]>> = {
  email: [`${CLAIMS}/emailaddress`, 'email', 'mail'],
  name: [`${CLAIMS}/name`, 'name', 'displayName'],
  given_name: [`${CLAIMS}/givenname`, 'given_name', 'givenName'],
  family_name: [`${CLAIMS}/surname`, 'family_name', 'sn'],
  nickname: ['nickname'],
  picture: ['picture'],
  email_verified: ['email_verified'],
};

const PROFILE_MEMBERS = ['email', 'name', 'given_name', 'family_name', 'nickname', 'picture', 'email_verified'] as const;
export type FederatedProfile = Partial<Record<(typeof PROFILE_MEMBERS)[number], string>>;

export function federatedProfile(attributes: ReadonlyMap<string, readonly string[]>, fieldsMap: Readonly<Record<string, string | readonly string[]>>): FederatedProfile {
  const profile: FederatedProfile = {};
  for (const member of PROFILE_MEMBERS) {
    const names = fieldsMap[member] !== undefined ? [fieldsMap[member]].flat() : DEFAULT_FIELDS_MAP[member]!;
    for (const name of names) {
      const value = attributes.get(name)?.[0];
      if (value !== undefined && value !== '' && value.length <= 512) {
        profile[member] = value;
        break;
      }
    }
  }
  return profile;
}

/**
 * Creates the user on a first login, else refreshes the profile (per the
 * connection's `set_user_root_attributes`: `on_first_login` keeps it,
 * `never_on_login` creates nobody); records the login on neither (the
 * session start does). An identity linked to another
 * user has its profile refreshed and logs that user in (undefined if it is gone).
 */
export async function upsertFederatedUser(
  users: UserStore,
  strategy: ConnectionStrategy,
  connection: ConnectionRow,
  id: string,
  profile: FederatedProfile,
  now: string,
  sync: 'on_each_login' | 'on_first_login' | 'never_on_login' = 'on_each_login',
): Promise<UserRow | undefined> {
  const userId = strategy.userId(connection, id);
  const email = profile.email ?? null;
  const fields = {
    email,
    email_lower: email?.toLowerCase() ?? null,
    email_verified: profile.email_verified === 'true' ? 1 : 0,
    name: profile.name ?? email ?? id,
    given_name: profile.given_name ?? null,
    family_name: profile.family_name ?? null,
    nickname: profile.nickname ?? (email ? email.split('@')[0]! : id),
    picture: profile.picture ?? (email ? defaultPicture(email.toLowerCase()) : null),
  };
  const existing = await users.getIdentity(connection.tenant_id, userId);
  if (existing) {
    if (sync !== 'on_each_login') return userLoggingIn(users, existing);
    await users.update(connection.tenant_id, userId, { ...fields, updated_at: now });
    return userLoggingIn(users, { ...existing, ...fields, updated_at: now });
  }
  if (sync === 'never_on_login') return undefined;
  const row: UserRow = {
    tenant_id: connection.tenant_id,
    user_id: userId,
    connection_id: connection.id,
    ...fields,
    username: null,
    username_lower: null,
    phone_number: null,
    phone_verified: 0,
    password_hash: null,
    blocked: 0,
    app_metadata: {},
    user_metadata: {},
    created_at: now,
    updated_at: now,
    last_login: null,
    last_password_reset: null,
    logins_count: 0,
    linked_to: null,
  };
  await users.insert(row);
  return row;
}
