/**
 * Short-lived protocol artefacts (tickets, waiting authorization requests,
 * codes, pushed requests, MFA challenges, passwordless codes, device and CIBA
 * requests, once-usable identifiers, sessions, refresh tokens): one table
 * each, since their shapes and lookups differ, and one store over them all
 * for what they share. Each row is usable until its `expires_at` and, where it
 * has `used_at`, until it is spent; spending is one conditional UPDATE, so of
 * concurrent callers exactly one gets the row (on SQLite and PostgreSQL
 * alike). `EXPIRING_ARTEFACTS` says when each table's rows stop mattering,
 * and `purgeEndedArtefacts` deletes them in batches (src/storage/purge.ts):
 * a new artefact table is one line there, and its store uses `ArtefactTable`.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Db } from '../database.js';
import { fromStored, JSON_COLUMNS, toStored, type JsonTable, type JsonTableRows } from '../json-columns.js';
import type { Database } from '../schema.js';
import { isPostgres } from './user-search.js';

/** Columns of a table that hold a time. */
type TimeColumn<T extends keyof Database> = { [C in keyof Database[T] & string]: Database[T][C] extends string | null | undefined ? C : never }[keyof Database[T] & string];

/**
 * Each artefact table and the columns whose time ends a row: it stops mattering at the earliest of
 * them that is set (expired, revoked, delivered, given up), and is purged a grace period later.
 */
export const EXPIRING_ARTEFACTS = {
  tickets: ['expires_at'],
  authorization_requests: ['expires_at'],
  authorization_codes: ['expires_at'],
  pushed_authorization_requests: ['expires_at'],
  one_time_uses: ['expires_at'],
  mfa_challenges: ['expires_at'],
  passwordless_codes: ['expires_at'],
  device_codes: ['expires_at'],
  backchannel_auth_requests: ['expires_at'],
  // A rotated refresh token of a live family has neither: reuse detection needs it.
  sessions: ['expires_at', 'revoked_at'],
  refresh_tokens: ['expires_at', 'revoked_at'],
  backchannel_logout_deliveries: ['delivered_at', 'gave_up_at'],
  // An event's delivery once its webhook took it; failed ones wait for a redelivery (or their stream's deletion).
  event_deliveries: ['delivered_at'],
  // The tenant's event log (GET /api/v2/events) past its retention.
  tenant_events: ['expires_at'],
  action_executions: ['expires_at'],
  sso_tickets: ['expires_at'],
  known_devices: ['expires_at'],
} as const satisfies { [T in keyof Database]?: readonly TimeColumn<T>[] };

export type ExpiringTable = keyof typeof EXPIRING_ARTEFACTS;

/** The artefacts that are spent once: an `expires_at` and a `used_at`. */
export type SingleUseTable = {
  [T in ExpiringTable]: 'expires_at' extends keyof Database[T] ? ('used_at' extends keyof Database[T] ? T : never) : never;
}[ExpiringTable];

/** A table's row as the domain sees it (JSON columns parsed). */
export type ArtefactRow<T extends SingleUseTable> = T extends JsonTable ? JsonTableRows[T] : Database[T];

/** Equality on some of a row's columns: the artefact's key (tenant and hash, or id). */
export type ArtefactKey<T extends SingleUseTable> = Partial<ArtefactRow<T>>;

/** One more condition a change needs, on a column of the row: `['status', '=', 'approved']`, `['failures', '<', 5]`. */
export type ArtefactCondition<T extends SingleUseTable> = readonly [keyof ArtefactRow<T> & string, '=' | '<' | '<=' | '>' | '>=' | '<>', string | number];

export interface ChangeOptions<T extends SingleUseTable> {
  /** Further conditions, all needed. */
  conditions?: readonly ArtefactCondition<T>[];
  /**
   * Whether the row must not have expired (default true). False for a polled request that was
   * approved before its expiry and is redeemed after it.
   */
  unexpired?: boolean;
}

// The table is one of the unions above, never input; Kysely cannot type a table chosen at run time.
type Untyped = Kysely<any>;

const isJsonTable = (table: string): table is JsonTable => Object.hasOwn(JSON_COLUMNS, table);

/** A key's columns and values; an empty key or an undefined value would widen a change to other rows, so both are refused. */
function keyColumns(table: string, key: object): [string, unknown][] {
  const columns = Object.entries(key);
  if (columns.length === 0 || columns.some(([, value]) => value === undefined)) throw new Error(`an incomplete key of ${table}: ${columns.map(([c]) => c).join(', ') || 'none'}`);
  return columns;
}

/** One artefact table: insert, find, and change or spend a row still usable. */
export class ArtefactTable<T extends SingleUseTable> {
  constructor(
    private readonly db: Db,
    readonly table: T,
  ) {}

