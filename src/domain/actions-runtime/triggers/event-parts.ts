/**
 * Parts of the events several triggers share (actions-wire-notes §2.3–§2.7):
 * the user as the event shows it (never a password hash), the request, the tenant.
 */
import type { UserRow } from '../../users/rows.js';

/** `event.user` from a user row: the profile, metadata, identities; no credentials. */
export function eventUser(row: UserRow, connection: { name: string; strategy: string }): Record<string, unknown> {
  const [provider, ...rest] = row.user_id.split('|');
  const optional = (value: string | null) => value ?? undefined;
  return {
    user_id: row.user_id,
    email: optional(row.email),
    email_verified: row.email_verified === 1,
    username: optional(row.username),
    phone_number: optional(row.phone_number),
    phone_verified: row.phone_verified === 1,
    name: optional(row.name),
    given_name: optional(row.given_name),
    family_name: optional(row.family_name),
    nickname: optional(row.nickname),
    picture: optional(row.picture),
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_password_reset: optional(row.last_password_reset),
    app_metadata: row.app_metadata ?? {},
    user_metadata: row.user_metadata ?? {},
    identities: [{ connection: connection.name, provider: provider === 'auth0' ? 'auth0' : connection.strategy, user_id: rest.join('|'), isSocial: false }],
    multifactor: [],
  };
}

/** `event.request`: what the flow knows of the HTTP request (no headers, no cookies). */
export interface EventRequest {
  ip: string;
  method: string;
  hostname?: string;
  user_agent?: string;
  language?: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** The request's body and query as an action sees them: credentials removed. */
export function withoutSecrets(values: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (/pass(word)?|secret|token|assertion|^code$|code_verifier|otp|recovery|client_assertion/i.test(key)) continue;
    out[key] = value;
  }
  return out;
}
