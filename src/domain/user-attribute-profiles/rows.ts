/**
 * User attribute profiles (migration 0241): how the attributes of users of an
 * enterprise connection map from OIDC claims, SAML attributes and SCIM
 * paths to the user profile. `name` is unique per tenant.
 */
export type UserAttributeProfileStrategy = 'pingfederate' | 'ad' | 'adfs' | 'waad' | 'google-apps' | 'okta' | 'oidc' | 'samlp';

export interface OidcMapping {
  mapping: string;
  display_name?: string;
}

export interface UserIdMapping {
  oidc_mapping?: 'sub';
  saml_mapping?: string[];
  scim_mapping?: string;
  strategy_overrides?: Partial<Record<UserAttributeProfileStrategy, { oidc_mapping?: 'sub' | 'oid' | 'email'; saml_mapping?: string[]; scim_mapping?: string }>>;
}

export interface UserAttribute {
  description: string;
  label: string;
  profile_required: boolean;
  auth0_mapping: string;
  oidc_mapping?: OidcMapping;
  saml_mapping?: string[];
  scim_mapping?: string;
  strategy_overrides?: Partial<Record<UserAttributeProfileStrategy, { oidc_mapping?: OidcMapping; saml_mapping?: string[]; scim_mapping?: string }>>;
}

export interface UserAttributeProfileRow {
  tenant_id: string;
  /** `uap_…` */
  id: string;
  name: string;
  /** JSON, or null when the profile has no user id mapping. */
  user_id: UserIdMapping | null;
  /** JSON: attribute name → its mapping (1 to 64 attributes). */
  user_attributes: Record<string, UserAttribute>;
  created_at: string;
  updated_at: string;
}