  /** The table as Kysely's untyped builder takes it. */
  private get name(): string {
    return this.table;
  }

  private get untyped(): Untyped {
    return this.db as unknown as Untyped;
  }

  private stored(row: object): Record<string, unknown> {
    return (isJsonTable(this.table) ? toStored(this.table, row) : row) as Record<string, unknown>;
  }

  private parsed(row: Record<string, unknown> | undefined): ArtefactRow<T> | undefined {
    if (row === undefined) return undefined;
    return (isJsonTable(this.table) ? fromStored(this.table, row) : row) as ArtefactRow<T>;
  }

  async insert(row: ArtefactRow<T>): Promise<void> {
    await this.untyped.insertInto(this.name).values(this.stored(row)).execute();
  }

  /** The row under `key`, whatever its state (the caller tells expired, spent and refused apart). */
  async find(key: ArtefactKey<T>): Promise<ArtefactRow<T> | undefined> {
    let query = this.untyped.selectFrom(this.name).selectAll();
    for (const [column, value] of keyColumns(this.table, key)) query = query.where(column, '=', value);
    return this.parsed(await query.executeTakeFirst());
  }

  /** The row under `key` if it is usable at `now`: not spent, not expired. */
  async findUsable(key: ArtefactKey<T>, now: string): Promise<ArtefactRow<T> | undefined> {
    let query = this.untyped.selectFrom(this.name).selectAll().where('used_at', 'is', null).where('expires_at', '>', now);
    for (const [column, value] of keyColumns(this.table, key)) query = query.where(column, '=', value);
    return this.parsed(await query.executeTakeFirst());
  }

  /**
   * Changes the row under `key` if it is still usable at `now` (and meets `conditions`), in one
   * conditional UPDATE; the row as changed, or undefined when it was not usable.
   */
  async updateUsable(key: ArtefactKey<T>, now: string, changes: Partial<ArtefactRow<T>>, options: ChangeOptions<T> = {}): Promise<ArtefactRow<T> | undefined> {
    let query = this.untyped.updateTable(this.name).set(this.stored(changes)).where('used_at', 'is', null);
    if (options.unexpired !== false) query = query.where('expires_at', '>', now);
    for (const [column, value] of keyColumns(this.table, key)) query = query.where(column, '=', value);
    for (const [column, op, value] of options.conditions ?? []) query = query.where(column as string, op, value);
    return this.parsed(await query.returningAll().executeTakeFirst());
  }

  /**
   * Spends the row under `key` at `now` (its `used_at`, with `changes`): of any number of callers,
   * concurrent or not, exactly one gets the row; every other gets undefined.
   */
  spend(key: ArtefactKey<T>, now: string, changes: Partial<ArtefactRow<T>> = {}, options: ChangeOptions<T> = {}): Promise<ArtefactRow<T> | undefined> {
    return this.updateUsable(key, now, { ...changes, used_at: now } as Partial<ArtefactRow<T>>, options);
  }
}

/** How many rows one purge statement deletes: short statements, so that SQLite's one writer is never held long. */
export const PURGE_BATCH = 1000;

/**
 * Deletes the rows of `table` that `ended` selects, `batch` rows per statement, and returns how many.
 * A batch is chosen by the row's physical id (SQLite's rowid, PostgreSQL's ctid), so no table needs
 * its key listed here.
 */
export async function deleteInBatches(
  db: Db,
  table: keyof Database,
  ended: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>,
  batch = PURGE_BATCH,
): Promise<number> {
  const untyped = db as unknown as Untyped;
  const rowId = isPostgres(db) ? 'ctid' : 'rowid';
  let removed = 0;
  for (;;) {
    const chosen = untyped.selectFrom(table).select(rowId).where(ended).limit(batch);
    const count = Number((await untyped.deleteFrom(table).where(rowId, 'in', chosen).executeTakeFirst()).numDeletedRows);
    removed += count;
    if (count < batch) return removed;
    // Other work (requests, on SQLite's one connection and the event loop) goes between two batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Deletes the rows of every artefact table that stopped mattering before `cutoff`, in batches; how many each table lost. */
export async function purgeEndedArtefacts(db: Db, cutoff: string, batch = PURGE_BATCH): Promise<Record<ExpiringTable, number>> {
  const removed = {} as Record<ExpiringTable, number>;
  for (const [table, columns] of Object.entries(EXPIRING_ARTEFACTS) as [ExpiringTable, readonly string[]][]) {
    removed[table] = await deleteInBatches(db, table, (eb) => eb.or(columns.map((column) => eb(column, '<', cutoff))), batch);
  }
  return removed;
}
