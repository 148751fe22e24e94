/**
 * Storage of clients' registered public keys and certificates
 * (private_key_jwt, mTLS, signed request objects).
 * Implemented by src/storage/kysely/client-credentials.ts; the composition root builds one.
 */
import type { ClientCredentialRow } from './rows.js';

export interface ClientCredentialStore {
  /** Stores a new credential. Fails with a unique violation on a taken id or a `kid` the client already has, a foreign-key violation on an unknown client. */
  insert(row: ClientCredentialRow): Promise<void>;
  /** The client's credentials, oldest first. */
  list(tenantId: string, clientId: string): Promise<ClientCredentialRow[]>;
  get(tenantId: string, clientId: string, id: string): Promise<ClientCredentialRow | undefined>;
  /** Sets `expires_at` (null: never) and `updated_at`; undefined when there is no such credential. */
  updateExpiry(tenantId: string, clientId: string, id: string, expiresAt: string | null, updatedAt: string): Promise<ClientCredentialRow | undefined>;
  /** False when there was no such credential. */
  delete(tenantId: string, clientId: string, id: string): Promise<boolean>;
}
