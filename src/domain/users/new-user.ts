/**
 * The row of a new database-connection user, with the defaults the Management
 * API's POST /users applies (name = email, nickname = the email's local part,
 * a gravatar picture): POST /api/v2/users and public signup both start here.
 */
import { createHash } from 'node:crypto';
import { hashPassword } from '../../platform/passwords/hashing.js';
import { fullUserId, newUserIdPart, type UserRow } from './model.js';

export interface NewUser {
  tenantId: string;
  connectionId: string;
  email: string;
  /** Absent: a user without a password (who signs up with a passkey). */
  password: string | undefined;
  username?: string | undefined;
  given_name?: string | undefined;
  family_name?: string | undefined;
  name?: string | undefined;
  nickname?: string | undefined;
  picture?: string | undefined;
  user_metadata?: Record<string, unknown> | undefined;
  /** ISO creation time. */
  now: string;
}

/** The service's default picture: gravatar of the email's MD5 (gravatar's own key), else an initials avatar. Only a URL. */
export function defaultPicture(emailLower: string): string {
  const md5 = createHash('md5').update(emailLower).digest('hex');
  const initials = encodeURIComponent(`https://cdn.auth0.com/avatars/${emailLower.slice(0, 2)}.png`);
  return `https://s.gravatar.com/avatar/${md5}?s=480&r=pg&d=${initials}`;
}

/**
 * A new, unverified, unblocked user of a connection with no password and the
 * service's defaults (name = email, nickname = the email's local part, a
 * gravatar picture) and a fresh `auth0|<24 hex>` id: what each way of making a
 * user starts from.
 */
export function baseUserRow(tenantId: string, connectionId: string, email: string, now: string): UserRow {
  const emailLower = email.toLowerCase();
  return {
    tenant_id: tenantId,
    user_id: fullUserId(newUserIdPart()),
    connection_id: connectionId,
    email,
    email_lower: emailLower,
    email_verified: 0,
    username: null,
    username_lower: null,
    phone_number: null,
    phone_verified: 0,
    password_hash: null,
    blocked: 0,
    name: email,
    given_name: null,
    family_name: null,
    nickname: email.slice(0, email.lastIndexOf('@')),
    picture: defaultPicture(emailLower),
    app_metadata: {},
    user_metadata: {},
    created_at: now,
    updated_at: now,
    last_login: null,
    last_password_reset: null,
    logins_count: 0,
    linked_to: null,
  };
}

/** A new, unverified, unblocked user with an argon2id password hash and a fresh `auth0|<24 hex>` id. */
export async function newDatabaseUserRow(input: NewUser): Promise<UserRow> {
  const base = baseUserRow(input.tenantId, input.connectionId, input.email, input.now);
  return {
    ...base,
    username: input.username ?? null,
    username_lower: input.username?.toLowerCase() ?? null,
    password_hash: input.password === undefined ? null : await hashPassword(input.password),
    name: input.name ?? base.name,
    given_name: input.given_name ?? null,
    family_name: input.family_name ?? null,
    nickname: input.nickname ?? base.nickname,
    picture: input.picture ?? base.picture,
    user_metadata: input.user_metadata ?? {},
  };
}
