/**
 * Business rules of users of database connections, behind the Management API
 * routes. Passwords are hashed here (argon2id, src/passwords/hashing.ts) and
 * never leave this module: the response shape has no member for the hash.
 */
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/database.js';
import { managementErrors } from '../../http/errors.js';
import { hashPassword } from '../../passwords/hashing.js';
import type { Tenant } from '../../tenants/tenant.js';
import { findConnectionByName } from '../../users/connections.js';
import { newDatabaseUserRow } from '../../users/new-user.js';
import { fullUserId, userFromRow, type User, type UserRow } from '../../users/model.js';
import { KyselyUserStore, type UserChanges, type UserStore, type UserWithConnection } from '../../users/store.js';
import { selectFields, type FieldSelection } from '../fields.js';
import type { CreateUserBody, UpdateUserBody } from './schema.js';

/** management-api-wire-notes §2. */
export const userNotFound = () => managementErrors.notFound('The user does not exist.', 'inexistent_user');
/**
 * The service's 409 (OpenAPI: "User already exists."); the errorCode is not
 * recorded in the wire notes, `user_exists` is the Authentication API's code for
 * the same condition.
 */
const userExists = () => managementErrors.conflict('The user already exists.', 'user_exists');
/**
 * A 400 on POST /users (OpenAPI x-description "Connection does not exist."),
 * worded and coded as the recorded 404 of the connections API ("The connection
 * does not exist" / inexistent_connection), with the period the user messages carry.
 */
const connectionNotFound = () => managementErrors.badRequest('The connection does not exist.', 'inexistent_connection');
const payloadMissing = (property: string) =>
  managementErrors.invalidBody(`Payload validation error: 'Missing required property: ${property}'.`);
/** Business refusals worded as the OpenAPI document's x-descriptions; their errorCode is not recorded. */
const refused = (message: string) => managementErrors.invalidBody(message);

const DATABASE_STRATEGY = 'auth0';

export interface UserListQuery {
  page: number;
  perPage: number;
  includeTotals: boolean;
}

export type UserList = User[] | { start: number; limit: number; length: number; users: User[]; total: number };

/**
 * Top-level merge as the service does for app_metadata/user_metadata on PATCH:
 * given keys replace, a null value deletes the key, and an empty object clears
 * the whole metadata. Nested objects are replaced, not merged.
 */
export function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(patch).length === 0) return {};
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** Metadata as stored: null members of a new user's metadata are not kept. */
function withoutNulls(value: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== null));
}

export class UserService {
  readonly users: UserStore;

  constructor(private readonly ctx: AppContext) {
    this.users = new KyselyUserStore(ctx.database.db);
  }

  async list(tenant: Tenant, query: UserListQuery): Promise<UserList> {
    const start = query.page * query.perPage;
    const { rows, total } = await this.users.list(tenant.id, { offset: start, limit: query.perPage, withTotal: query.includeTotals });
    const users = rows.map((row) => userFromRow(row, row.connection_name));
    // The service's key order: start, limit, length, users, total.
    return query.includeTotals ? { start, limit: query.perPage, length: users.length, users, total: total ?? 0 } : users;
  }

  /**
   * GET /users-by-email. The document says the match is case-sensitive, and
   * explains why that works there: the service stores the emails of its own
   * users lower-cased. Gatehouse keeps an email as it was given (its
   * lower-cased copy serves login and uniqueness), so an exact match would miss
   * `Jane@Example.com` when asked for `jane@example.com`, which the service
   * finds. Gatehouse therefore matches case-insensitively, on the lower-cased
   * copy: it finds what the service finds, and also a user whose email was
   * given with capitals when asked with them.
   */
  async listByEmail(tenant: Tenant, email: string, selection: FieldSelection): Promise<Partial<User>[]> {
    const rows = await this.users.listByEmail(tenant.id, email.toLowerCase());
    return rows.map((row) => selectFields(userFromRow(row, row.connection_name), selection));
  }

  async get(tenant: Tenant, userId: string): Promise<User> {
    const row = await this.users.get(tenant.id, userId);
    if (!row) throw userNotFound();
    return userFromRow(row, row.connection_name);
  }

