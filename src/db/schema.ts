/**
 * Row types of every table, as Kysely sees them. Booleans are stored as
 * integers (0/1) and JSON as text so that SQLite and PostgreSQL hold the same
 * values; timestamps are ISO-8601 text in UTC, which sorts correctly.
 */
export interface TenantsTable {
  id: string;
  name: string;
  domain: string;
  /** JSON: TenantSettings (default audience, rate limits). */
  settings: string;
  created_at: string;
}

export interface SigningKeysTable {
  tenant_id: string;
  kid: string;
  /** PKCS#8 PEM sealed with the master key (context `signing_key:<kid>`). */
  private_key_enc: string;
  /** JSON: the public JWK (kty, n, e). */
  public_jwk: string;
  /** Base64 DER of the self-signed certificate published as `x5c`. */
  cert_der: string;
  /** `current` signs; `previous` only verifies. */
  status: string;
  created_at: string;
}

export interface ClientsTable {
  tenant_id: string;
  client_id: string;
  name: string;
  description: string;
  app_type: string | null;
  is_first_party: number;
  global: number;
  token_endpoint_auth_method: string;
  /** JSON object or null. */
  client_authentication_methods: string | null;
  /** JSON array of grant type strings. */
  grant_types: string;
  /** Sealed with the master key (context `client_secret:<tenant_id>:<client_id>`). */
  client_secret_enc: string | null;
  created_at: string;
  updated_at: string;
}

export interface ResourceServersTable {
  tenant_id: string;
  id: string;
  identifier: string;
  name: string;
  is_system: number;
  /** JSON array of {value, description}. */
  scopes: string;
  signing_alg: string;
  signing_secret_enc: string | null;
  token_lifetime: number;
  token_lifetime_for_web: number;
  allow_offline_access: number;
  skip_consent_for_verifiable_first_party_clients: number;
  enforce_policies: number;
  token_dialect: string;
  /** JSON object with the remaining, rarely used members (token_encryption, proof_of_possession, …). */
  options: string;
  created_at: string;
  updated_at: string;
}

export interface ClientGrantsTable {
  tenant_id: string;
  id: string;
  client_id: string | null;
  audience: string;
  /** JSON array of scope strings. */
  scope: string;
  organization_usage: string | null;
  allow_any_organization: number | null;
  is_system: number;
  /** `client` (machine-to-machine) or `user`. */
  subject_type: string;
  /** JSON array of strings. */
  authorization_details_types: string;
  allow_all_scopes: number | null;
  default_for: string | null;
  created_at: string;
}

export interface Database {
  tenants: TenantsTable;
  signing_keys: SigningKeysTable;
  clients: ClientsTable;
  resource_servers: ResourceServersTable;
  client_grants: ClientGrantsTable;
}
