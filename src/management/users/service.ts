/**
 * Business rules of users of database connections, behind the Management API
 * routes. Passwords are hashed here (argon2id, src/platform/passwords/hashing.ts) and
 * never leave this module: the response shape has no member for the hash.
 */
import { recordEvent } from '../../domain/event-streams/events.js';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import { runPostChangePassword } from '../../domain/actions-runtime/password-changed.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import { CustomDatabaseError, scriptDelete, scriptEmailChange, scriptPasswordChange } from '../../domain/users/custom-database.js';
import { hashPassword } from '../../platform/passwords/hashing.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { findConnectionByName } from '../../domain/users/connections.js';
import { newDatabaseUserRow } from '../../domain/users/new-user.js';
import { changePassword } from '../../domain/users/password-change.js';
import { UserMail, type UserMailContext } from '../../domain/tickets/user-mail.js';
import { fullUserId, userFromRow, type User, type UserRow } from '../../domain/users/model.js';
import { selectFields, type FieldSelection } from '../fields.js';
import type { CreateUserBody, UpdateUserBody } from './schema.js';
import { type UserChanges, type UserStore, type UserWithConnection } from '../../domain/users/store.js';
import { UserSearchTimeout, type SearchNode, type UserSearch } from '../../domain/users/search.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import { endUserSessions, type UserSessionsEnding } from '../../domain/backchannel-logout/announce.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { UnitOfWork } from '../../domain/stores.js';

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
export const payloadMissing = (property: string) =>
  managementErrors.invalidBody(`Payload validation error: 'Missing required property: ${property}'.`);
/** Business refusals worded as the OpenAPI document's x-descriptions; their errorCode is not recorded. */
const refused = (message: string) => managementErrors.invalidBody(message);

const DATABASE_STRATEGY = 'auth0';

/** The largest app_metadata or user_metadata kept for a user: the body limit, so a merge never grows one past what a single request could set. */
export const MAX_STORED_METADATA_BYTES = 1_048_576;

export interface UserListQuery {
  page: number;
  perPage: number;
  includeTotals: boolean;
  filter?: SearchNode;
  sort?: UserSearch['sort'];
  selection?: FieldSelection;
}

/**
 * What a caller may change with PATCH /users/{id}: everything (`update:users`),
 * the two metadata objects (`update:users_app_metadata`), or, for an end
 * user's own token, its user_metadata: adding members needs
 * `create:current_user_metadata`, changing them `update:…`, removing them
 * `delete:…` (`update:…` covers all three).
 */
export type UserUpdateAccess =
  | { kind: 'all' }
  | { kind: 'metadata' }
  | { kind: 'current_user'; create: boolean; update: boolean; delete: boolean };

export type UserList = Partial<User>[] | { start: number; limit: number; length: number; users: Partial<User>[]; total: number };

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

/**
 * 403 unless an end user's metadata scopes cover the patch: new members need
 * create (or update), changed ones update, removed ones (null, or an empty
 * object clearing everything) delete (or update).
 */
function requireMetadataScopes(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
  access: { create: boolean; update: boolean; delete: boolean },
): void {
  if (access.update) return;
  const entries = Object.entries(patch);
  const removes = entries.length === 0 ? Object.keys(current).length > 0 : entries.some(([, v]) => v === null);
  if (removes && !access.delete) throw managementErrors.insufficientScope(['update:current_user_metadata', 'delete:current_user_metadata']);
  const changes = entries.some(([k, v]) => v !== null && Object.hasOwn(current, k));
  if (changes) throw managementErrors.insufficientScope(['update:current_user_metadata']);
  const adds = entries.some(([k, v]) => v !== null && !Object.hasOwn(current, k));
  if (adds && !access.create) throw managementErrors.insufficientScope(['update:current_user_metadata', 'create:current_user_metadata']);
}

/** Metadata as stored: null members of a new user's metadata are not kept. */
function withoutNulls(value: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== null));
}

/** What UserService touches. */
export interface UserServiceContext extends UserMailContext, UserSessionsEnding {
  /** post-change-password runs after a password set here. */
  readonly actions: ActionsRuntime;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly unitOfWork: UnitOfWork;
  readonly stores: UserMailContext['stores'] & UserSessionsEnding['stores'] & { readonly clients: ClientStore; readonly connections: ConnectionStore; readonly users: UserStore };
  /** Custom database scripts (`delete`), in the tenant's sandbox processes. */
  readonly box: SecretBox;
  readonly scripts: ConnectionScripts;
}

export class UserService {
  readonly users: UserStore;
  private readonly mail: UserMail;

  constructor(private readonly ctx: UserServiceContext) {
    this.users = ctx.stores.users;
    this.mail = new UserMail(ctx);
  }

