/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** The clients an SSO session issued tokens to (migration 0042). */
export interface SessionClientRow {
  tenant_id: string;
  /** The session's `id_hash` (the ID tokens' `sid`). */
  session_id: string;
  client_id: string;
  created_at: string;
}

/** Why a session ended, in the service's words (`backchannel_logout_initiators`). */
export type LogoutInitiator = 'rp-logout' | 'idp-logout' | 'password-changed' | 'session-expired' | 'session-revoked' | 'account-deleted';

/** A queued back-channel logout notification (migration 0042). */
export interface BackchannelLogoutDeliveryRow {
  tenant_id: string;
  /** `bcl_…` */
  id: string;
  client_id: string;
  url: string;
  sid: string;
  sub: string;
  initiator: LogoutInitiator;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  delivered_at: string | null;
  gave_up_at: string | null;
  last_error: string | null;
}
