/**
 * A parsed user search (src/domain/users/search.ts) as a Kysely condition on
 * `users` joined with `connections`, for SQLite and PostgreSQL alike. Every
 * value is a bound parameter; JSON members are read with each dialect's JSON
 * functions (SQLite `->` / `->>` with a bound path, PostgreSQL `#>` / `#>>`
 * with a bound array of keys on the text column cast to jsonb).
 *
 * Text fields (email, name, …) compare case-insensitively (lower() on both
 * sides), as the service's search does for them; user_id, connection and
 * provider compare exactly. A trailing wildcard on a text field or user_id is
 * a range `>= prefix and < successor(prefix)` in the byte order of the text
 * (SQLite's BINARY, PostgreSQL's `collate "C"`), which the indexes of
 * migration 0092 (and the primary key for user_id) serve; elsewhere it is a
 * LIKE with the prefix's `%`, `_` and `\` escaped.
 *
 * `usesIndex` says whether a search can be served from an index; the store
 * bounds the others (src/storage/kysely/users.ts).
 */
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { SearchField, SearchNode } from '../../domain/users/search.js';
import type { Db } from '../database.js';
import type { Database } from '../schema.js';

type Eb = ExpressionBuilder<Database, 'users' | 'connections'>;

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A member of a JSON column: as JSON text (`json: true`, for equality of any type) or as SQL text (strings). */
function jsonMember(postgres: boolean, column: 'app_metadata' | 'user_metadata', path: string[], json: boolean) {
  const ref = sql.ref(`users.${column}`);
  if (postgres) return json ? sql<string>`((${ref})::jsonb #> ${path})::text` : sql<string>`((${ref})::jsonb #>> ${path})`;
  const jsonPath = `$${path.map((key) => `."${key}"`).join('')}`;
  return json ? sql<string>`(${ref} -> ${jsonPath})` : sql<string>`(${ref} ->> ${jsonPath})`;
}

/**
 * The JSON texts a metadata member may have to equal `value`: the string
 * itself, and when the value reads as a literal (true, false, null, a number)
 * that literal too, so `app_metadata.vip:true` finds `true` and `"true"`.
 */
function jsonCandidates(value: string): string[] {
  const candidates = [JSON.stringify(value)];
  if (/^(true|false|null|-?\d+(\.\d+)?)$/.test(value)) candidates.push(value);
  return candidates;
}

/**
 * The least string greater than every string starting with `prefix`, in code point order (the byte
 * order of UTF-8): its last code point plus one. Undefined when there is none (only U+10FFFF).
 */
export function prefixSuccessor(prefix: string): string | undefined {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0 && points[points.length - 1] === 0x10ffff) points.pop();
  if (points.length === 0) return undefined;
  let last = points.pop()! + 1;
  if (last >= 0xd800 && last <= 0xdfff) last = 0xe000; // no surrogates in a string's code points
  return String.fromCodePoint(...points, last);
}

/** `expr` (text) starting with `prefix`, as an index range in the byte order of the text. */
function startsWith(postgres: boolean, expr: Expression<unknown>, prefix: string): Expression<SqlBool> {
  const ordered = postgres ? sql`${expr} collate "C"` : sql`${expr}`;
  const upper = prefixSuccessor(prefix);
  const from = sql<SqlBool>`${ordered} >= ${prefix}`;
  return upper === undefined ? from : sql<SqlBool>`${from} and ${ordered} < ${upper}`;
}

