/**
 * The shapes of Management API lists, built once for every list operation on
 * top of src/management/paging.ts:
 *
 * - offset: a plain array, or `{<items>, start, limit, total}` with
 *   include_totals (the key order recorded from the service, e.g.
 *   `{"roles":[…],"start":0,"limit":50,"total":1}`);
 * - checkpoint: `{<items>, next?}`, `next` absent on the last page (the SDK
 *   stops when it is absent or empty).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { CheckpointPagingQuery, OffsetPagingQuery, parsePaging, sealCheckpoint, type Paging } from './paging.js';
import type { SecretBox } from '../platform/crypto/secret-box.js';
import type { KeysetWindow, OffsetWindow, Page, PageQuery } from '../domain/paging.js';

/** What sealing and opening checkpoints takes: the secret box, and the clock that dates them. */
export interface CheckpointSealing {
  readonly box: SecretBox;
  readonly now: () => number;
}

/** Query properties of offset paging, for a route's querystring schema. */
export const OffsetQuery = {
  per_page: Type.Optional(OffsetPagingQuery.per_page),
  page: Type.Optional(OffsetPagingQuery.page),
  include_totals: Type.Optional(OffsetPagingQuery.include_totals),
};

/** Query properties of checkpoint paging. `take` is capped at 100 (spec, Limits) where the document gives no maximum. */
export const CheckpointQuery = {
  from: Type.Optional(CheckpointPagingQuery.from),
  take: Type.Optional(CheckpointPagingQuery.take),
};

function offsetShapes(key: string, item: TSchema): TSchema[] {
  return [
    Type.Array(item),
    Type.Object({ [key]: Type.Array(item), start: Type.Number(), limit: Type.Number(), total: Type.Number() }, { additionalProperties: false }),
  ];
}

/** 200 of an offset-paged list. */
export function offsetListResponse(key: string, item: TSchema): TSchema {
  return Type.Union(offsetShapes(key, item));
}

/** 200 of a checkpoint-paged list. */
export function checkpointListResponse(key: string, item: TSchema): TSchema {
  return Type.Object({ [key]: Type.Array(item), next: Type.Optional(Type.String()) }, { additionalProperties: false });
}

/** 200 of a list offering both. */
export function pagedListResponse(key: string, item: TSchema): TSchema {
  return Type.Union([...offsetShapes(key, item), checkpointListResponse(key, item)]);
}

export interface OffsetPage {
  page: number;
  perPage: number;
  includeTotals: boolean;
}

export type OffsetList<K extends string, T> = T[] | ({ [P in K]: T[] } & { start: number; limit: number; total: number });
export type CheckpointList<K extends string, T> = { [P in K]: T[] } & { next?: string };

/** The store's offset window for a page. */
/** Offset paging of operations that offer only it: page 0, 50 per page, a plain array unless include_totals. */
export function offsetPaging(query: { page?: number; per_page?: number; include_totals?: boolean }): OffsetPage {
  return { page: query.page ?? 0, perPage: query.per_page ?? 50, includeTotals: query.include_totals === true };
}

export function offsetWindow(page: OffsetPage): OffsetWindow {
  return { offset: page.page * page.perPage, limit: page.perPage, withTotal: page.includeTotals };
}

/** An offset page as the service returns it. */
export function offsetList<K extends string, T>(key: K, items: T[], page: OffsetPage, total: number | undefined): OffsetList<K, T> {
  if (!page.includeTotals) return items;
  return { [key]: items, start: page.page * page.perPage, limit: page.perPage, total: total ?? 0 } as OffsetList<K, T>;
}

/**
 * A checkpoint page from rows fetched one past it (limit `take + 1`): `next`
 * seals the last key of the page when there is more, and is left out on the
 * last page.
 */
export function checkpointList<K extends string, R, T>(
  ctx: CheckpointSealing,
  scope: string,
  key: K,
  rows: R[],
  take: number,
  keyOf: (row: R) => string,
  toApi: (row: R) => T,
): CheckpointList<K, T> {
  const page = rows.slice(0, take);
  const result = { [key]: page.map(toApi) } as CheckpointList<K, T>;
  if (rows.length > take) result.next = sealCheckpoint(ctx.box, scope, keyOf(page.at(-1)!), ctx.now());
  return result;
}

/** Paging of operations that offer only checkpoints: `take` defaults to 50, `from` is opened for `scope`. */
export function checkpointPaging(ctx: CheckpointSealing, query: { from?: string; take?: number }, scope: string): { after: string | undefined; take: number } {
  const paging = parsePaging({ ...(query.from !== undefined && { from: query.from }), take: query.take ?? 50 }, ctx.box, scope, ctx.now());
  if (paging.kind !== 'checkpoint') throw new Error('unreachable: take is always set');
  return paging;
}


/** The keyset page that tells whether a checkpoint page has a next one: one row past it. */
export function keysetWindow(page: { after: string | undefined; take: number }): KeysetWindow {
  return { ...(page.after !== undefined && { after: page.after }), limit: page.take + 1 };
}

/** A checkpoint-only list: fetches one row past the page and shapes it. */
export async function checkpointPage<K extends string, R, T>(
  ctx: CheckpointSealing,
  scope: string,
  key: K,
  page: { after: string | undefined; take: number },
  fetch: (window: KeysetWindow) => Promise<R[]>,
  keyOf: (row: R) => string,
  toApi: (row: R) => T,
): Promise<CheckpointList<K, T>> {
  return checkpointList(ctx, scope, key, await fetch(keysetWindow(page)), page.take, keyOf, toApi);
}

/** A list offering both paging styles: the store page for `paging`, and the result shaped as `paging` asks. */
export async function pagedList<K extends string, R, T>(
  ctx: CheckpointSealing,
  scope: string,
  key: K,
  paging: Paging,
  fetch: (page: PageQuery) => Promise<Page<R>>,
  keyOf: (row: R) => string,
  toApi: (row: R) => T,
): Promise<OffsetList<K, T> | CheckpointList<K, T>> {
  if (paging.kind === 'checkpoint') {
    const { rows } = await fetch({ kind: 'keyset', ...keysetWindow(paging) });
    return checkpointList(ctx, scope, key, rows, paging.take, keyOf, toApi);
  }
  const { rows, total } = await fetch({ kind: 'offset', ...offsetWindow(paging) });
  return offsetList(key, rows.map(toApi), paging, total);
}
