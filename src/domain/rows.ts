/**
 * Rows of every table, as the stores read and write them. Each entity's rows
 * are in its folder beside its store (`domain/<entity>/rows.ts`); this module
 * only re-exports them, for the modules that name rows of several entities.
 * Booleans are integers (0/1) and timestamps ISO-8601 text in UTC, which
 * sorts correctly. JSON columns are typed values: the stores parse them on
 * the way out and serialise them on the way in (src/storage/json-columns.ts),
 * so nothing above storage parses JSON text.
 */
export type { JsonObject } from './json.js';
export type * from './tenants/rows.js';
export type * from './keys/rows.js';
export type * from './clients/rows.js';
export type * from './organizations/rows.js';
export type * from './roles/rows.js';
export type * from './groups/rows.js';
export type * from './guardian/rows.js';
export type * from './resource-servers/rows.js';
export type * from './client-grants/rows.js';
export type * from './connections/rows.js';
export type * from './risk-assessments/rows.js';
export type * from './users/rows.js';
export type * from './tickets/rows.js';
export type * from './device-credentials/rows.js';
export type * from './refresh-tokens/rows.js';
export type * from './sessions/rows.js';
export type * from './samlp-sessions/rows.js';
export type * from './authorize-transactions/rows.js';
export type * from './custom-domains/rows.js';
export type * from './pushed-requests/rows.js';
export type * from './client-credentials/rows.js';
export type * from './one-time-use/rows.js';
export type * from './authorization-codes/rows.js';
export type * from './consent-grants/rows.js';
export type * from './rbac/rows.js';
export type * from './mfa/rows.js';
export type * from './passwordless/rows.js';
export type * from './device-codes/rows.js';
export type * from './backchannel-logout/rows.js';
export type * from './backchannel-authentication/rows.js';
export type * from './jobs/rows.js';
export type * from './logs/rows.js';
export type * from './log-streams/rows.js';
export type * from './event-streams/rows.js';
export type * from './email/rows.js';
export type * from './branding/rows.js';
export type * from './actions/rows.js';
export type * from './token-exchange-profiles/rows.js';
export type * from './self-service/rows.js';
