/**
 * Storage of client grants.
 * Implemented by src/storage/kysely/client-grants.ts; the composition root builds one.
 */
import type { ClientGrantRow } from './model.js';
import type { Page, PageQuery } from '../paging.js';

export interface ClientGrantFilter {
  audience?: string;
  client_id?: string;
  allow_any_organization?: boolean;
  subject_type?: string;
  default_for?: string;
}

/** Storage of client grants. */
export interface ClientGrantStore {
  get(tenantId: string, id: string): Promise<ClientGrantRow | undefined>;
  /**
   * The grant that lets a client obtain tokens for an audience as itself
   * (subject_type `client`, the default) or on its users' behalf (`user`), or undefined.
   */
  findForClient(tenantId: string, clientId: string, audience: string, subjectType?: 'client' | 'user'): Promise<ClientGrantRow | undefined>;
  /** A page of grants matching the filter, ordered by id. */
  list(tenantId: string, filter: ClientGrantFilter, page: PageQuery): Promise<Page<ClientGrantRow>>;
  /** Fails with a unique violation for a second grant of one client, audience and subject type. */
  insert(row: ClientGrantRow): Promise<void>;
  update(tenantId: string, id: string, changes: Partial<ClientGrantRow>): Promise<boolean>;
  /** Whether any organization is linked to the grant. */
  hasOrganizations(tenantId: string, id: string): Promise<boolean>;
  /**
   * Deletes the grant and its organization links in one statement (the links
   * cascade, migration 0003); false when the grant does not exist.
   */
  delete(tenantId: string, id: string): Promise<boolean>;
}
