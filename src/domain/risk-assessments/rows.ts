/** Rows of the risk assessment tables (migration 0245_risk_assessments). */

/** A device a user logged in from through the hosted login. */
export interface KnownDeviceRow {
  tenant_id: string;
  user_id: string;
  /** base64url SHA-256 of the device cookie's value (`__Host-gh_device`). */
  device_hash: string;
  /** base64url SHA-256 of the user agent it logged in with; null when it sent none. */
  user_agent_hash: string | null;
  first_seen_at: string;
  last_seen_at: string;
  /** Its last login plus the tenant's `remember_for` days: unknown again from then. */
  expires_at: string;
}

/** The assessment of the login that started a session (`event.authentication.riskAssessment`). */
export interface LoginRiskAssessmentRow {
  tenant_id: string;
  session_id_hash: string;
  assessment: RiskAssessment;
}

export type Confidence = 'low' | 'medium' | 'high' | 'neutral';

/** The service's codes of the new-device assessor. */
export type NewDeviceCode = 'match' | 'partial_match' | 'no_match' | 'initial_login' | 'unknown_device' | 'no_device_history';

export interface NewDeviceAssessment {
  confidence: Confidence;
  code: NewDeviceCode;
  details: { device: 'known' | 'unknown'; useragent: 'known' | 'unknown' };
}

/** What `event.authentication.riskAssessment` shows (and, when risk assessment is enabled, the login's log entry). */
export interface RiskAssessment {
  confidence: Confidence;
  version: '1';
  assessments: { NewDevice: NewDeviceAssessment };
  /** The Akamai headers of a request through a trusted proxy, when the tenant's supplemental signals take them. */
  supplemental?: { akamai: { akamaiBot?: Record<string, string | number | string[]>; akamaiUserRisk?: Record<string, string | number | string[]> } };
}
