import { performance } from 'node:perf_hooks';
import { sql, type SelectQueryBuilder } from 'kysely';
import { atomically, type Db } from '../database.js';
import { chunks } from '../links.js';
import type { UserRow } from '../../domain/users/model.js';
import type { Database } from '../schema.js';
import type { UserWithConnection, UserChanges, UserStore } from '../../domain/users/store.js';
import { fromStored, parsedRow, parsedRows, toStored } from '../json-columns.js';
import { countRows, fetchPage, parsedPage } from '../paging.js';
import type { OffsetWindow, Page } from '../../domain/paging.js';
import { USER_SEARCH_TIME_LIMIT_MS, UserSearchTimeout, type SearchNode, type UserSearch } from '../../domain/users/search.js';
import { isPostgres, searchCondition, usesIndex } from './user-search.js';

/** Sort fields that every user has (NOT NULL columns). */
const NEVER_NULL_SORT_FIELDS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'user_id', 'logins_count']);

/** Creation time, then user id: the order of the tenant's user lists. */
function byCreation(a: UserWithConnection, b: UserWithConnection): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0;
}

/** How a search is bounded (the defaults are the service's limit and a step of a few milliseconds). */
export interface UserSearchBounds {
  /** A search that has not ended after this long is given up (UserSearchTimeout). */
  timeLimitMs?: number;
  /** Users read per step of a search that no index serves, on SQLite. */
  scanStep?: number;
}

type UserSort = NonNullable<UserSearch['sort']>;

/**
 * A search's order: the sorted field (rows without it last either way, as on the service), then
 * user_id. The CASE only for a field that may be missing: it keeps the database from reading an
 * index in order (the default sort, creation time, would sort the whole tenant for its first page).
 */
function inSearchOrder<Q extends SelectQueryBuilder<Database, 'users' | 'connections', object>>(query: Q, sort: UserSort | undefined): Q {
  const direction = sort?.descending ? 'desc' : 'asc';
  const field = sort?.field ?? 'created_at';
  const column = field === 'email' ? 'users.email_lower' : (`users.${field}` as const);
  const ordered = NEVER_NULL_SORT_FIELDS.has(field) ? query : query.orderBy((eb) => eb.case().when(column, 'is', null).then(1).else(0).end());
  return ordered.orderBy(column, direction).orderBy('users.user_id', direction) as Q;
}

export class KyselyUserStore implements UserStore {
  private readonly timeLimitMs: number;
  private readonly scanStep: number;

  constructor(
    private readonly db: Db,
    bounds: UserSearchBounds = {},
  ) {
    this.timeLimitMs = bounds.timeLimitMs ?? USER_SEARCH_TIME_LIMIT_MS;
    this.scanStep = bounds.scanStep ?? 5_000;
  }

  /**
   * Users with their connection's name. A CROSS JOIN, which SQLite never reorders: users are read
   * first, by the index the query's conditions and order call for, and each one's connection looked
   * up. With an inner join SQLite may start from the few connections and read each one's users
   * through users_username_uq (tenant, connection), then sort them: every row of the tenant for a
   * list page, when the sampled statistics (refreshStatistics) make a tenant look like a thousand
   * users. PostgreSQL plans the two alike.
   */
  private withConnection(db: Db = this.db) {
    return db
      .selectFrom('users')
      .crossJoin('connections')
      .whereRef('connections.tenant_id', '=', 'users.tenant_id')
      .whereRef('connections.id', '=', 'users.connection_id')
      .selectAll('users')
      .select('connections.name as connection_name');
  }

  /** The tenant's users, without the rows linked to another user. */
  private usersOf(tenantId: string, db: Db = this.db) {
    return this.withConnection(db).where('users.tenant_id', '=', tenantId).where('users.linked_to', 'is', null);
  }

  get(tenantId: string, userId: string): Promise<UserWithConnection | undefined> {
    return parsedRow('users', this.usersOf(tenantId).where('users.user_id', '=', userId).executeTakeFirst());
  }

  getIdentity(tenantId: string, userId: string): Promise<UserWithConnection | undefined> {
    return parsedRow('users', this.withConnection().where('users.tenant_id', '=', tenantId).where('users.user_id', '=', userId).executeTakeFirst());
  }

