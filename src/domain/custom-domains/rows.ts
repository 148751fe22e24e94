/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A custom domain of a tenant (migration 0017). */
export interface CustomDomainRow {
  tenant_id: string;
  /** `cd_…` */
  id: string;
  /** Lower case, unique across tenants. */
  domain: string;
  type: 'auth0_managed_certs' | 'self_managed_certs';
  status: 'pending_verification' | 'ready';
  /** The TXT record value that proves control of the domain. */
  verification_record: string;
  /** SHA-256 (base64url) of the edge key (`cname_api_key`), set at the first verification of a self-managed domain. */
  edge_key_hash: string | null;
  custom_client_ip_header: string | null;
  tls_policy: string;
  domain_metadata: Record<string, string>;
  /** 1 on the tenant's default custom domain (migration 0232); null or 0 elsewhere. */
  is_default?: number | null;
  created_at: string;
}
