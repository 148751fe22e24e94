/**
 * Row factories for the storage suites: every NOT NULL column filled, random
 * where uniqueness matters, overridable per case.
 */
import { newConnectionId } from '../../src/domain/connections/model.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import type { ConnectionRow, GroupRow, ResourceServerRow, RoleRow, TenantRow, UserRow } from '../../src/domain/rows.js';
import { newGroupId } from '../../src/domain/groups/model.js';
import { newRoleId } from '../../src/domain/roles/model.js';
import { fullUserId, newUserIdPart } from '../../src/domain/users/model.js';

export const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const T0 = '2024-01-01T00:00:00.000Z';

/** An ISO timestamp `seconds` after T0; lexical order is time order. */
export function at(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString();
}

/** Code-point order, which is byte-wise order for ASCII: how ids sort on both databases. */
export const byCodepoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function tenantRow(overrides: Partial<TenantRow> = {}): TenantRow {
  const name = `t-${randomString(12, LOWER)}`;
  return { id: newPrefixedId('ten'), name, domain: `${name}.example.test`, settings: { admin_client_id: 'none' }, created_at: T0, ...overrides };
}

export function roleRow(tenantId: string, overrides: Partial<RoleRow> = {}): RoleRow {
  return { tenant_id: tenantId, id: newRoleId(), name: `role-${randomString(8)}`, description: 'A role', created_at: T0, ...overrides };
}

export function groupRow(tenantId: string, overrides: Partial<GroupRow> = {}): GroupRow {
  return {
    tenant_id: tenantId,
    id: newGroupId(),
    name: `group-${randomString(8)}`,
    description: null,
    external_id: null,
    connection_id: null,
    organization_id: null,
    created_at: T0,
    updated_at: T0,
    ...overrides,
  };
}

export function resourceServerRow(tenantId: string, overrides: Partial<ResourceServerRow> = {}): ResourceServerRow {
  const id = randomString(24, '0123456789abcdef');
  return {
    tenant_id: tenantId,
    id,
    identifier: `https://api.example.test/${id}`,
    name: 'API',
    is_system: 0,
    scopes: [],
    signing_alg: 'RS256',
    signing_secret_enc: null,
    token_lifetime: 86_400,
    token_lifetime_for_web: 7_200,
    allow_offline_access: 0,
    skip_consent_for_verifiable_first_party_clients: 0,
    enforce_policies: 0,
    token_dialect: 'access_token',
    options: {},
    created_at: T0,
    updated_at: T0,
    ...overrides,
  };
}

export function connectionRow(tenantId: string, overrides: Partial<ConnectionRow> = {}): ConnectionRow {
  const name = `db-${randomString(8, LOWER)}`;
  return {
    tenant_id: tenantId,
    id: newConnectionId(),
    name,
    display_name: null,
    strategy: 'auth0',
    options: {},
    is_domain_connection: 0,
    realms: [name],
    metadata: {},
    show_as_button: null,
    created_at: T0,
    updated_at: T0,
    ...overrides,
  };
}

export function userRow(tenantId: string, connectionId: string, overrides: Partial<UserRow> = {}): UserRow {
  const email = `${randomString(8).toLowerCase()}@example.com`;
  return {
    tenant_id: tenantId,
    user_id: fullUserId(newUserIdPart()),
    connection_id: connectionId,
    email,
    email_lower: email,
    email_verified: 0,
    username: null,
    username_lower: null,
    phone_number: null,
    phone_verified: 0,
    password_hash: null,
    blocked: 0,
    name: null,
    given_name: null,
    family_name: null,
    nickname: null,
    picture: null,
    app_metadata: {},
    user_metadata: {},
    created_at: T0,
    updated_at: T0,
    last_login: null,
    last_password_reset: null,
    logins_count: 0,
    linked_to: null,
    ...overrides,
  };
}
