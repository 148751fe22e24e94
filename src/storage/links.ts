/**
 * Assignment tables between two kinds of tenant rows (a group's roles, a
 * user's roles, a group's members), written all or nothing. One
 * implementation serves every direction: the group and role stores assign
 * roles to a group, the RBAC store assigns roles to a user and users to a
 * role, groups to a role, and members to a group.
 */
import { sql, type Kysely } from 'kysely';
import type { AssignResult, LimitedAssignResult } from '../domain/assignments.js';
import { atomically, type Db } from './database.js';
import { isPostgres } from './kysely/user-search.js';
import { isForeignKeyViolation } from '../platform/database-errors.js';

/** A kind of row that can be one side of an assignment, and its key column. */
const SIDES = {
  user: { table: 'users', key: 'user_id' },
  role: { table: 'roles', key: 'id' },
  group: { table: 'groups', key: 'id' },
  organization: { table: 'organizations', key: 'id' },
} as const;
export type Side = keyof typeof SIDES;

/** An assignment table, the side that owns the change (named in the path) and the side listed in the body. */
export interface Link {
  table: 'group_roles' | 'user_roles' | 'group_members' | 'organization_members';
  owner: { side: Side; column: string };
  item: { side: Side; column: string };
}

/** What `assignLinks` did. */
export type LinkResult = AssignResult;

/**
 * An entity limit on an assignment table: each row of the `per` side (the
 * owner, or each listed item) is in at most `max` links of the table (a
 * user's roles: 50, whether they are assigned from the user or from the role).
 */
export interface LinkLimit {
  per: 'owner' | 'item';
  max: number;
}

/**
 * Ids per statement: a list is bounded only by the body size (1 MiB, some
 * 45,000 ids), beyond both databases' limits on bound parameters (32,766 for
 * SQLite, 65,535 for PostgreSQL).
 */
const CHUNK = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

// The table and column names come from the constants above, never from input;
// Kysely cannot type a query over a table chosen at run time.
type Untyped = Kysely<any>;

