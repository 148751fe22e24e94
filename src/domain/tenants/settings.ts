/** A tenant's settings (the `tenants.settings` column). */
import type { RateLimitSetting } from '../../platform/config.js';
import type { StoredAttackProtection } from '../attack-protection/settings.js';
import type { StoredRiskAssessment, StoredSupplementalSignals } from '../risk-assessments/settings.js';

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
  /**
   * The service's flag `enable_client_connections`: a client created through
   * the Management API is enabled on every connection the tenant has then.
   * Set on tenants created with the default connection; absent (off) on
   * tenants created before it existed or without that connection.
   */
  enable_client_connections?: boolean;
  /** Tokens of organization logins carry `org_name` beside `org_id`, and /authorize accepts organization names (the service's flag). */
  allow_organization_name_in_authentication_api?: boolean;
  /**
   * Session lifetimes in hours, as the Management API's tenant settings name
   * them (fractional when set with the `_in_minutes` variants): absolute and
   * idle, for persistent sessions and for ephemeral ones (`session_cookie.mode`
   * `non-persistent`). Read with `sessionPolicy` (src/domain/sessions/policy.ts).
   */
  session_lifetime?: number;
  idle_session_lifetime?: number;
  ephemeral_session_lifetime?: number;
  idle_ephemeral_session_lifetime?: number;
  /** `persistent` (the default): the session cookie carries Max-Age; `non-persistent`: it ends with the browser. */
  session_cookie?: { mode: 'persistent' | 'non-persistent' };
  /** The locales the hosted pages may show, the first the default (the service's `enabled_locales`). */
  enabled_locales?: string[];
  /** The tenant's name, logo and support contacts as the hosted pages may show them. */
  friendly_name?: string;
  picture_url?: string;
  support_email?: string;
  support_url?: string;
  /**
   * Every other member of the Management API's tenant settings, stored as
   * given and answered back, without effect on Gatehouse (the README lists
   * them as stored-only).
   */
  stored_only?: Record<string, unknown>;
  /** What the Management API's /attack-protection/* set (only what was set; the defaults are in ../attack-protection/settings.ts). */
  attack_protection?: StoredAttackProtection;
  /** What /risk-assessments/settings and …/new-device set (the defaults are in ../risk-assessments/settings.ts). */
  risk_assessment?: StoredRiskAssessment;
  /** What /supplemental-signals set. */
  supplemental_signals?: StoredSupplementalSignals;
}