  async create(tenant: Tenant, body: CreateUserBody): Promise<User> {
    const connection = await findConnectionByName(this.ctx.database.db, tenant.id, body.connection);
    if (!connection) throw connectionNotFound();
    if (connection.strategy !== DATABASE_STRATEGY) {
      throw refused('Connection does not support user creation through the API. It must either be a database or passwordless connection.');
    }
    const requiresUsername = connection.options.requires_username === true;
    if (body.email === undefined) throw payloadMissing('email');
    if (body.password === undefined) throw payloadMissing('password');
    if (requiresUsername && body.username === undefined) throw payloadMissing('username');
    if (!requiresUsername && body.username !== undefined) throw refused('Cannot set username for connection without requires_username.');

    const base = await newDatabaseUserRow({
      tenantId: tenant.id,
      connectionId: connection.id,
      email: body.email,
      password: body.password,
      username: body.username,
      given_name: body.given_name,
      family_name: body.family_name,
      name: body.name,
      nickname: body.nickname,
      picture: body.picture,
      now: new Date(this.ctx.now()).toISOString(),
    });
    // What the Management API may set beyond a signup.
    const row: UserRow = {
      ...base,
      // A custom id keeps the provider prefix; an empty one means "generate" as if absent.
      ...(body.user_id ? { user_id: fullUserId(body.user_id) } : {}),
      email_verified: body.email_verified === true ? 1 : 0,
      phone_number: body.phone_number ?? null,
      blocked: body.blocked === true ? 1 : 0,
      app_metadata: JSON.stringify(withoutNulls(body.app_metadata)),
      user_metadata: JSON.stringify(withoutNulls(body.user_metadata)),
    };
    try {
      await this.users.insert(row);
    } catch (error) {
      // Taken email, username or user_id alike: the service answers the same.
      if (isUniqueViolation(error)) throw userExists();
      throw error;
    }
    return userFromRow(row, connection.name);
  }

  /**
   * Partial update. Without `canUpdateProfile` (a token with only
   * `update:users_app_metadata`) just the two metadata objects may change.
   */
  async update(tenant: Tenant, userId: string, body: UpdateUserBody, canUpdateProfile: boolean): Promise<User> {
    if (!canUpdateProfile) {
      const others = Object.keys(body).filter((key) => key !== 'app_metadata' && key !== 'user_metadata');
      if (others.length > 0) throw managementErrors.insufficientScope(['update:users']);
    }
    // Combinations the service refuses, in its words (OpenAPI x-descriptions of PATCH /users/{id}).
    const has = (key: keyof UpdateUserBody) => body[key] !== undefined;
    if (has('password') && has('email')) throw refused('Cannot update password and email simultaneously.');
    if (has('password') && has('email_verified')) throw refused('Cannot update password and email_verified simultaneously.');
    if (has('username') && has('email')) throw refused('Cannot update username and email simultaneously.');
    if (has('username') && has('email_verified')) throw refused('Cannot update username and email_verified simultaneously.');
    if (has('username') && has('password')) throw refused('Cannot update username and password simultaneously.');

    const row = await this.users.get(tenant.id, userId);
    if (!row) throw userNotFound();
    const changes = await this.changesFor(tenant, row, body);
    changes.updated_at = new Date(this.ctx.now()).toISOString();
    let updated: boolean;
    try {
      updated = await this.users.update(tenant.id, userId, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw userExists();
      throw error;
    }
    if (!updated) throw userNotFound();
    return userFromRow({ ...row, ...changes }, row.connection_name);
  }

  private async changesFor(tenant: Tenant, row: UserWithConnection, body: UpdateUserBody): Promise<UserChanges> {
    const changes: UserChanges = {};
    if (body.blocked !== undefined) changes.blocked = body.blocked ? 1 : 0;
    if (body.email_verified !== undefined) changes.email_verified = body.email_verified ? 1 : 0;
    if (body.email !== undefined) {
      if (body.email === null) throw payloadMissing('email');
      changes.email = body.email;
      changes.email_lower = body.email.toLowerCase();
      // A new address is unverified unless the same request says otherwise (refused above with a password).
      if (body.email_verified === undefined && changes.email_lower !== row.email_lower) changes.email_verified = 0;
    }
    if (body.username !== undefined) {
      const connection = await this.connectionOf(tenant, row);
      if (connection.options.requires_username !== true) throw refused('Cannot set username for connection without requires_username.');
      if (body.username === null) throw payloadMissing('username');
      changes.username = body.username;
      changes.username_lower = body.username.toLowerCase();
    }
    if (body.password !== undefined) {
      if (body.password === null) throw payloadMissing('password');
      changes.password_hash = await hashPassword(body.password);
      changes.last_password_reset = new Date(this.ctx.now()).toISOString();
    }
    if (body.phone_number !== undefined) changes.phone_number = body.phone_number;
    for (const key of ['given_name', 'family_name', 'name', 'nickname', 'picture'] as const) {
      if (body[key] !== undefined) changes[key] = body[key];
    }
    if (body.app_metadata !== undefined) {
      changes.app_metadata = JSON.stringify(mergeMetadata(JSON.parse(row.app_metadata) as Record<string, unknown>, body.app_metadata));
    }
    if (body.user_metadata !== undefined) {
      changes.user_metadata = JSON.stringify(mergeMetadata(JSON.parse(row.user_metadata) as Record<string, unknown>, body.user_metadata));
    }
    return changes;
  }

  private async connectionOf(tenant: Tenant, row: UserWithConnection) {
    const connection = await findConnectionByName(this.ctx.database.db, tenant.id, row.connection_name);
    if (!connection) throw connectionNotFound();
    return connection;
  }

  /**
   * Idempotent: the document declares no 404 for DELETE /users/{id}, only 204.
   * The user's roles, permissions and group memberships go with the user.
   */
  async delete(tenant: Tenant, userId: string): Promise<void> {
    await this.users.delete(tenant.id, userId);
  }
}