/** Whether the row of `side` with key `id` exists in the tenant. */
export async function rowExists(db: Db | Untyped, side: Side, tenantId: string, id: string): Promise<boolean> {
  const untyped = db as unknown as Untyped;
  const { table, key } = SIDES[side];
  return (await untyped.selectFrom(table).select(key).where('tenant_id', '=', tenantId).where(key, '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Locks the rows of `side` with these keys until the transaction ends, so
 * that a count against an entity limit and the write after it are not
 * interleaved with another transaction's (PostgreSQL; SQLite runs one write
 * transaction at a time). FOR NO KEY UPDATE: it excludes another such lock
 * but not the key-share locks that foreign keys take when links are written.
 */
export async function lockRows(db: Db | Untyped, side: Side, tenantId: string, ids: readonly string[]): Promise<void> {
  if (!isPostgres(db as Db)) return;
  const untyped = db as unknown as Untyped;
  const { table, key } = SIDES[side];
  for (const chunk of chunks([...ids].sort())) {
    await untyped.selectFrom(table).select(key).where('tenant_id', '=', tenantId).where(key, 'in', chunk).orderBy(key).forNoKeyUpdate().execute();
  }
}

/**
 * The first row of the limited side that adding links from the owner to
 * `ids` (none of which is missing) would take past `limit.max`, or undefined.
 * Links already present do not count twice.
 */
async function firstOverLimit(db: Untyped, link: Link, tenantId: string, ownerId: string, ids: readonly string[], limit: LinkLimit): Promise<string | undefined> {
  if (limit.per === 'owner') {
    await lockRows(db, link.owner.side, tenantId, [ownerId]);
    const rows = (await db.selectFrom(link.table).select(link.item.column).where('tenant_id', '=', tenantId).where(link.owner.column, '=', ownerId).execute()) as Record<string, string>[];
    const present = new Set(rows.map((row) => row[link.item.column]!));
    return present.size + ids.filter((id) => !present.has(id)).length > limit.max ? ownerId : undefined;
  }
  await lockRows(db, link.item.side, tenantId, ids);
  for (const chunk of chunks(ids)) {
    const counts = (await db
      .selectFrom(link.table)
      .select([link.item.column, sql<number>`count(*)`.as('links'), sql<number>`max(case when ${sql.ref(link.owner.column)} = ${ownerId} then 1 else 0 end)`.as('linked')])
      .where('tenant_id', '=', tenantId)
      .where(link.item.column, 'in', chunk)
      .groupBy(link.item.column)
      .execute()) as Record<string, string | number>[];
    const over = new Set(counts.filter((row) => Number(row.linked) === 0 && Number(row.links) + 1 > limit.max).map((row) => String(row[link.item.column])));
    const first = chunk.find((id) => over.has(id));
    if (first !== undefined) return first;
  }
  return undefined;
}

/** The first of `ids` that is not a row of `side` in the tenant, or undefined. */
async function firstMissing(db: Untyped, side: Side, tenantId: string, ids: readonly string[]): Promise<string | undefined> {
  const { table, key } = SIDES[side];
  const found = new Set<string>();
  for (const chunk of chunks(ids)) {
    const rows = (await db.selectFrom(table).select(key).where('tenant_id', '=', tenantId).where(key, 'in', chunk).execute()) as Record<string, string>[];
    for (const row of rows) found.add(row[key]!);
  }
  return ids.find((id) => !found.has(id));
}

/**
 * Links every listed item to the owner, or none (one transaction): nothing is
 * written when the owner does not exist or any listed item does not exist in
 * the tenant (the first missing one is reported), nor, under a `limit`, when
 * a row of its side would be in more links than it allows (the owner, or the
 * first such item, is reported). Links already present stay as they are,
 * with their creation time; duplicates in the list count once.
 */
export function assignLinks(db: Db, link: Link, tenantId: string, ownerId: string, itemIds: readonly string[], createdAt: string): Promise<LinkResult>;
export function assignLinks(
  db: Db,
  link: Link,
  tenantId: string,
  ownerId: string,
  itemIds: readonly string[],
  createdAt: string,
  limit: LinkLimit,
): Promise<LimitedAssignResult>;
export async function assignLinks(
  db: Db,
  link: Link,
  tenantId: string,
  ownerId: string,
  itemIds: readonly string[],
  createdAt: string,
  limit?: LinkLimit,
): Promise<LimitedAssignResult> {
  const ids = [...new Set(itemIds)];
  const untyped = db as unknown as Untyped;
  try {
    return await atomically(db, async (typed): Promise<LimitedAssignResult> => {
      const trx = typed as unknown as Untyped;
      if (!(await rowExists(trx, link.owner.side, tenantId, ownerId))) return { status: 'owner_not_found' };
      const missing = await firstMissing(trx, link.item.side, tenantId, ids);
      if (missing !== undefined) return { status: 'item_not_found', id: missing };
      const over = limit && (await firstOverLimit(trx, link, tenantId, ownerId, ids, limit));
      if (over) return { status: 'limit_exceeded', id: over };
      for (const chunk of chunks(ids)) {
        await trx
          .insertInto(link.table)
          .values(chunk.map((id) => ({ tenant_id: tenantId, [link.owner.column]: ownerId, [link.item.column]: id, created_at: createdAt })))
          .onConflict((oc) => oc.columns(['tenant_id', link.owner.column, link.item.column]).doNothing())
          .execute();
      }
      return { status: 'assigned' };
    });
  } catch (error) {
    // The owner or an item was deleted by a concurrent transaction after the checks
    // above; the foreign keys refused the insert and the transaction rolled back.
    if (!isForeignKeyViolation(error)) throw error;
    if (!(await rowExists(untyped, link.owner.side, tenantId, ownerId))) return { status: 'owner_not_found' };
    return { status: 'item_not_found', id: (await firstMissing(untyped, link.item.side, tenantId, ids)) ?? ids[0]! };
  }
}

/**
 * Unlinks every listed item from the owner, in one transaction; false (and
 * nothing removed) when the owner does not exist. Ids that are not linked,
 * including ids of rows that do not exist, are skipped.
 */
export function removeLinks(db: Db, link: Link, tenantId: string, ownerId: string, itemIds: readonly string[]): Promise<boolean> {
  const ids = [...new Set(itemIds)];
  return atomically(db, async (typed) => {
    const trx = typed as unknown as Untyped;
    if (!(await rowExists(trx, link.owner.side, tenantId, ownerId))) return false;
    for (const chunk of chunks(ids)) {
      await trx
        .deleteFrom(link.table)
        .where('tenant_id', '=', tenantId)
        .where(link.owner.column, '=', ownerId)
        .where(link.item.column, 'in', chunk)
        .execute();
    }
    return true;
  });
}
