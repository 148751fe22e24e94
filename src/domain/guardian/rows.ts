/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
export interface GuardianPushNotificationRow {
  tenant_id: string;
  enabled: number;
  selected_provider: string;
  /** JSON {sandbox?, bundle_id?} or null. */
  apns: string | null;
  apns_p12_enc: string | null;
  /** JSON of the SNS fields but the secret key (the access key id inside it sealed), or null. */
  sns: string | null;
  sns_secret_access_key_enc: string | null;
  updated_at: string;
}

/** Whether a multi-factor factor is enabled, per tenant (migration 0020). */
export interface GuardianFactorRow {
  tenant_id: string;
  name: string;
  enabled: number;
  updated_at: string;
}

/** A tenant's MFA policies (migration 0020): JSON array text. */
export interface GuardianPolicyRow {
  tenant_id: string;
  policies: string;
  updated_at: string;
}

/** The SMS factor's Twilio provider and templates (migration 0022); JSON text columns. */
export interface GuardianSmsRow {
  tenant_id: string;
  twilio: string | null;
  twilio_auth_token_enc: string | null;
  templates: string | null;
  /** `auth0`, `twilio` or `phone-message-hook` (migration 0230); null: `auth0`. */
  selected_provider: string | null;
  /** JSON array of `sms` / `voice`; null: `["sms"]`. */
  message_types: string | null;
  updated_at: string;
}
