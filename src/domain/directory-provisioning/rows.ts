/**
 * Inbound directory provisioning of a connection, as stored (migration 0270):
 * its configuration (one per connection, the service's
 * `/connections/{id}/directory-provisioning`), the groups it synchronizes when
 * `synchronize_groups` is `selected`, and the directory users it wrote (so that
 * one absent from a complete listing is blocked).
 */

/** One pair of the mapping (`{auth0, idp}`, the service's `DirectoryProvisioningMappingItem`). */
export interface DirectoryMappingItem {
  auth0: string;
  idp: string;
}

export const SYNCHRONIZE_GROUPS = ['all', 'off', 'selected'] as const;
export type SynchronizeGroups = (typeof SYNCHRONIZE_GROUPS)[number];

/** `pending` (queued), `running`, `completed`, `failed`: the last synchronization's status. */
export type SynchronizationStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface DirectoryProvisioningRow {
  tenant_id: string;
  connection_id: string;
  mapping: DirectoryMappingItem[];
  /** 0/1. */
  synchronize_automatically: number;
  synchronize_groups: SynchronizeGroups;
  created_at: string;
  updated_at: string;
  /** The job (`directory_sync`) of the last synchronization requested. */
  last_synchronization_id: string | null;
  last_synchronization_at: string | null;
  last_synchronization_status: SynchronizationStatus | null;
  last_synchronization_error: string | null;
}

/** A directory user a synchronization wrote: the Gatehouse user, the directory's id, the run that last saw them. */
export interface DirectoryUserRow {
  tenant_id: string;
  connection_id: string;
  user_id: string;
  directory_id: string;
  synchronization_id: string;
  /** 1 when the directory's state (suspended, archived, absent) blocked the user: only such a block is lifted when the directory reactivates them. */
  blocked_by_directory: number;
}
