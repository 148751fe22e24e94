/**
 * Paging of Management API lists, both styles the service offers:
 *
 * - offset: `page` (from 0), `per_page`, `include_totals` → a plain array, or
 *   `{total, start, limit, <items>}` with totals;
 * - checkpoint: `from` / `take` → `{<items>, next?}`. When `from` or `take` is
 *   present it wins over the offset parameters (the official SDK always sends
 *   `page`, `per_page` and `include_totals`). `next` is opaque, valid for 24
 *   hours, and absent on the last page.
 *
 * Checkpoints are keyset cursors (the last id of the page), sealed with the
 * master key so they are opaque and cannot be forged or replayed after expiry.
 *
 * Offset paging is bounded here, for every list: a page index is an integer
 * from 0 to MAX_PAGE, and `per_page` at most MAX_PER_PAGE, so the offset
 * `page × per_page` a list reads from is at most MAX_OFFSET (100,000). Without
 * the bound `page=1e20` or `per_page=100&page=92233720368547758` overflowed
 * the databases' 64-bit OFFSET and answered 500. The service's document gives
 * `page` the maximum 1000 on some lists (/organizations, /flows, /forms,
 * organization members) and none on the others; Gatehouse applies it to all,
 * which leaves 100,000 entries reachable by offset (checkpoint paging, where a
 * list offers it, has no such limit). GET /users keeps the service's stricter
 * rule on top: only the first 1000 records (USERS_OFFSET_LIMIT).
 */
import { Type } from '@sinclair/typebox';
import type { SecretBox } from '../platform/crypto/secret-box.js';
import { ManagementError, managementErrors } from '../platform/http/errors.js';

export const CHECKPOINT_TTL_MS = 24 * 60 * 60 * 1000;

/** The highest page index of offset paging (see above). */
export const MAX_PAGE = 1000;
/** The largest page of any list. */
export const MAX_PER_PAGE = 100;
/** The furthest offset paging reaches: MAX_PAGE × MAX_PER_PAGE. */
export const MAX_OFFSET = MAX_PAGE * MAX_PER_PAGE;

/** GET /users pages through the first 1000 users only, as the service does. */
export const USERS_OFFSET_LIMIT = 1000;

export const OffsetPagingQuery = {
  page: Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Page index of the results to return. First page is 0.' }),
  per_page: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: 'Number of results per page. Defaults to 50.' }),
  include_totals: Type.Boolean({
    description: 'Return results inside an object that contains the total result count (true) or as a direct array of results (false, default).',
  }),
};

export const CheckpointPagingQuery = {
  from: Type.String({ description: 'Optional Id from which to start selection.' }),
  take: Type.Integer({ minimum: 1, maximum: 100, description: 'Number of results per page. Defaults to 50.' }),
};

export type Paging =
  | { kind: 'offset'; page: number; perPage: number; includeTotals: boolean }
  | { kind: 'checkpoint'; after: string | undefined; take: number };

export interface PagingInput {
  page?: number;
  per_page?: number;
  include_totals?: boolean;
  from?: string;
  take?: number;
}

/** Which paging style a request asked for, with its parameters. */
export function parsePaging(query: PagingInput, box: SecretBox, scope: string, now: number, defaultPerPage = 50): Paging {
  if (query.from !== undefined || query.take !== undefined) {
    return { kind: 'checkpoint', after: query.from ? openCheckpoint(box, scope, query.from, now) : undefined, take: query.take ?? 50 };
  }
  return { kind: 'offset', page: query.page ?? 0, perPage: query.per_page ?? defaultPerPage, includeTotals: query.include_totals === true };
}

/**
 * The service's rule for offset paging limited to the first `limit` records:
 * page N of RPP records is refused when N × RPP + RPP > limit, whether or
 * not that many records exist (the service's support article "Unable to
 * paginate more than 1000 records"; the /users wording is in
 * managementErrors.pagingLimit).
 */
export function checkOffsetWindow(page: number, perPage: number, limit: number): void {
  if (page * perPage + perPage > limit) throw managementErrors.pagingLimit(limit);
}

function invalidFrom(): ManagementError {
  return new ManagementError(
    400,
    "Query validation error: 'Invalid or expired checkpoint' on property from (Optional Id from which to start selection).",
    'invalid_query_string',
  );
}

/** An opaque `next` value for the page that ended at `lastKey`. */
export function sealCheckpoint(box: SecretBox, scope: string, lastKey: string, now: number): string {
  return box.seal(JSON.stringify({ k: lastKey, t: now }), `checkpoint:${scope}`);
}

function openCheckpoint(box: SecretBox, scope: string, from: string, now: number): string {
  let parsed: { k?: unknown; t?: unknown };
  try {
    parsed = JSON.parse(box.openString(from, `checkpoint:${scope}`)) as { k?: unknown; t?: unknown };
  } catch {
    throw invalidFrom();
  }
  if (typeof parsed.k !== 'string' || typeof parsed.t !== 'number' || now - parsed.t > CHECKPOINT_TTL_MS) throw invalidFrom();
  return parsed.k;
}
