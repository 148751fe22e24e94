/**
 * Storage of database-connection users.
 * Implemented by src/storage/kysely/users.ts; the composition root builds one.
 */
import type { UserRow } from './model.js';
import type { OffsetWindow, Page } from '../paging.js';
import type { UserSearch } from './search.js';

/** A row with the name of its connection, which every API shape of a user carries. */
export type UserWithConnection = UserRow & { connection_name: string };

/** The columns an update may change (identity, tenant, creation time and the link never change; `link`/`unlink` change the link). */
export type UserChanges = Partial<Omit<UserRow, 'tenant_id' | 'user_id' | 'connection_id' | 'created_at' | 'linked_to'>>;

/**
 * Storage of users and their identities. A user linked to another
 * (`linked_to` set, see `link`) is no user of its own any more: `get`, `list`,
 * `search` and `listByEmail` never return it. The login lookups of a
 * connection (`findByEmail`, `findSmsUser`, `findByLoginIdentifier`) and
 * `getIdentity` still find it, with `linked_to` naming the user it answers for.
 */
export interface UserStore {
  /** The user with its connection's name, or undefined (also for a row linked to another user). */
  get(tenantId: string, userId: string): Promise<UserWithConnection | undefined>;
  /** The row of this user id whether it is a user or an identity linked to one, with its connection's name. */
  getIdentity(tenantId: string, userId: string): Promise<UserWithConnection | undefined>;
  /**
   * The rows linked to these users (`users_linked_idx`), with their
   * connection's name, in creation order, then user_id.
   */
  linkedIdentities(tenantId: string, primaryIds: readonly string[]): Promise<UserWithConnection[]>;
  /**
   * Makes the user `secondaryId` an identity of `primaryId`, atomically (joining
   * the caller's transaction): the row gets `linked_to`, loses its metadata
   * (the service keeps the primary's only) and its roles, permissions, group
   * and organization memberships go. False, with nothing written, unless both
   * are users (neither linked), distinct, and the secondary has no identities
   * linked to it.
   */
  link(tenantId: string, secondaryId: string, primaryId: string, now: string): Promise<boolean>;
  /**
   * Makes the identity `secondaryId` linked to `primaryId` a user of its own
   * again, with its profile and credentials and no metadata (the service's
   * unlinked account has none). False, with nothing written, when it is not
   * linked to that user.
   */
  unlink(tenantId: string, secondaryId: string, primaryId: string, now: string): Promise<boolean>;
  /**
   * A page ordered by creation time, then user_id (the `users_created_idx` index),
   * so pages are stable; `withTotal` also counts the tenant's users.
   */
  list(tenantId: string, query: OffsetWindow): Promise<Page<UserWithConnection>>;
  /**
   * The users matching `search.filter` (all without one), ordered by
   * `search.sort` (creation time by default; users without the field last),
   * then user_id in the same direction; `withTotal` also counts the matches.
   */
  search(tenantId: string, search: UserSearch): Promise<Page<UserWithConnection>>;
  /**
   * The user of the connection whose lower-cased email is `emailLower`, the login
   * lookup (`users_email_uq`).
   */
  findByEmail(tenantId: string, connectionId: string, emailLower: string): Promise<UserRow | undefined>;
  /** The `sms|…` user of the connection with this phone number (E.164); undefined when none. */
  findSmsUser(tenantId: string, connectionId: string, phoneNumber: string): Promise<UserRow | undefined>;
  /**
   * The users of every connection whose lower-cased email is `emailLower`
   * (users_email_lower_idx), or who have a linked identity with that email,
   * with their connection's name, in creation order, each once.
   */
  listByEmail(tenantId: string, emailLower: string): Promise<UserWithConnection[]>;
  /**
   * The user of the connection whose lower-cased email or lower-cased username
   * is `identifierLower`: the login lookup when the identifier typed may be
   * either (`users_email_uq`, `users_username_uq`). Usernames may contain `@`,
   * so one user's username can equal another's email: the email wins.
   */
  findByLoginIdentifier(tenantId: string, connectionId: string, identifierLower: string): Promise<UserRow | undefined>;
  /**
   * Fails with a unique violation when the user_id is taken in the tenant, or the
   * email or username (case-insensitively, through the `_lower` columns) in the connection.
   */
  insert(row: UserRow): Promise<void>;
  /**
   * Inserts the rows that take no taken user_id, email or username, skipping
   * the others (ON CONFLICT DO NOTHING); the user_ids inserted.
   */
  insertMany(rows: UserRow[]): Promise<string[]>;
  /**
   * Brings the database's planner statistics of the users table up to date (PostgreSQL `ANALYZE`,
   * SQLite `ANALYZE` with a bounded sample): after a bulk import, so that user reads keep their
   * indexed plans whatever autovacuum is doing.
   */
  refreshStatistics(): Promise<void>;
  /**
   * The users of the connection with one of these lower-cased emails or
   * usernames, or (in the whole tenant) one of these user_ids.
   */
  findExisting(tenantId: string, connectionId: string, keys: { emailsLower: string[]; usernamesLower: string[]; userIds: string[] }): Promise<UserRow[]>;
  /** Applies the changed columns; false when the user does not exist. Fails with a unique violation as `insert` does. */
  update(tenantId: string, userId: string, changes: UserChanges): Promise<boolean>;
  /**
   * Deletes the user with the user's roles, permissions and group memberships
   * and the identities linked to it, atomically; false when the user does not
   * exist (a row linked to another user is not deleted).
   */
  delete(tenantId: string, userId: string): Promise<boolean>;
}
