/**
 * Pages as the stores take and give them, for every list of the Management
 * API: an offset window (page × per_page, with the total when include_totals
 * asks for it) or a keyset page after a key, ascending (checkpoint paging:
 * the service layer fetches one row past the page to know whether a `next`
 * exists). src/management/lists.ts turns them into the service's shapes;
 * src/storage/paging.ts runs them.
 */

/** An offset window. */
export interface OffsetWindow {
  offset: number;
  limit: number;
  withTotal: boolean;
}

/** Rows whose key sorts after `after` (byte-wise), at most `limit`. */
export interface KeysetWindow {
  after?: string;
  limit: number;
}

export type PageQuery = ({ kind: 'offset' } & OffsetWindow) | ({ kind: 'keyset' } & KeysetWindow);

export interface Page<T> {
  rows: T[];
  /** Offset pages with `withTotal` only. */
  total?: number;
}
