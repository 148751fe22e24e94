/**
 * Storage of connections and the clients they are enabled for.
 * Implemented by src/storage/kysely/connections.ts; the composition root builds one.
 */
import type { ConnectionRow } from './model.js';
import type { KeysetWindow, Page, PageQuery } from '../paging.js';

export interface ConnectionFilter {
  /** Any of these strategies. */
  strategies?: readonly string[];
  /** Exactly this name. */
  name?: string;
  /** Enabled for this client. */
  clientId?: string;
}

/** The mutable columns of a connection. */
export type ConnectionChanges = Partial<Pick<ConnectionRow, 'display_name' | 'options' | 'is_domain_connection' | 'show_as_button' | 'realms' | 'metadata' | 'updated_at'>>;

export interface ConnectionStore {
  get(tenantId: string, id: string): Promise<ConnectionRow | undefined>;
  /** Names are unique per tenant and compared exactly (case-sensitively), as the service does. */
  getByName(tenantId: string, name: string): Promise<ConnectionRow | undefined>;
  /** A page ordered by id (byte-wise on both databases); `withTotal` also counts every match. */
  list(tenantId: string, filter: ConnectionFilter, page: PageQuery): Promise<Page<ConnectionRow>>;
  /**
   * Inserts the connection and enables it for `enabledClients`, atomically. Fails with a
   * unique violation on a taken name, and with a foreign-key violation on a client that
   * does not exist (callers check first, to answer 404).
   */
  insert(row: ConnectionRow, enabledClients: readonly string[]): Promise<void>;
  /**
   * Applies the changed columns and, when `enabledClients` is given, replaces the set of
   * enabled clients with it, atomically; false when the connection does not exist.
   */
  update(tenantId: string, id: string, changes: ConnectionChanges, enabledClients?: readonly string[]): Promise<boolean>;
  /** Deletes the connection; its users and client links go with it (cascading foreign keys). False when it does not exist. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Ids of the clients the connection is enabled for, ordered by client_id; keyset-paged when `page` is given. */
  enabledClients(tenantId: string, connectionId: string, page?: KeysetWindow): Promise<string[]>;
  /** Enables (`status: true`) or disables each client for the connection, atomically; idempotent per client. */
  setClientStatus(tenantId: string, connectionId: string, changes: readonly { client_id: string; status: boolean }[]): Promise<void>;
  /** The connections enabled for a client, ordered by name: what its login page offers. */
  enabledForClient(tenantId: string, clientId: string): Promise<ConnectionRow[]>;
  /** Which of `clientIds` are clients of the tenant. */
  existingClients(tenantId: string, clientIds: readonly string[]): Promise<Set<string>>;
}
