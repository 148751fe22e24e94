/** A tenant's settings (the `tenants.settings` column). */
import type { RateLimitSetting } from '../../platform/config.js';
import type { StoredAttackProtection } from '../attack-protection/settings.js';

export type RateLimitClass = 'management' | 'authentication' | 'management_clients_query';

/** Per-tenant settings, stored as JSON in `tenants.settings`. */
export interface TenantSettings {
  /** client_id of the bootstrap admin client. */
  admin_client_id: string;
  /** Audience used by token requests that name none (the service's "default audience"). */
  default_audience?: string;
  /**
   * Name of the connection `grant_type=password` logs in against (the service's
   * `default_directory`); without it, the single database connection enabled for the client.
   */
  default_directory?: string;
  /** The tenant's Allowed Logout URLs: where /v2/logout and /oidc/logout may return to when no client is named. */
  allowed_logout_urls?: string[];
  /** Overrides of the default lifetimes, in seconds (src/domain/lifetimes.ts). */
  lifetimes?: Partial<Record<string, number>>;
  /** Overrides of the process-wide rate limits. */
  rate_limits?: Partial<Record<RateLimitClass, RateLimitSetting>>;
  /** Tokens of organization logins carry `org_name` beside `org_id`, and /authorize accepts organization names (the service's flag). */
  allow_organization_name_in_authentication_api?: boolean;
  /** What the Management API's /attack-protection/* set (only what was set; the defaults are in ../attack-protection/settings.ts). */
  attack_protection?: StoredAttackProtection;
}
