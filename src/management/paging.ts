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
 */
import { Type } from '@sinclair/typebox';
import type { SecretBox } from '../crypto/secret-box.js';
import { ManagementError } from '../http/errors.js';

export const CHECKPOINT_TTL_MS = 24 * 60 * 60 * 1000;

export const OffsetPagingQuery = {
  page: Type.Integer({ minimum: 0, description: 'Page index of the results to return. First page is 0.' }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, description: 'Number of results per page. Defaults to 50.' }),
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