  async list(tenant: Tenant, query: UserListQuery): Promise<UserList> {
    const start = query.page * query.perPage;
    const { rows, total } = await this.users
      .search(tenant.id, { filter: query.filter, sort: query.sort, offset: start, limit: query.perPage, withTotal: query.includeTotals })
      .catch((err: unknown) => {
        // As on the service, a search that runs past its time limit is a 503 (src/storage/kysely/users.ts bounds it).
        if (err instanceof UserSearchTimeout) {
          throw new ManagementError(503, `The search did not complete within ${err.limitMs / 1000} seconds: narrow the query with an exact or prefix term on email, name, nickname, given_name, family_name, username or user_id, or a range of created_at`);
        }
        throw err;
      });
    const users = (await this.usersFromRows(tenant, rows)).map((user) => selectFields(user, query.selection));
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
    return (await this.usersFromRows(tenant, rows)).map((user) => selectFields(user, selection));
  }

  async get(tenant: Tenant, userId: string): Promise<User> {
    const row = await this.users.get(tenant.id, userId);
    if (!row) throw userNotFound();
    return (await this.usersFromRows(tenant, [row]))[0]!;
  }

  /** The API shapes of the rows, each with the identities linked to it (one query for them all). */
  private async usersFromRows(tenant: Tenant, rows: readonly UserWithConnection[]): Promise<User[]> {
    const linked = new Map<string, UserWithConnection[]>();
    for (const identity of await this.users.linkedIdentities(tenant.id, rows.map((row) => row.user_id))) {
      const of = linked.get(identity.linked_to!);
      if (of) of.push(identity);
      else linked.set(identity.linked_to!, [identity]);
    }
    return rows.map((row) => userFromRow(row, row.connection_name, linked.get(row.user_id) ?? []));
  }

