/** A rate limit policy as stored (src/storage/migrations/0275_rate_limit_policies.ts). */

/** What happens to a consumer's requests past the limit (the document's RateLimitPolicyConfiguration). */
export type RateLimitPolicyConfiguration =
  | { action: 'allow' }
  | { action: 'block' | 'log'; limit: number }
  | { action: 'redirect'; limit: number; redirect_uri: string };

export interface RateLimitPolicyRow {
  tenant_id: string;
  /** `rlp_` + 22 characters. */
  id: string;
  /** `oauth_authentication_api`, the one resource of the document. */
  resource: string;
  /** `client`, the one consumer of the document. */
  consumer: string;
  /** `client_id:<client_id>`, `third_party_clients` or `default`; unique per tenant, resource and consumer. */
  consumer_selector: string;
  configuration: RateLimitPolicyConfiguration;
  created_at: string;
  updated_at: string;
}
