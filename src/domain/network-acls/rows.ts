/** A network ACL as stored (src/storage/migrations/0132_network_acls.ts). */

/** The signals of a rule's `match` / `not_match` Gatehouse evaluates (the others are refused when a rule is written). */
export interface NetworkAclMatch {
  ipv4_cidrs?: string[];
  ipv6_cidrs?: string[];
  connecting_ipv4_cidrs?: string[];
  connecting_ipv6_cidrs?: string[];
  user_agents?: string[];
  hostnames?: string[];
  /** ISO 3166-1 alpha-2 codes (a MaxMind City or Country database, src/platform/geoip.ts). */
  geo_country_codes?: string[];
  /** ISO 3166-2 codes, `GB-ENG`. */
  geo_subdivision_codes?: string[];
  /** Autonomous system numbers (a MaxMind ASN database). */
  asns?: number[];
}

export interface NetworkAclAction {
  block?: true;
  allow?: true;
  log?: true;
  redirect?: true;
  redirect_uri?: string;
}

export type NetworkAclScope = 'management' | 'authentication' | 'tenant' | 'dynamic_client_registration';

export interface NetworkAclRule {
  action: NetworkAclAction;
  match?: NetworkAclMatch;
  not_match?: NetworkAclMatch;
  scope: NetworkAclScope;
}

export interface NetworkAclRow {
  tenant_id: string;
  id: string;
  description: string;
  /** 1 while the rule is evaluated. */
  active: number;
  /** 1 to 100, lowest first; unique in the tenant. */
  priority: number;
  rule: NetworkAclRule;
  created_at: string;
  updated_at: string;
}
