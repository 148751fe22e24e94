/** Storage of self-service profiles and their SSO tickets (src/storage/kysely/self-service.ts). */
import type { OffsetWindow, Page } from '../paging.js';
import type { SelfServiceProfileRow, SsoTicketRow } from './rows.js';

export interface SelfServiceStore {
  getProfile(tenantId: string, id: string): Promise<SelfServiceProfileRow | undefined>;
  /** The tenant's profiles by creation time. */
  listProfiles(tenantId: string, page: OffsetWindow): Promise<Page<SelfServiceProfileRow>>;
  countProfiles(tenantId: string): Promise<number>;
  insertProfile(row: SelfServiceProfileRow): Promise<void>;
  /** false when there is no such profile. */
  updateProfile(tenantId: string, id: string, changes: Partial<Omit<SelfServiceProfileRow, 'tenant_id' | 'id' | 'created_at'>>): Promise<boolean>;
  /** Deletes the profile with its tickets; false when there was none. */
  deleteProfile(tenantId: string, id: string): Promise<boolean>;

  insertTicket(row: SsoTicketRow): Promise<void>;
  getTicket(tenantId: string, idHash: string): Promise<SsoTicketRow | undefined>;
  /** Marks the profile's ticket revoked; false when it has no such ticket. */
  revokeTicket(tenantId: string, profileId: string, idHash: string, now: string): Promise<boolean>;
  /**
   * Spends the ticket: sets `used_at` and `connection_id` only if it is
   * neither used nor revoked and not expired at `now`, atomically (two
   * submissions of one ticket: one wins); false otherwise.
   */
  useTicket(tenantId: string, idHash: string, now: string, connectionId: string): Promise<boolean>;
}
