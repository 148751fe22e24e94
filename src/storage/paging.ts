/**
 * The one page query of the stores (src/domain/paging.ts): an offset window
 * or a keyset page over a filtered query, and its count.
 */
import type { SelectQueryBuilder, StringReference } from 'kysely';
import type { Page, PageQuery } from '../domain/paging.js';
import { fromStored, type JsonTable } from './json-columns.js';

/** How many rows a filtered query matches (PostgreSQL answers counts as strings). */
export async function countRows<DB, TB extends keyof DB, O>(base: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = (await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow()) as { n: string | number | bigint };
  return Number(row.n);
}

export interface PageOptions<DB, TB extends keyof DB, O> {
  /** The order of offset pages when it is not the key's (a keyset page is always ordered by its key). */
  order?: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, O>;
  /** How the total is counted, when not by counting `base`. */
  count?: () => Promise<number>;
}

/**
 * One page of `base` (filtered, not yet ordered; `select` picks its
 * columns), ordered by `key` ascending: from an offset, with the total when
 * asked, or after a key.
 */
export async function fetchPage<DB, TB extends keyof DB, B, O>(
  base: SelectQueryBuilder<DB, TB, B>,
  select: (query: SelectQueryBuilder<DB, TB, B>) => SelectQueryBuilder<DB, TB, O>,
  key: StringReference<DB, TB>,
  page: PageQuery,
  options: PageOptions<DB, TB, NoInfer<O>> = {},
): Promise<Page<O>> {
  if (page.kind === 'keyset') {
    const after = page.after === undefined ? base : base.where(key, '>', page.after as never);
    return { rows: await select(after).orderBy(key).limit(page.limit).execute() };
  }
  const selected = select(base);
  const ordered = options.order ? options.order(selected) : selected.orderBy(key);
  const rows = await ordered.offset(page.offset).limit(page.limit).execute();
  if (!page.withTotal) return { rows };
  return { rows, total: await (options.count ? options.count() : countRows(base)) };
}

/** A page of a table with JSON columns, parsed. */
export async function parsedPage<T extends JsonTable, R extends object>(table: T, page: Promise<Page<R>>): Promise<Page<ReturnType<typeof fromStored<T, R>>>> {
  const { rows, total } = await page;
  const parsed = rows.map((row) => fromStored(table, row));
  return total === undefined ? { rows: parsed } : { rows: parsed, total };
}
