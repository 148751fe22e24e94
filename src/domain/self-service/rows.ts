/** Self-service SSO as stored (migration 0221). */
import type { JsonObject } from '../json.js';

/** A user attribute the setup page shows (the service's `SelfServiceProfileUserAttribute`). */
export interface SelfServiceUserAttribute {
  name: string;
  description: string;
  is_optional: boolean;
}

export interface SelfServiceProfileRow {
  tenant_id: string;
  id: string;
  name: string;
  description: string | null;
  branding: JsonObject | null;
  allowed_strategies: string[];
  user_attributes: SelfServiceUserAttribute[];
  /** The user attribute profile the self-service profile names (migration 0242), or null. */
  user_attribute_profile_id: string | null;
  /** `{language: {page: {key: text}}}`. */
  custom_text: Record<string, Record<string, Record<string, string>>>;
  created_at: string;
  updated_at: string;
}

/** What an sso-ticket request asked for: the connection to create and where to enable it. */
export interface SsoTicketConfig {
  connection_config?: { name: string; display_name?: string; is_domain_connection?: boolean; show_as_button?: boolean; metadata?: Record<string, string>; options?: JsonObject | null };
  enabled_clients?: string[];
  enabled_organizations?: { organization_id: string; assign_membership_on_login?: boolean; show_as_button?: boolean }[];
}

export interface SsoTicketRow {
  tenant_id: string;
  /** SHA-256 (base64url) of the ticket; the ticket itself is in its URL only. */
  id_hash: string;
  profile_id: string;
  config: SsoTicketConfig;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  /** The connection the ticket's page created. */
  connection_id: string | null;
}
