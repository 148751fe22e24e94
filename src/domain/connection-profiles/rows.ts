/**
 * Connection profiles (migration 0240): the settings an enterprise connection
 * made through express configuration or self-service SSO starts from. `name`
 * is unique per tenant; every other member of the document's
 * `ConnectionProfile` is kept in `profile` as given.
 */
export interface ConnectionProfileRow {
  tenant_id: string;
  /** `cop_…` */
  id: string;
  name: string;
  /** JSON: `organization`, `connection_name_prefix_template`, `enabled_features`, `connection_config`, `strategy_overrides` (those set). */
  profile: ConnectionProfileMembers;
  created_at: string;
  updated_at: string;
}

export type EnabledFeature = 'scim' | 'universal_logout';
export type ConnectionProfileStrategy = 'pingfederate' | 'ad' | 'adfs' | 'waad' | 'google-apps' | 'okta' | 'oidc' | 'samlp';

export interface ConnectionProfileMembers {
  organization?: { show_as_button?: 'none' | 'optional' | 'required'; assign_membership_on_login?: 'none' | 'optional' | 'required' };
  connection_name_prefix_template?: string;
  enabled_features?: EnabledFeature[];
  connection_config?: Record<string, never>;
  strategy_overrides?: Partial<Record<ConnectionProfileStrategy, { enabled_features?: EnabledFeature[]; connection_config?: Record<string, never> }>>;
}
