/**
 * What Gatehouse answers for the service's Management API operations it does
 * not implement. By default the Management API's error shape, 404 with the
 * errorCode `not_available_in_gatehouse`: the status the service's tools read
 * as "this tenant does not have it" (auth0-deploy-cli skips a resource type on
 * 404 in nearly every handler; the SDK's NotFoundError), never confused with
 * the bare `Not Found` of a path that exists nowhere.
 *
 * A few operations answer otherwise, each for the reason written beside it:
 *
 * - `empty`: the list a tenant that never used the feature gets from the
 *   service. Rules, rules configs and hooks are deprecated: the service
 *   answers a tenant that never had them with empty lists (its OpenAPI
 *   document's shapes). The others are lists auth0-deploy-cli reads with no
 *   way to skip them (its handlers for forms, flows and flow vault
 *   connections throw on any error): Gatehouse has none of them,
 *   so the empty list is the true answer. Creating one is still refused as
 *   not available.
 * - `forbidden`: 403, the service's answer to a tenant without the feature's
 *   entitlement, where that is the only refusal the tool skips
 *   (bot detection, captcha).
 *
 * Only operations Gatehouse does not route reach this table: once an area
 * implements one of them, its own route answers instead.
 */
import { ManagementError } from '../../platform/http/errors.js';
import type { ServiceOperation } from './operations.js';

export type EmptyList =
  /** `[]`, or with include_totals `{<key>: [], start, limit, total: 0}`. */
  | { paging: 'offset'; key: string }
  /** `{<key>: [], total: 0, page, per_page}`: page-paged lists (none at present: GET /actions/actions is implemented). */
  | { paging: 'page'; key: string }
  /** `{<key>: []}`: checkpoint lists on their last page, and unpaged lists in an object. */
  | { paging: 'none'; key: string }
  /** `[]` (GET /rules-configs). */
  | { paging: 'array' };

export type Answer = { kind: 'empty'; list: EmptyList } | { kind: 'forbidden' } | { kind: 'not_available' };

const ANSWERS: ReadonlyMap<string, Answer> = new Map(Object.entries({
  // Deprecated: what a tenant that never used them gets.
  'GET /rules': { kind: 'empty', list: { paging: 'offset', key: 'rules' } },
  'GET /rules-configs': { kind: 'empty', list: { paging: 'array' } },
  'GET /hooks': { kind: 'empty', list: { paging: 'offset', key: 'hooks' } },
  // Read by auth0-deploy-cli with no way to skip: Gatehouse has none.
  'GET /forms': { kind: 'empty', list: { paging: 'offset', key: 'forms' } },
  'GET /flows': { kind: 'empty', list: { paging: 'offset', key: 'flows' } },
  'GET /flows/vault/connections': { kind: 'empty', list: { paging: 'offset', key: 'connections' } },
} satisfies Record<string, Answer>));

export function answerFor(operation: ServiceOperation): Answer {
  return ANSWERS.get(`${operation.method} ${operation.template}`) ?? { kind: 'not_available' };
}

/** The refusal of an operation Gatehouse does not implement; the template names it, never the request's own path. */
export function notAvailable(operation: ServiceOperation, status: 403 | 404): ManagementError {
  return new ManagementError(
    status,
    `This operation of the Management API is not available in Gatehouse: ${operation.method} /api/v2${operation.template}`,
    'not_available_in_gatehouse',
  );
}
