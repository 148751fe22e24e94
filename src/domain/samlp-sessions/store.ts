/**
 * Storage of the SAML service providers each SSO session answered (for
 * single logout). Implemented by src/storage/kysely/samlp-sessions.ts; the
 * composition root builds one.
 */
import type { SamlpParticipantRow } from './rows.js';

export interface SamlpSessionStore {
  /** Records that the session answered the client, replacing an earlier record of the pair. Fails with a foreign-key violation on an unknown session or client. */
  record(row: SamlpParticipantRow): Promise<void>;
  /** Every client the session answered, oldest first. */
  listForSession(tenantId: string, sessionHash: string): Promise<SamlpParticipantRow[]>;
}