  async create(tenant: Tenant, body: CreateUserBody): Promise<User> {
    const connection = await findConnectionByName(this.ctx.stores.connections, tenant.id, body.connection);
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
      now: isoAt(this.ctx.now()),
    });
    // What the Management API may set beyond a signup.
    const row: UserRow = {
      ...base,
      // A custom id keeps the provider prefix; an empty one means "generate" as if absent.
      ...(body.user_id ? { user_id: fullUserId(body.user_id) } : {}),
      email_verified: body.email_verified === true ? 1 : 0,
      phone_number: body.phone_number ?? null,
      blocked: body.blocked === true ? 1 : 0,
      app_metadata: withoutNulls(body.app_metadata),
      user_metadata: withoutNulls(body.user_metadata),
    };
    const user = userFromRow(row, connection.name);
    try {
      // The user and its `user.created` event commit together (src/domain/event-streams/events.ts).
      await this.ctx.unitOfWork.transaction(async (stores) => {
        await stores.users.insert(row);
        await recordEvent(stores, tenant, 'user.created', { ...user }, this.ctx.now());
      });
    } catch (error) {
      // Taken email, username or user_id alike: the service answers the same.
      if (isUniqueViolation(error)) throw userExists();
      throw error;
    }
    // "User will receive a verification email after creation if email_verified is false or not
    // specified"; verify_email overrides that either way.
    if (body.verify_email ?? row.email_verified === 0) await this.mail.sendVerification(tenant, row);
    return user;
  }

  /** Partial update, limited to what `access` allows (see UserUpdateAccess). */
  async update(tenant: Tenant, userId: string, body: UpdateUserBody, access: UserUpdateAccess): Promise<User> {
    if (access.kind !== 'all') {
      const allowed = access.kind === 'metadata' ? ['app_metadata', 'user_metadata'] : ['user_metadata'];
      if (Object.keys(body).some((key) => !allowed.includes(key))) throw managementErrors.insufficientScope(['update:users']);
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
    await this.checkTargets(tenant, row, body);
    if (access.kind === 'current_user' && body.user_metadata !== undefined) {
      requireMetadataScopes(row.user_metadata, body.user_metadata, access);
    }
    const changes = await this.changesFor(tenant, row, body);
    await this.legacyChanges(tenant, row, body);
    const now = isoAt(this.ctx.now());
    changes.updated_at = now;
    const user = { ...row, ...changes };
    const shown = (await this.usersFromRows(tenant, [user]))[0]!;
    let updated: boolean;
    try {
      // The change and its `user.updated` event commit together; a new password ends the user's sessions
      // and refresh tokens with it (src/domain/users/password-change.ts), in the same transaction.
      const { password_hash } = changes;
      updated = await this.ctx.unitOfWork.transaction(async (stores, joined) => {
        const done =
          password_hash === undefined || password_hash === null
            ? await stores.users.update(tenant.id, userId, changes)
            : await changePassword(joined, tenant.id, userId, { ...changes, password_hash }, now, this.ctx.lookups);
        if (done) await recordEvent(stores, tenant, 'user.updated', { ...shown }, this.ctx.now());
        return done;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw userExists();
      throw error;
    }
    if (!updated) throw userNotFound();
    if (changes.password_hash !== undefined) runPostChangePassword(this.ctx.actions, { tenantId: tenant.id, user, connection: { id: row.connection_id, name: row.connection_name } });
    // "If set to false the user will not receive a verification email unless verify_email is set to true."
    if (body.verify_email === true && changes.email !== undefined) await this.mail.sendVerification(tenant, user);
    return shown;
  }

  /**
   * The members of an update that name other things: `connection` must be
   * the user's own (the service's way of saying which identity to change;
   * a database user has one), `client_id` an existing client (the context of
   * the verification mail of a new email), and `verify_phone_number` applies
   * to SMS connections only, which database users never belong to. The
   * service's exact messages for these refusals are not recorded.
   */
  private async checkTargets(tenant: Tenant, row: UserWithConnection, body: UpdateUserBody): Promise<void> {
    if (body.connection !== undefined && body.connection !== row.connection_name) {
      if (!(await findConnectionByName(this.ctx.stores.connections, tenant.id, body.connection))) throw connectionNotFound();
      throw refused(`The user does not belong to the connection ${body.connection}.`);
    }
    if (body.client_id !== undefined && !(await this.ctx.stores.clients.get(tenant.id, body.client_id))) {
      throw managementErrors.badRequest('The client does not exist', 'inexistent_client');
    }
    if (body.verify_phone_number === true) throw refused('verify_phone_number is only valid for users of SMS connections.');
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
      changes.last_password_reset = isoAt(this.ctx.now());
    }
    if (body.phone_number !== undefined) changes.phone_number = body.phone_number;
    if (body.phone_verified !== undefined) changes.phone_verified = body.phone_verified ? 1 : 0;
    for (const key of ['given_name', 'family_name', 'name', 'nickname', 'picture'] as const) {
      if (body[key] !== undefined) changes[key] = body[key];
    }
    for (const key of ['app_metadata', 'user_metadata'] as const) {
      const patch = body[key];
      if (patch === undefined) continue;
      const merged = mergeMetadata(row[key], patch);
      // Merging keeps members across requests, so the stored object is bounded, not only each body.
      const size = Buffer.byteLength(JSON.stringify(merged));
      if (size > MAX_STORED_METADATA_BYTES) {
        throw refused(`Payload validation error: 'Object is too large (${size} bytes once merged), maximum ${MAX_STORED_METADATA_BYTES}' on property ${key}.`);
      }
      changes[key] = merged;
    }
    return changes;
  }

  private async connectionOf(tenant: Tenant, row: UserWithConnection) {
    const connection = await findConnectionByName(this.ctx.stores.connections, tenant.id, row.connection_name);
    if (!connection) throw connectionNotFound();
    return connection;
  }

  /**
   * Idempotent: the document declares no 404 for DELETE /users/{id}, only 204.
   * The user's roles, permissions and group memberships go with the user.
   */
  /** The user's sessions are announced ended (`account-deleted`) to back-channel logout, then the user goes, and the sessions with them. */
  /** A custom database's user (without import_mode): a new password or email is made in the legacy store first, by its scripts. */
  private async legacyChanges(tenant: Tenant, row: UserRow, body: UpdateUserBody): Promise<void> {
    if (body.password === undefined && body.email === undefined) return;
    const connection = await this.ctx.stores.connections.get(tenant.id, row.connection_id);
    if (!connection) return;
    try {
      if (typeof body.password === 'string') await scriptPasswordChange(this.ctx, tenant.id, connection, row.email ?? '', body.password);
      if (typeof body.email === 'string') await scriptEmailChange(this.ctx, tenant.id, connection, row.email ?? '', body.email, body.email_verified === true);
    } catch (error) {
      if (error instanceof CustomDatabaseError) throw managementErrors.badRequest(error.message);
      throw error;
    }
  }

  async delete(tenant: Tenant, userId: string): Promise<void> {
    // A custom database's user (without import_mode) is the legacy store's: deleted there first.
    const identity = await this.users.getIdentity(tenant.id, userId);
    const connection = identity && (await this.ctx.stores.connections.get(tenant.id, identity.connection_id));
    if (connection) {
      try {
        await scriptDelete(this.ctx, tenant.id, connection, userId);
      } catch (error) {
        if (error instanceof CustomDatabaseError) throw managementErrors.badRequest(error.message);
        throw error;
      }
    }
    await endUserSessions(this.ctx, tenant.id, userId, 'account-deleted', { revoke: false });
    const row = await this.users.get(tenant.id, userId);
    // The deletion and its `user.deleted` event (the user as last seen) commit together.
    await this.ctx.unitOfWork.transaction(async (stores) => {
      if ((await stores.users.delete(tenant.id, userId)) && row) await recordEvent(stores, tenant, 'user.deleted', { ...userFromRow(row, row.connection_name) }, this.ctx.now());
    });
  }

  /**
   * DELETE /connections/{id}/users?email=: the user of a database connection with that email
   * (compared case-insensitively, as logins do), deleted as DELETE /users/{id} deletes; nothing
   * to delete is not an error (the service's 204 says the user no longer exists).
   */
  async deleteByEmail(tenant: Tenant, connectionId: string, email: string): Promise<void> {
    const connection = await this.ctx.stores.connections.get(tenant.id, connectionId);
    if (!connection) throw managementErrors.notFound('The connection does not exist', 'inexistent_connection');
    if (connection.strategy !== 'auth0') throw managementErrors.badRequest('Connection must be a database connection');
    const user = await this.users.findByEmail(tenant.id, connection.id, email.toLowerCase());
    if (user) await this.delete(tenant, user.user_id);
  }
}

