/**
 * Storage of users' consent grants (what a user let a client have for an API).
 * Implemented by src/storage/kysely/consent-grants.ts; the composition root builds one.
 */
import type { ConsentGrantRow } from './model.js';

/** The list filters of GET /grants; each is an exact match. */
export interface ConsentGrantFilter {
  user_id?: string;
  client_id?: string;
  audience?: string;
}

export interface ConsentGrantStore {
  /** The scopes the user granted the client for the audience, or undefined when there is no grant. */
  scopesFor(tenantId: string, userId: string, clientId: string, audience: string): Promise<string[] | undefined>;
  /**
   * Adds `scopes` to the user's grant for (client, audience), creating it
   * (with a new id, `created_at` and `updated_at` = `now`) when there is none;
   * new scopes go after those already granted, duplicates are dropped. Moves
   * `updated_at` to `now` only when a scope was added. Atomic under
   * concurrency. Returns the resulting row. Fails with a foreign-key violation
   * for an unknown user or client.
   */
  grant(tenantId: string, userId: string, clientId: string, audience: string, scopes: readonly string[], now: string): Promise<ConsentGrantRow>;
  /** A page (`page` from 0) of the grants matching the filter, in id order, and how many match in all. */
  list(tenantId: string, filter: ConsentGrantFilter, page: { page: number; perPage: number }): Promise<{ rows: ConsentGrantRow[]; total: number }>;
  /** Deletes the grant; false when the tenant has none with that id. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Deletes every grant of the user; returns how many there were. */
  deleteByUser(tenantId: string, userId: string): Promise<number>;
}
