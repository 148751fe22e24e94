/**
 * Storage of resource servers (APIs).
 * Implemented by src/storage/kysely/resource-servers.ts; the composition root builds one.
 */
import type { ResourceServerRow } from './model.js';
import type { OffsetWindow, Page } from '../paging.js';

/** Storage of resource servers (APIs). */
export interface ResourceServerStore {
  get(tenantId: string, id: string): Promise<ResourceServerRow | undefined>;
  /** By `identifier`, the audience value tokens carry. */
  getByIdentifier(tenantId: string, identifier: string): Promise<ResourceServerRow | undefined>;
  /**
   * A page in creation order. `identifiers` narrows to those identifiers; `withTotal`
   * also counts every match.
   */
  list(
    tenantId: string,
    query: OffsetWindow & { identifiers?: string[] },
  ): Promise<Page<ResourceServerRow>>;
  /** Fails with a unique violation when the identifier is taken. */
  insert(row: ResourceServerRow): Promise<void>;
  /** Applies the changed columns; false when the row does not exist. */
  update(tenantId: string, id: string, changes: Partial<ResourceServerRow>): Promise<boolean>;
  /**
   * Deletes the resource server with the client grants for its identifier and
   * every role and user permission naming it, atomically.
   */
  delete(tenantId: string, id: string): Promise<boolean>;
}
