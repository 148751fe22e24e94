/**
 * Storage of invitations to organizations.
 * Implemented by src/storage/kysely/organization-invitations.ts; the composition root builds one.
 */
import type { OffsetWindow, Page } from '../paging.js';
import type { OrganizationInvitationRow } from './rows.js';

/** The additional data an invitation's ticket is sealed with (`ticket_enc`). */
export const INVITATION_TICKET_SEAL = 'organization invitation ticket';

export interface OrganizationInvitationStore {
  /** Stores a new invitation; a foreign-key violation when the organization does not exist. */
  insert(row: OrganizationInvitationRow): Promise<void>;
  get(tenantId: string, organizationId: string, id: string): Promise<OrganizationInvitationRow | undefined>;
  /** A page of the organization's invitations by creation time (newest first when `descending`), then id. */
  list(tenantId: string, organizationId: string, page: OffsetWindow, descending: boolean): Promise<Page<OrganizationInvitationRow>>;
  /** False when there was none. */
  delete(tenantId: string, organizationId: string, id: string): Promise<boolean>;
  /** The invitation whose ticket has this hash, whatever its state (used, expired). */
  findByTicket(tenantId: string, ticketHash: string): Promise<OrganizationInvitationRow | undefined>;
  /**
   * Marks the invitation used at `now` if it is neither used nor expired, in
   * one conditional UPDATE: of two concurrent acceptances exactly one gets true.
   */
  consume(tenantId: string, id: string, now: string): Promise<boolean>;
}