  async linkedIdentities(tenantId: string, primaryIds: readonly string[]): Promise<UserWithConnection[]> {
    const found: UserWithConnection[] = [];
    for (const ids of chunks(primaryIds)) {
      // No ORDER BY in SQL: with one the planner walks users_created_idx over the whole tenant
      // instead of looking the few linked rows up in users_linked_idx.
      const rows = this.withConnection().where('users.tenant_id', '=', tenantId).where('users.linked_to', 'in', ids).execute();
      found.push(...(await parsedRows('users', rows)));
    }
    return found.sort(byCreation);
  }

  link(tenantId: string, secondaryId: string, primaryId: string, now: string): Promise<boolean> {
    if (secondaryId === primaryId) return Promise.resolve(false);
    return atomically(this.db, async (trx) => {
      // Both rows locked (PostgreSQL; SQLite runs one transaction at a time), in user_id order so that
      // two links of the same pair the other way round wait rather than deadlock: a concurrent link can
      // then neither link the primary elsewhere nor link a user to the secondary before this one commits.
      const pair = trx.selectFrom('users').select(['user_id', 'linked_to']).where('tenant_id', '=', tenantId).where('user_id', 'in', [primaryId, secondaryId]).orderBy('user_id');
      const rows = await (isPostgres(this.db) ? pair.forUpdate() : pair).execute();
      if (rows.length !== 2 || rows.some((row) => row.linked_to !== null)) return false;
      if (await trx.selectFrom('users').select('user_id').where('tenant_id', '=', tenantId).where('linked_to', '=', secondaryId).executeTakeFirst()) return false;
      const result = await trx
        .updateTable('users')
        .set({ ...toStored('users', { app_metadata: {}, user_metadata: {} }), linked_to: primaryId, updated_at: now })
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', secondaryId)
        .where('linked_to', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // What the user had as a user of its own; an identity has none of it.
      for (const table of ['user_roles', 'user_permissions', 'group_members', 'organization_member_roles', 'organization_members'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('user_id', '=', secondaryId).execute();
      }
      return true;
    });
  }

  async unlink(tenantId: string, secondaryId: string, primaryId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ ...toStored('users', { app_metadata: {}, user_metadata: {} }), linked_to: null, updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', secondaryId)
      .where('linked_to', '=', primaryId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async list(tenantId: string, query: OffsetWindow): Promise<Page<UserWithConnection>> {
    const page = fetchPage(this.usersOf(tenantId), (q) => q, 'users.user_id', { kind: 'offset', ...query }, {
      order: (q) => q.orderBy('users.created_at').orderBy('users.user_id'),
      count: () => countRows(this.db.selectFrom('users').where('tenant_id', '=', tenantId).where('linked_to', 'is', null)),
    });
    return parsedPage('users', page);
  }

  /**
   * A page of a search, bounded so that no search holds the database for long: on PostgreSQL each
   * statement has the time limit (`statement_timeout`, local to the search's transaction); on
   * SQLite, whose one connection serves every request of the process, a search that no index
   * serves (user-search.ts `usesIndex`, or a list sorted by a field without one) reads the tenant
   * `scanStep` users at a time in creation order, lets other requests run between steps, and stops
   * at the time limit. Either way a search over the limit is a UserSearchTimeout.
   */
  async search(tenantId: string, search: UserSearch): Promise<Page<UserWithConnection>> {
    const { after, sort } = search;
    if (after && (search.offset !== 0 || (sort && (sort.field !== 'created_at' || sort.descending)))) throw new Error('keyset paging is in the default order, without an offset');
    if (isPostgres(this.db)) return this.withinTimeLimit((trx) => this.searchIn(trx, tenantId, search, true));
    const indexed = search.filter ? usesIndex(search.filter) : !sort || sort.field === 'created_at' || sort.field === 'user_id';
    if (!after && !indexed) return this.searchByScan(tenantId, search);
    return this.searchIn(this.db, tenantId, search, false);
  }

  private async withinTimeLimit<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        // At least 1 ms: 0 would be no limit.
        await sql`select set_config('statement_timeout', ${String(Math.max(1, this.timeLimitMs))}, true)`.execute(trx);
        return work(trx);
      });
    } catch (err) {
      // query_canceled: the statement ran past statement_timeout.
      if ((err as { code?: unknown }).code === '57014') throw new UserSearchTimeout(this.timeLimitMs);
      throw err;
    }
  }

