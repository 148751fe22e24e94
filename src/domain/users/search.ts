/**
 * A user search (GET /api/v2/users `q`, search engine v3) once parsed: a tree
 * of conditions on named user fields, which the store turns into a query of
 * its database (src/storage/kysely/user-search.ts). Values are data, never SQL.
 * The parser is src/management/users/search-query.ts.
 */

/** Plain columns of the users table a term may name. */
export const USER_TEXT_FIELDS = ['email', 'name', 'nickname', 'given_name', 'family_name', 'username', 'phone_number'] as const;
export type UserTextField = (typeof USER_TEXT_FIELDS)[number];

export const USER_DATE_FIELDS = ['created_at', 'updated_at', 'last_login', 'last_password_reset'] as const;
export type UserDateField = (typeof USER_DATE_FIELDS)[number];

export const USER_FLAG_FIELDS = ['email_verified', 'blocked', 'phone_verified'] as const;
export type UserFlagField = (typeof USER_FLAG_FIELDS)[number];

/** What a term names. */
export type SearchField =
  | { kind: 'text'; column: UserTextField }
  | { kind: 'user_id' }
  | { kind: 'connection' }
  | { kind: 'provider' }
  | { kind: 'date'; column: UserDateField }
  | { kind: 'flag'; column: UserFlagField }
  | { kind: 'logins_count' }
  /** A member of app_metadata or user_metadata, by its path of keys. */
  | { kind: 'metadata'; column: 'app_metadata' | 'user_metadata'; path: string[] };

export type SearchNode =
  | { kind: 'and'; children: SearchNode[] }
  | { kind: 'or'; children: SearchNode[] }
  | { kind: 'not'; child: SearchNode }
  /** Equal (`exact`), starting with (`prefix`, a trailing `*`), or present at all (`exists`, `field:*`). */
  | { kind: 'term'; field: SearchField; match: 'exact' | 'prefix' | 'exists'; value: string }
  /** Bounds are ISO 8601 instants (dates) or integers in decimal (logins_count); absent for `*`. */
  | { kind: 'range'; field: SearchField; from?: string; to?: string; fromInclusive: boolean; toInclusive: boolean };

export const USER_SORT_FIELDS = ['created_at', 'updated_at', 'last_login', 'email', 'name', 'nickname', 'given_name', 'family_name', 'username', 'user_id', 'logins_count'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export interface UserSearch {
  /** Undefined: every user of the tenant. */
  filter?: SearchNode;
  /** Default: creation time ascending; user_id always breaks ties. */
  sort?: { field: UserSortField; descending: boolean };
  offset: number;
  /**
   * Keyset paging in the default order (creation time ascending, then user_id): the users after this
   * one, with `offset` 0. What an export walks the tenant with, so that its last page costs what its
   * first does.
   */
  after?: { created_at: string; user_id: string };
  limit: number;
  withTotal: boolean;
}

/**
 * A search that could not be answered within the store's time limit (one that no index serves, on
 * a large tenant): the service answers 503 when a search takes over 2 seconds, and so does
 * Gatehouse, rather than letting it hold the database.
 */
export class UserSearchTimeout extends Error {
  constructor(readonly limitMs: number) {
    super(`the user search did not complete within ${limitMs} ms`);
    this.name = 'UserSearchTimeout';
  }
}

/** The service's limit (user-search-best-practices: "Search queries time out (503) if they do not complete within 2 seconds"). */
export const USER_SEARCH_TIME_LIMIT_MS = 2000;
