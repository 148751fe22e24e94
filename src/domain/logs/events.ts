/**
 * The service's log event types that Gatehouse records, their descriptions,
 * and the category each belongs to (the log streams' `filters`, the
 * service's `LogStreamFilterGroupNameEnum`). An event is the Log schema of
 * the Management API document less `log_id` and `date`, which the recorder
 * adds (./tenant-logs.ts).
 *
 * Never a secret in an event: `details` is cleaned of every member whose
 * name says it carries one (passwords, client secrets and assertions,
 * tokens, codes, authorization headers), at any depth, before it is buffered.
 */
import type { TenantLogRow } from '../rows.js';
export const LOG_TYPES = {
  s: { description: 'Success Login', category: 'auth.login.success' },
  f: { description: 'Failed Login', category: 'auth.login.fail' },
  fp: { description: 'Failed Login (Incorrect Password)', category: 'auth.login.fail' },
  fu: { description: 'Failed Login (Invalid Email/Username)', category: 'auth.login.fail' },
  limit_wc: { description: 'Blocked Account', category: 'auth.login.fail' },
  seccft: { description: 'Success Exchange (Client Credentials for Access Token)', category: 'auth.token_exchange.success' },
  feccft: { description: 'Failed Exchange (Client Credentials for Access Token)', category: 'auth.token_exchange.fail' },
  sertft: { description: 'Success Exchange (Refresh Token for Access Token)', category: 'auth.token_exchange.success' },
  fertft: { description: 'Failed Exchange (Refresh Token for Access Token)', category: 'auth.token_exchange.fail' },
  seacft: { description: 'Success Exchange (Authorization Code for Access Token)', category: 'auth.token_exchange.success' },
  feacft: { description: 'Failed Exchange (Authorization Code for Access Token)', category: 'auth.token_exchange.fail' },
  sepft: { description: 'Success Exchange (Password for Access Token)', category: 'auth.token_exchange.success' },
  fepft: { description: 'Failed Exchange (Password for Access Token)', category: 'auth.token_exchange.fail' },
  sede: { description: 'Success Exchange (Device Code for Access Token)', category: 'auth.token_exchange.success' },
  fede: { description: 'Failed Exchange (Device Code for Access Token)', category: 'auth.token_exchange.fail' },
  sepotpft: { description: 'Success Exchange (Passwordless OTP for Access Token)', category: 'auth.token_exchange.success' },
  fepotpft: { description: 'Failed Exchange (Passwordless OTP for Access Token)', category: 'auth.token_exchange.fail' },
  seotpft: { description: 'Success Exchange (Password and OTP Challenge for Access Token)', category: 'auth.token_exchange.success' },
  feotpft: { description: 'Failed Exchange (Password and OTP Challenge for Access Token)', category: 'auth.token_exchange.fail' },
  seoobft: { description: 'Success Exchange (Password and OOB Challenge for Access Token)', category: 'auth.token_exchange.success' },
  feoobft: { description: 'Failed Exchange (Password and OOB Challenge for Access Token)', category: 'auth.token_exchange.fail' },
  sercft: { description: 'Success Exchange (Password and MFA Recovery code for Access Token)', category: 'auth.token_exchange.success' },
  fercft: { description: 'Failed Exchange (Password and MFA Recovery code for Access Token)', category: 'auth.token_exchange.fail' },
  slo: { description: 'Success Logout', category: 'auth.logout.success' },
  flo: { description: 'Failed Logout', category: 'auth.logout.fail' },
  ss: { description: 'Success Signup', category: 'auth.signup.success' },
  fs: { description: 'Failed Signup', category: 'auth.signup.fail' },
  scp: { description: 'Success Change Password', category: 'user.success' },
  fcp: { description: 'Failed Change Password', category: 'user.fail' },
  scpr: { description: 'Success Change Password Request', category: 'user.success' },
  fcpr: { description: 'Failed Change Password Request', category: 'user.fail' },
  sapi: { description: 'Success API Operation', category: 'management.success' },
  fapi: { description: 'Failed API Operation', category: 'management.fail' },
  actions_execution_failed: { description: 'Execution of an Action failed', category: 'actions' },
} as const satisfies Record<string, { description: string; category: string }>;

export type LogType = keyof typeof LOG_TYPES;

/** Whether the event's type is one of LOG_TYPES (own members only: `constructor` is not a type). */
export function isLogType(type: unknown): type is LogType {
  return typeof type === 'string' && Object.hasOwn(LOG_TYPES, type);
}

/** The types of a category (stream filters). */
export function typesOfCategories(categories: readonly string[]): string[] {
  const wanted = new Set(categories);
  return Object.entries(LOG_TYPES)
    .filter(([, info]) => wanted.has(info.category))
    .map(([type]) => type);
}

/** What a place that decides an outcome tells the log; `description` defaults to the type's. */
export interface LogEvent {
  type: LogType;
  description?: string;
  client_id?: string | undefined;
  client_name?: string | undefined;
  ip?: string | undefined;
  user_agent?: string | undefined;
  user_id?: string | undefined;
  user_name?: string | undefined;
  connection?: string | undefined;
  connection_id?: string | undefined;
  strategy?: string | undefined;
  strategy_type?: string | undefined;
  audience?: string | undefined;
  scope?: string | undefined;
  hostname?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** Longest kept value of a string field; longer ones are cut (bounded before storage). */
export const MAX_FIELD_LENGTH = 512;
const MAX_DETAILS_LENGTH = 4096;
const MAX_DETAILS_DEPTH = 4;

/** Member names that may carry a secret: dropped from `details` wherever they appear. */
const SECRET_NAME = /pass(word)?|secret|token|assertion|authorization|cookie|^code$|code_verifier|otp|recovery|private|credential|ticket|key$/i;

export function cut(value: string | undefined, max = MAX_FIELD_LENGTH): string | null {
  if (value === undefined || value === '') return null;
  return value.length > max ? value.slice(0, max) : value;
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > MAX_FIELD_LENGTH ? value.slice(0, MAX_FIELD_LENGTH) : value;
  if (typeof value !== 'object' || value === null) return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  if (depth >= MAX_DETAILS_DEPTH) return undefined;
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value).slice(0, 30)) {
    if (SECRET_NAME.test(name)) continue;
    const cleaned = clean(member, depth + 1);
    if (cleaned !== undefined) out[name] = cleaned;
  }
  return out;
}

/** `details` without secrets, bounded in depth, width and size; null when empty. */
export function cleanDetails(details: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!details) return null;
  const cleaned = clean(details, 0) as Record<string, unknown>;
  if (Object.keys(cleaned).length === 0) return null;
  return JSON.stringify(cleaned).length > MAX_DETAILS_LENGTH ? { truncated: true } : cleaned;
}

/** The members of an event as the service shows it (the Log schema), in its order. */
export const LOG_FIELDS = [
  'date', 'type', 'description', 'connection', 'connection_id', 'client_id', 'client_name', 'ip', 'hostname', 'user_id',
  'user_name', 'audience', 'scope', 'strategy', 'strategy_type', 'log_id', 'details', 'user_agent',
] as const;

/** An event as the service shows it (GET /logs, log streams): members without a value left out. */
export function logView(row: Pick<TenantLogRow, (typeof LOG_FIELDS)[number]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of LOG_FIELDS) {
    const value = row[field];
    if (value !== null && value !== undefined) out[field] = value;
  }
  return out;
}
