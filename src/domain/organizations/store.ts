/**
 * Storage of organizations and their client grants.
 * Implemented by src/storage/kysely/organizations.ts; the composition root builds one.
 */
import type { ClientGrantRow } from '../client-grants/model.js';
import type { OrganizationRow } from './model.js';
import type { KeysetWindow, OffsetWindow, Page, PageQuery } from '../paging.js';

/** The fields GET /organizations may sort an offset page by (`sort=name:1`). */
export type OrganizationSortField = 'name' | 'display_name' | 'created_at';

export type OrganizationPageQuery =
  /** Ordered by id, or by `sort` then id; a missing display name sorts after every other. */
  | ({ kind: 'offset'; sort?: { field: OrganizationSortField; descending: boolean } } & OffsetWindow)
  /** Keyset page: ids greater than `after`, ascending. */
  | ({ kind: 'keyset' } & KeysetWindow);

export interface OrganizationClientGrantFilter {
  audience?: string;
  client_id?: string;
  /** Only these grants (the `grant_ids` query parameter). */
  grant_ids?: string[];
}

/** What linking a client grant to an organization did. */
export type LinkResult = 'linked' | 'already_linked' | 'missing';

/** The columns an update may change. */
export type OrganizationChanges = Partial<Pick<OrganizationRow, 'name' | 'display_name' | 'branding' | 'metadata'>>;

/**
 * Storage of organizations and of their links to client grants. Ids, names
 * and display names compare and sort byte-wise on both databases.
 */
export interface OrganizationStore {
  /** The organization, or undefined when the tenant has none with that id. */
  get(tenantId: string, id: string): Promise<OrganizationRow | undefined>;
  /** The organization of that name (names are unique per tenant, compared exactly), or undefined. */
  getByName(tenantId: string, name: string): Promise<OrganizationRow | undefined>;
  /** A page of the tenant's organizations; `total` counts them all when an offset page asks for it. */
  list(tenantId: string, page: OrganizationPageQuery): Promise<Page<OrganizationRow>>;
  /** Fails with a unique violation when the tenant already has an organization of that name. */
  insert(row: OrganizationRow): Promise<void>;
  /**
   * Applies the changed columns; false when the organization does not exist.
   * Fails with a unique violation when renaming onto a name already taken.
   */
  update(tenantId: string, id: string, changes: OrganizationChanges): Promise<boolean>;
  /** Deletes the organization and its client grant links in one statement; false when it does not exist. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /**
   * Links a client grant to an organization: `already_linked` when it was,
   * `missing` when the organization or the grant does not exist (the links
   * are foreign keys, so a concurrent delete of either cannot leave a link).
   */
  linkClientGrant(tenantId: string, organizationId: string, grantId: string, createdAt: string): Promise<LinkResult>;
  /** Removes a link; false when there was none. */
  unlinkClientGrant(tenantId: string, organizationId: string, grantId: string): Promise<boolean>;
  /** How many client grants are linked to the organization. */
  countClientGrants(tenantId: string, organizationId: string): Promise<number>;
  /** A page of the client grants linked to the organization, ordered by grant id, narrowed by the filter. */
  listClientGrants(
    tenantId: string,
    organizationId: string,
    filter: OrganizationClientGrantFilter,
    page: OffsetWindow,
  ): Promise<Page<ClientGrantRow>>;
  /**
   * For GET /clients?q=client_grant.organization_id:{id}: the distinct
   * client_ids (ascending byte-wise, greater than `after`, at most `limit`) of
   * the clients with at least one client grant linked to the organization.
   * Driven from the organization's links joined to their grants by primary
   * key: the cost follows the organization's links, not the tenant's clients.
   * Grants without a client_id (`default_for`) contribute nothing.
   */
  clientIdsWithGrantForOrganization(tenantId: string, organizationId: string, after: string | undefined, limit: number): Promise<string[]>;
  /**
   * For GET /client-grants/{id}/organizations: a page of the organizations
   * the client grant is linked to, ordered by organization id (byte-wise);
   * `total` counts them all when an offset page asks for it. Driven from the
   * links' grant index (migration 0003), not the tenant's organizations.
   */
  listByClientGrant(tenantId: string, grantId: string, page: PageQuery): Promise<Page<OrganizationRow>>;
}
