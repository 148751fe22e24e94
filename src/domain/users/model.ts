/**
 * Users of database (`auth0` strategy) connections, as stored and as the
 * Management API returns them (the service's `UserResponseSchema` /
 * `GetUserResponseContent`). The password hash lives only in the row: the API
 * shape has no member for it, and every response schema forbids undeclared members.
 */
import { randomBytes } from 'node:crypto';
import { connectionStrategy } from '../connections/strategies/index.js';
import type { UserRow } from '../rows.js';

export type { UserRow } from '../rows.js';

/** The profile of a linked identity (`UserProfileData`): what it had as a user of its own. */
export interface IdentityProfileData {
  email?: string;
  email_verified: boolean;
  name?: string;
  username?: string;
  given_name?: string;
  family_name?: string;
  nickname?: string;
  picture?: string;
  phone_number?: string;
  phone_verified?: boolean;
}

/** An identity of a user (`UserIdentitySchema`): its own first, then those linked to it. */
export interface UserIdentity {
  connection: string;
  /** The id without the provider prefix (`auth0|`, `email|`); GitHub's a number (its strategy's `identityUserId`). */
  user_id: string | number;
  /** `auth0` for database users, `email` for passwordless ones: the user id's prefix. */
  provider: string;
  /** Whether the provider is a social strategy (src/domain/connections/strategies/: `google-oauth2`, `github` …). */
  isSocial: boolean;
  /** Linked identities only: their profile. */
  profileData?: IdentityProfileData;
  /** The upstream identity provider's tokens: only to a Management API token with read:user_idp_tokens. */
  access_token?: string;
  refresh_token?: string;
}

export interface User {
  user_id: string;
  email?: string;
  email_verified: boolean;
  username?: string;
  phone_number?: string;
  /** Present with a phone number. */
  phone_verified?: boolean;
  created_at: string;
  updated_at: string;
  identities: UserIdentity[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  picture?: string;
  name?: string;
  nickname?: string;
  given_name?: string;
  family_name?: string;
  last_login?: string;
  last_password_reset?: string;
  logins_count: number;
  blocked: boolean;
}

export const AUTH0_PROVIDER = 'auth0';

/** `auth0|` + 24 lowercase hex characters (a 12-byte id, as the service's MongoDB-style ids). */
export function newUserIdPart(): string {
  return randomBytes(12).toString('hex');
}

export function fullUserId(idPart: string): string {
  return `${AUTH0_PROVIDER}|${idPart}`;
}

/** The part after the provider prefix, `auth0|` or `email|` (the identity's user_id). */
export function userIdPart(userId: string): string {
  return userId.slice(userId.indexOf('|') + 1);
}

/** The provider of a user id: its prefix (`auth0` for a database user). */
export function providerOf(userId: string): string {
  const bar = userId.indexOf('|');
  return bar > 0 ? userId.slice(0, bar) : AUTH0_PROVIDER;
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A row's identity: its connection, the user id split at the provider prefix. */
function identityOf(row: UserRow, connectionName: string): UserIdentity {
  const part = userIdPart(row.user_id);
  const strategy = connectionStrategy(providerOf(row.user_id));
  return { connection: connectionName, user_id: strategy?.identityUserId?.(part) ?? part, provider: providerOf(row.user_id), isSocial: strategy?.isSocial ?? false };
}

/** A linked row's identity, with its profile as `profileData`. */
export function linkedIdentityOf(row: UserRow & { connection_name: string }): UserIdentity {
  const profileData: IdentityProfileData = { email_verified: row.email_verified === 1 };
  for (const key of ['email', 'name', 'username', 'given_name', 'family_name', 'nickname', 'picture', 'phone_number'] as const) {
    const value = row[key];
    if (value !== null) profileData[key] = value;
  }
  if (row.phone_number !== null) profileData.phone_verified = row.phone_verified === 1;
  return { ...identityOf(row, row.connection_name), profileData };
}

/** A user's identities: its own, then each linked one (`linked`: the rows linked to it, in order). */
export function identitiesOf(row: UserRow, connectionName: string, linked: readonly (UserRow & { connection_name: string })[]): UserIdentity[] {
  return [identityOf(row, connectionName), ...linked.map(linkedIdentityOf)];
}

/**
 * The API shape of a row, with the identities linked to it (`linked`).
 * Absent attributes are left out rather than sent as null, as the service
 * does (`last_login` only after a first login).
 */
export function userFromRow(row: UserRow, connectionName: string, linked: readonly (UserRow & { connection_name: string })[] = []): User {
  const user: User = {
    user_id: row.user_id,
    email_verified: row.email_verified === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    identities: identitiesOf(row, connectionName, linked),
    app_metadata: objectOf(row.app_metadata),
    user_metadata: objectOf(row.user_metadata),
    logins_count: row.logins_count,
    blocked: row.blocked === 1,
  };
  const optional = ['email', 'username', 'phone_number', 'picture', 'name', 'nickname', 'given_name', 'family_name', 'last_login', 'last_password_reset'] as const;
  for (const key of optional) {
    const value = row[key];
    if (value !== null) user[key] = value;
  }
  if (row.phone_number !== null) user.phone_verified = row.phone_verified === 1;
  return user;
}
