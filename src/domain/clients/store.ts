/**
 * Storage of clients, as the Management API and token issuance need it.
 * Implemented by src/storage/kysely/clients.ts; the composition root builds one.
 */
import type { ClientRow } from './rows.js';
import type { KeysetWindow, OffsetWindow } from '../paging.js';

/** The list filters of GET /clients. */
export interface ClientFilter {
  global?: boolean;
  isFirstParty?: boolean;
  /** Any of these app types. */
  appTypes?: readonly string[];
  externalClientId?: string;
  /** Only these clients (the result of a `q` query). */
  clientIds?: readonly string[];
}

export type ClientPageQuery =
  /** Offset page; with `from`, counted from that client_id (inclusive) instead of the start. */
  | ({ kind: 'offset'; from?: string } & Omit<OffsetWindow, 'withTotal'>)
  /** Keyset page: client_ids greater than `after`, ascending. */
  | ({ kind: 'keyset' } & KeysetWindow);

/** A listed client: what a list response needs, the sealed secret only when asked for. */
export type ListedClient = Pick<ClientRow, 'client_id' | 'global' | 'config'> & { client_secret_enc?: string | null };

/** Storage of clients (applications). */
export interface ClientStore {
  /** The client, or undefined when the tenant has none with that id. */
  get(tenantId: string, clientId: string): Promise<ClientRow | undefined>;
  /** The client registered from the Client ID Metadata Document at that URL (unique per tenant, migration 0260), or undefined. */
  getByExternalClientId(tenantId: string, externalClientId: string): Promise<ClientRow | undefined>;
  /** Inserts a client and counts it; fails (unique violation) on a duplicate (tenant, client_id) or (tenant, external_client_id). */
  insert(row: ClientRow): Promise<void>;
  /** Replaces the given columns, keeping the counts right; false when the client does not exist. */
  update(tenantId: string, clientId: string, changes: Partial<ClientRow>): Promise<boolean>;
  /** Deletes the client and its client grants (their organization links cascade), atomically; false when absent. */
  delete(tenantId: string, clientId: string): Promise<boolean>;
  /**
   * A page of clients matching the filter, ordered by client_id (byte-wise).
   * Reads the sealed secret column only when `withSecret` is set.
   */
  list(tenantId: string, filter: ClientFilter, page: ClientPageQuery, withSecret: boolean): Promise<ListedClient[]>;
  /**
   * How many clients match. Filters on global, first party and app type are
   * answered from the per-tenant counts table, without counting rows.
   */
  count(tenantId: string, filter: ClientFilter): Promise<number>;
  /**
   * The `client_grant.allow_any_organization:true` query of GET /clients: ids
   * (ascending, greater than `after`, at most `limit`) of clients with a client
   * grant allowing any organization, read from the grants' index.
   */
  idsWithAnyOrganizationGrant(tenantId: string, after: string | undefined, limit: number): Promise<string[]>;
}

/**
 * Where deep offset pages of a tenant's clients start: the client_id at every
 * 1,000th position per filter, cached and dropped on client writes
 * (src/storage/kysely/client-offset-anchors.ts).
 */
export interface ClientOffsetAnchors {
  /** The anchor at or before `offset` (undefined for the first block) and the remaining offset from there. */
  start(tenantId: string, filter: ClientFilter, offset: number): Promise<{ from?: string; offset: number }>;
  /** Drops the tenant's anchors (its clients changed). */
  invalidateTenant(tenantId: string): void;
}
