/**
 * Storage of custom domains.
 * Implemented by src/storage/kysely/custom-domains.ts; the composition root builds one.
 */
import type { CustomDomainRow } from './rows.js';

export interface CustomDomainStore {
  /** Fails with a unique violation when the domain is taken (by any tenant). */
  insert(row: CustomDomainRow): Promise<void>;
  get(tenantId: string, id: string): Promise<CustomDomainRow | undefined>;
  /** The tenant's domains, by domain. */
  list(tenantId: string): Promise<CustomDomainRow[]>;
  /** The ready domain `domain` names (any tenant), if any. */
  findReady(domain: string): Promise<CustomDomainRow | undefined>;
  update(tenantId: string, id: string, changes: Partial<Pick<CustomDomainRow, 'status' | 'edge_key_hash' | 'custom_client_ip_header' | 'tls_policy' | 'domain_metadata'>>): Promise<boolean>;
  delete(tenantId: string, id: string): Promise<boolean>;
  /** The tenant's default custom domain: ready, and marked so; undefined while the canonical domain is the default. */
  findDefault(tenantId: string): Promise<CustomDomainRow | undefined>;
  /** Makes the domain `id` the default (`null`: none, the canonical domain), atomically; false when `id` is not the tenant's. */
  setDefault(tenantId: string, id: string | null): Promise<boolean>;
  /** The edge key hashes of the tenant's ready self-managed domains. */
  edgeKeyHashes(tenantId: string): Promise<string[]>;
}
