/**
 * Storage of directory provisioning configurations, their selected groups
 * and the users they synchronized. Implemented by
 * src/storage/kysely/directory-provisioning.ts.
 */
import type { KeysetWindow } from '../paging.js';
import type { DirectoryProvisioningRow, DirectoryUserRow } from './rows.js';

export type DirectoryProvisioningChanges = Partial<Pick<DirectoryProvisioningRow, 'mapping' | 'synchronize_automatically' | 'synchronize_groups' | 'updated_at'>>;

export type SynchronizationState = Pick<DirectoryProvisioningRow, 'last_synchronization_at' | 'last_synchronization_status' | 'last_synchronization_error'> & {
  last_synchronization_id?: string;
};

export interface DirectoryProvisioningStore {
  get(tenantId: string, connectionId: string): Promise<DirectoryProvisioningRow | undefined>;
  /** The tenant's configurations by connection id after `window.after`, with their connection's name and strategy. */
  list(tenantId: string, window: KeysetWindow): Promise<(DirectoryProvisioningRow & { connection_name: string; strategy: string })[]>;
  /** False when the connection already has one (nothing written). */
  insert(row: DirectoryProvisioningRow): Promise<boolean>;
  /** False when there is none. */
  update(tenantId: string, connectionId: string, changes: DirectoryProvisioningChanges): Promise<boolean>;
  /** The configuration, its selected groups and its record of synchronized users; false when there was none. */
  delete(tenantId: string, connectionId: string): Promise<boolean>;
  /** Records the state of a synchronization (its job id when it is requested). */
  setSynchronization(tenantId: string, connectionId: string, state: SynchronizationState): Promise<void>;
  /** Whether a `directory_sync` job of the connection is queued or running (the `jobs` table). */
  synchronizationQueued(tenantId: string, connectionId: string): Promise<boolean>;
  /** Configurations with `synchronize_automatically` whose last synchronization is older than `before` (or never ran), at most `limit`. */
  dueForAutomatic(before: string, limit: number): Promise<Pick<DirectoryProvisioningRow, 'tenant_id' | 'connection_id'>[]>;

  /** The selected group ids, by id after `window.after`. */
  listGroups(tenantId: string, connectionId: string, window: KeysetWindow): Promise<string[]>;
  /** Replaces the selected group ids (two statements: run it in a unit of work). */
  replaceGroups(tenantId: string, connectionId: string, groupIds: readonly string[]): Promise<void>;

  /** The record of a synchronized user: written (or its run moved on) each time a run sees them. */
  putUser(row: DirectoryUserRow): Promise<void>;
  getUser(tenantId: string, userId: string): Promise<DirectoryUserRow | undefined>;
  /** Users of the connection's record that the run `synchronizationId` did not see, by user id after `window.after`. */
  usersNotSeen(tenantId: string, connectionId: string, synchronizationId: string, window: KeysetWindow): Promise<DirectoryUserRow[]>;
}