  /** The tenant's users (without linked identities) that meet `filter`, nothing selected yet. */
  private matching(db: Db, tenantId: string, filter: SearchNode | undefined, postgres: boolean) {
    const base = this.usersOf(tenantId, db);
    return filter ? base.where((eb) => searchCondition(eb, postgres, filter)) : base;
  }

  private async searchIn(db: Db, tenantId: string, search: UserSearch, postgres: boolean): Promise<Page<UserWithConnection>> {
    const matching = this.matching(db, tenantId, search.filter, postgres);
    const { after } = search;
    // A row comparison, which both databases read as one range of users_created_idx (an OR of the two
    // cases became two ranges merged and sorted: every page cost the rest of the tenant).
    const filtered = after ? matching.where(sql<boolean>`(users.created_at, users.user_id) > (${after.created_at}, ${after.user_id})`) : matching;
    const rows = await inSearchOrder(filtered, search.sort).offset(search.offset).limit(search.limit).execute();
    const parsed = rows.map((row) => fromStored('users', row));
    if (!search.withTotal) return { rows: parsed };
    return { rows: parsed, total: await countRows(filtered) };
  }

  /**
   * A search read `scanStep` users at a time (SQLite). Each step is a range of users_created_idx:
   * its matching users are counted (for the total) and the first `offset + limit` of them in the
   * search's order merged, by the database's own ORDER BY, with the best ones of the steps before;
   * in creation order the search ends as soon as it has them.
   */
  private async searchByScan(tenantId: string, search: UserSearch): Promise<Page<UserWithConnection>> {
    const deadline = performance.now() + this.timeLimitMs;
    const wanted = search.offset + search.limit;
    const inCreationOrder = !search.sort || (search.sort.field === 'created_at' && !search.sort.descending);
    let best: string[] = [];
    let total = 0;
    let from: { created_at: string; user_id: string } | undefined;
    for (;;) {
      const after = from;
      const edge = await this.db
        .selectFrom('users')
        .select(['created_at', 'user_id'])
        .where('tenant_id', '=', tenantId)
        .$if(after !== undefined, (q) => q.where(sql<boolean>`(created_at, user_id) > (${after!.created_at}, ${after!.user_id})`))
        .orderBy('created_at')
        .orderBy('user_id')
        .limit(1)
        .offset(this.scanStep - 1)
        .executeTakeFirst();
      const step = this.matching(this.db, tenantId, search.filter, false)
        .$if(after !== undefined, (q) => q.where(sql<boolean>`(users.created_at, users.user_id) > (${after!.created_at}, ${after!.user_id})`))
        .$if(edge !== undefined, (q) => q.where(sql<boolean>`(users.created_at, users.user_id) <= (${edge!.created_at}, ${edge!.user_id})`));
      if (search.withTotal) total += await countRows(step);
      if (!inCreationOrder || best.length < wanted) {
        const found = (await inSearchOrder(step.clearSelect().select('users.user_id'), search.sort).limit(wanted).execute()).map((row) => row.user_id);
        if (inCreationOrder) best = [...best, ...found].slice(0, wanted);
        else if (found.length > 0) {
          const candidates = this.usersOf(tenantId).clearSelect().select('users.user_id').where('users.user_id', 'in', [...best, ...found]);
          best = (await inSearchOrder(candidates, search.sort).limit(wanted).execute()).map((row) => row.user_id);
        }
      }
      if (!edge || (inCreationOrder && best.length >= wanted && !search.withTotal)) break;
      if (performance.now() >= deadline) throw new UserSearchTimeout(this.timeLimitMs);
      from = edge;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ids = best.slice(search.offset);
    const rows = ids.length ? await parsedRows('users', this.usersOf(tenantId).where('users.user_id', 'in', ids).execute()) : [];
    const byId = new Map(rows.map((row) => [row.user_id, row]));
    const page = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    return search.withTotal ? { rows: page, total } : { rows: page };
  }

  findByEmail(tenantId: string, connectionId: string, emailLower: string): Promise<UserRow | undefined> {
    return parsedRow(
      'users',
      this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('email_lower', '=', emailLower).executeTakeFirst(),
    );
  }

  findSmsUser(tenantId: string, connectionId: string, phoneNumber: string): Promise<UserRow | undefined> {
    return parsedRow(
      'users',
      this.db
        .selectFrom('users')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('connection_id', '=', connectionId)
        .where('phone_number', '=', phoneNumber)
        .where('user_id', 'like', 'sms|%')
        .executeTakeFirst(),
    );
  }

  async listByEmail(tenantId: string, emailLower: string): Promise<UserWithConnection[]> {
    // The users with the email (users_email_lower_idx), and the users one of whose linked identities
    // has it (the same index, then each primary by its key). Two indexed reads: as one query with an
    // OR the planner scans the tenant.
    const withEmail = await this.usersOf(tenantId).where('users.email_lower', '=', emailLower).execute();
    const primaries = await this.db
      .selectFrom('users')
      .select('linked_to')
      .where('tenant_id', '=', tenantId)
      .where('email_lower', '=', emailLower)
      .where('linked_to', 'is not', null)
      .$narrowType<{ linked_to: string }>()
      .execute();
    const known = new Set(withEmail.map((row) => row.user_id));
    const missing = [...new Set(primaries.map((row) => row.linked_to))].filter((id) => !known.has(id));
    const linked = missing.length ? await this.usersOf(tenantId).where('users.user_id', 'in', missing).execute() : [];
    return (await parsedRows('users', Promise.resolve([...withEmail, ...linked]))).sort(byCreation);
  }

  async findByLoginIdentifier(tenantId: string, connectionId: string, identifierLower: string): Promise<UserRow | undefined> {
    // At most two rows: each unique index matches at most one.
    const rows = await parsedRows(
      'users',
      this.db
        .selectFrom('users')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('connection_id', '=', connectionId)
        .where((eb) => eb.or([eb('email_lower', '=', identifierLower), eb('username_lower', '=', identifierLower)]))
        .execute(),
    );
    return rows.find((row) => row.email_lower === identifierLower) ?? rows[0];
  }

  async insert(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values(toStored('users', row)).execute();
  }

  async insertMany(rows: UserRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await this.db
      .insertInto('users')
      .values(rows.map((row) => toStored('users', row)))
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .execute();
    return inserted.map((row) => row.user_id);
  }

  async refreshStatistics(): Promise<void> {
    if (isPostgres(this.db)) {
      await sql`analyze users`.execute(this.db);
      return;
    }
    // A sample of about 1,000 rows per index is what SQLite's planner needs; a whole-table pass would hold
    // the one connection for seconds on a large tenant.
    await this.db.connection().execute(async (connection) => {
      await sql`pragma analysis_limit = 1000`.execute(connection);
      await sql`analyze users`.execute(connection);
    });
  }

  async findExisting(tenantId: string, connectionId: string, keys: { emailsLower: string[]; usernamesLower: string[]; userIds: string[] }): Promise<UserRow[]> {
    // One query per unique index (an OR of the three would scan the table).
    const inConnection = this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId);
    const found = [
      ...(keys.emailsLower.length ? await inConnection.where('email_lower', 'in', keys.emailsLower).execute() : []),
      ...(keys.usernamesLower.length ? await inConnection.where('username_lower', 'in', keys.usernamesLower).execute() : []),
      ...(keys.userIds.length ? await this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('user_id', 'in', keys.userIds).execute() : []),
    ];
    const unique = new Map(found.map((row) => [row.user_id, row]));
    return [...unique.values()].map((row) => fromStored('users', row));
  }

  async update(tenantId: string, userId: string, changes: UserChanges): Promise<boolean> {
    if (Object.keys(changes).length === 0) return (await this.get(tenantId, userId)) !== undefined;
    const result = await this.db.updateTable('users').set(toStored('users', changes)).where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  delete(tenantId: string, userId: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const user = await trx.selectFrom('users').select('user_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('linked_to', 'is', null).executeTakeFirst();
      if (!user) return false;
      // The foreign keys of migration 0011 cascade as well; deleting here keeps the
      // store's contract independent of them.
      for (const table of ['user_roles', 'user_permissions', 'group_members'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
      }
      // Its identities go with it (their own assignments went when they were linked).
      await trx.deleteFrom('users').where('tenant_id', '=', tenantId).where('linked_to', '=', userId).execute();
      const result = await trx.deleteFrom('users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
