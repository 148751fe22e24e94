/**
 * Storage of organizations' discovery domains (email domains by which the
 * organization prompt finds an organization).
 * Implemented by src/storage/kysely/organization-discovery-domains.ts; the composition root builds one.
 */
import type { KeysetWindow } from '../paging.js';
import type { OrganizationDiscoveryDomainRow } from './rows.js';

export type DiscoveryDomainChanges = Partial<Pick<OrganizationDiscoveryDomainRow, 'status' | 'use_for_organization_discovery'>>;

/**
 * What a write did: `domain_taken` when the organization already lists the
 * domain (insert), `verified_elsewhere` when another organization of the
 * tenant has it verified (a unique index decides, so two concurrent
 * verifications cannot both succeed).
 */
export type DiscoveryDomainWrite = 'done' | 'not_found' | 'domain_taken' | 'verified_elsewhere';

export interface OrganizationDiscoveryDomainStore {
  /** `not_found` when the organization does not exist. */
  insert(row: OrganizationDiscoveryDomainRow): Promise<DiscoveryDomainWrite>;
  get(tenantId: string, organizationId: string, id: string): Promise<OrganizationDiscoveryDomainRow | undefined>;
  /** By the (lower-case) domain name. */
  getByDomain(tenantId: string, organizationId: string, domain: string): Promise<OrganizationDiscoveryDomainRow | undefined>;
  /** A keyset page of the organization's domains by id. */
  list(tenantId: string, organizationId: string, page: KeysetWindow): Promise<OrganizationDiscoveryDomainRow[]>;
  /** `not_found` when the organization has no such domain. */
  update(tenantId: string, organizationId: string, id: string, changes: DiscoveryDomainChanges): Promise<DiscoveryDomainWrite>;
  /** False when the organization had no such domain. */
  delete(tenantId: string, organizationId: string, id: string): Promise<boolean>;
  /** The verified domain of the tenant with this (lower-case) name that is used for discovery, if any. */
  findVerified(tenantId: string, domain: string): Promise<OrganizationDiscoveryDomainRow | undefined>;
}