function termCondition(eb: Eb, postgres: boolean, node: Extract<SearchNode, { kind: 'term' }>): Expression<SqlBool> {
  const { field, match, value } = node;
  const lowerLike = (expr: Expression<unknown>) => sql<SqlBool>`lower(${expr}) like ${likePrefix(value.toLowerCase())} escape '\\'`;
  switch (field.kind) {
    case 'text': {
      const column = field.column === 'email' ? 'users.email_lower' : (`users.${field.column}` as const);
      if (match === 'exists') return eb(column, 'is not', null);
      // The lower-cased value as migration 0092's partial index has it, with the index's condition.
      const key = field.column === 'email' ? eb.ref(column) : sql`lower(${eb.ref(column)})`;
      const lowered = value.toLowerCase();
      if (field.column === 'email' && match === 'exact') return eb('users.email_lower', '=', lowered);
      const compared = match === 'prefix' ? startsWith(postgres, key, lowered) : sql<SqlBool>`${postgres ? sql`${key} collate "C"` : key} = ${lowered}`;
      return eb.and([eb(column, 'is not', null), compared]);
    }
    case 'user_id':
      if (match === 'exists') return sql<SqlBool>`1 = 1`;
      // user_id is `collate "C"` on PostgreSQL (migration 0001): the primary key serves the range.
      if (match === 'prefix') return startsWith(false, eb.ref('users.user_id'), value);
      return eb('users.user_id', '=', value);
    case 'connection': {
      if (match === 'exists') return sql<SqlBool>`1 = 1`;
      const named = (name: Expression<string>) => (match === 'prefix' ? sql<SqlBool>`${name} like ${likePrefix(value)} escape '\\'` : sql<SqlBool>`${name} = ${value}`);
      return eb.or([named(eb.ref('connections.name')), throughLinkedIdentity(eb, (linked) => named(sql.ref(`${linked}_connections.name`)))]);
    }
    case 'provider': {
      // A user's provider is its user_id's prefix (auth0|…, email|…).
      if (match === 'exists') return sql<SqlBool>`1 = 1`;
      const provided = (userId: Expression<string>) => sql<SqlBool>`${userId} like ${likePrefix(`${value}|`)} escape '\\'`;
      return eb.or([provided(eb.ref('users.user_id')), throughLinkedIdentity(eb, (linked) => provided(sql.ref(`${linked}.user_id`)))]);
    }
    case 'date':
      if (match === 'exists') return eb(`users.${field.column}`, 'is not', null);
      return eb(`users.${field.column}`, '=', value);
    case 'flag':
      if (match === 'exists') return sql<SqlBool>`1 = 1`;
      return eb(`users.${field.column}`, '=', value === 'true' ? 1 : 0);
    case 'logins_count':
      if (match === 'exists') return sql<SqlBool>`1 = 1`;
      return eb('users.logins_count', '=', Number(value));
    case 'metadata': {
      if (match === 'exists') return sql<SqlBool>`${jsonMember(postgres, field.column, field.path, true)} is not null`;
      if (match === 'prefix') return lowerLike(jsonMember(postgres, field.column, field.path, false));
      return eb(jsonMember(postgres, field.column, field.path, true), 'in', jsonCandidates(value));
    }
  }
}

/**
 * Whether one of the identities linked to the user (rows whose `linked_to` is
 * its user_id, users_linked_idx) meets `condition`, which reads the identity
 * as `linked` and its connection as `linked_connections`: `identities.connection`
 * and `identities.provider` name every identity of a user, not only its first.
 */
function throughLinkedIdentity(eb: Eb, condition: (linked: 'linked') => Expression<SqlBool>): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('users as linked')
      .innerJoin('connections as linked_connections', (join) =>
        join.onRef('linked_connections.tenant_id', '=', 'linked.tenant_id').onRef('linked_connections.id', '=', 'linked.connection_id'),
      )
      .select(sql`1`.as('one'))
      .whereRef('linked.tenant_id', '=', 'users.tenant_id')
      .whereRef('linked.linked_to', '=', 'users.user_id')
      .where(() => condition('linked')),
  );
}

function rangeCondition(eb: Eb, node: Extract<SearchNode, { kind: 'range' }>): Expression<SqlBool> {
  const column = rangeColumn(node.field);
  const conditions: Expression<SqlBool>[] = [eb(column, 'is not', null)];
  const bound = (value: string) => (column === 'users.logins_count' ? Number(value) : value);
  if (node.from !== undefined) conditions.push(eb(column, node.fromInclusive ? '>=' : '>', bound(node.from)));
  if (node.to !== undefined) conditions.push(eb(column, node.toInclusive ? '<=' : '<', bound(node.to)));
  return eb.and(conditions);
}

function rangeColumn(field: SearchField) {
  if (field.kind === 'date') return `users.${field.column}` as const;
  if (field.kind === 'logins_count') return 'users.logins_count' as const;
  throw new Error(`no range on ${field.kind}`); // the parser refuses these
}

/** The condition of a search tree. */
export function searchCondition(eb: Eb, postgres: boolean, node: SearchNode): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and(node.children.map((child) => searchCondition(eb, postgres, child)));
    case 'or':
      return eb.or(node.children.map((child) => searchCondition(eb, postgres, child)));
    case 'not':
      // A missing field makes its comparison NULL: NOT of it must still match, as Lucene's NOT does.
      return sql<SqlBool>`not coalesce(${searchCondition(eb, postgres, node.child)}, false)`;
    case 'term':
      return termCondition(eb, postgres, node);
    case 'range':
      return rangeCondition(eb, node);
  }
}

/**
 * Whether the database can find a search's users in an index rather than by reading the tenant:
 * exact and prefix terms on the text fields and user_id, creation dates; an AND with one such
 * member, an OR of only such members. NOT, `field:*`, flags, counts, the other dates, identities
 * and metadata are read row by row.
 */
export function usesIndex(node: SearchNode): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.some(usesIndex);
    case 'or':
      return node.children.every(usesIndex);
    case 'not':
      return false;
    case 'range':
      return node.field.kind === 'date' && node.field.column === 'created_at';
    case 'term':
      if (node.match === 'exists') return false;
      return node.field.kind === 'text' || node.field.kind === 'user_id' || (node.field.kind === 'date' && node.field.column === 'created_at');
  }
}
