/**
 * Storage of the connections enabled for an organization.
 * Implemented by src/storage/kysely/organization-connections.ts; the composition root builds one.
 */
import type { OffsetWindow, Page } from '../paging.js';
import type { OrganizationConnectionRow } from './rows.js';

/** An enabled connection with the connection's name and strategy. */
export type OrganizationConnectionDetail = OrganizationConnectionRow & { name: string; strategy: string };

export type OrganizationConnectionChanges = Partial<Pick<OrganizationConnectionRow, 'assign_membership_on_login' | 'show_as_button' | 'is_signup_enabled'>>;

/** What enabling a connection did. */
export type EnableResult = 'enabled' | 'already_enabled' | 'organization_not_found' | 'connection_not_found';

export interface OrganizationConnectionStore {
  /** Enables the connection for the organization (foreign keys refuse an unknown side). */
  enable(row: OrganizationConnectionRow): Promise<EnableResult>;
  get(tenantId: string, organizationId: string, connectionId: string): Promise<OrganizationConnectionDetail | undefined>;
  /** A page of the organization's connections, by connection id. */
  list(tenantId: string, organizationId: string, page: OffsetWindow): Promise<Page<OrganizationConnectionDetail>>;
  /** False when the connection is not enabled for the organization. */
  update(tenantId: string, organizationId: string, connectionId: string, changes: OrganizationConnectionChanges): Promise<boolean>;
  /** False when the connection was not enabled for the organization. */
  disable(tenantId: string, organizationId: string, connectionId: string): Promise<boolean>;
}
