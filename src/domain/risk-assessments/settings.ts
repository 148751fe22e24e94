/**
 * The tenant's risk assessment and supplemental signals settings
 * (/api/v2/risk-assessments/settings, …/settings/new-device,
 * /api/v2/supplemental-signals), kept in the tenant's settings with the
 * defaults for what was never set:
 *
 * - `enabled` (false): whether a login's assessment is written on its
 *   tenant log entry (`details.riskAssessment`). Logins are assessed either
 *   way: post-login Actions always see `event.authentication.riskAssessment`,
 *   as the service's Actions do.
 * - `new_device.remember_for` (30 days): how long after its last login a
 *   device stays known (the service's range 1-365; Gatehouse's default).
 * - `akamai_enabled` (false): whether the Akamai headers of requests through
 *   a trusted proxy are read (./supplemental.ts).
 */
export interface StoredRiskAssessment {
  enabled?: boolean;
  new_device?: { remember_for?: number };
}

export interface StoredSupplementalSignals {
  akamai_enabled?: boolean;
}

/** The part of the tenant's settings these live in (../tenants/settings.ts). */
interface WithRiskSettings {
  risk_assessment?: StoredRiskAssessment;
  supplemental_signals?: StoredSupplementalSignals;
}

export const DEFAULT_REMEMBER_FOR_DAYS = 30;

export function riskAssessmentEnabled(settings: WithRiskSettings): boolean {
  return settings.risk_assessment?.enabled === true;
}

export function newDeviceRememberFor(settings: WithRiskSettings): number {
  return settings.risk_assessment?.new_device?.remember_for ?? DEFAULT_REMEMBER_FOR_DAYS;
}

export function akamaiEnabled(settings: WithRiskSettings): boolean {
  return settings.supplemental_signals?.akamai_enabled === true;
}

/** The settings with `enabled` set. */
export function withRiskAssessmentEnabled<S extends WithRiskSettings>(settings: S, enabled: boolean): S {
  return { ...settings, risk_assessment: { ...settings.risk_assessment, enabled } };
}

/** The settings with the new-device assessor's `remember_for` set. */
export function withNewDeviceRememberFor<S extends WithRiskSettings>(settings: S, rememberFor: number): S {
  return { ...settings, risk_assessment: { ...settings.risk_assessment, new_device: { ...settings.risk_assessment?.new_device, remember_for: rememberFor } } };
}

/** The settings with `akamai_enabled` set. */
export function withAkamaiEnabled<S extends WithRiskSettings>(settings: S, enabled: boolean): S {
  return { ...settings, supplemental_signals: { ...settings.supplemental_signals, akamai_enabled: enabled } };
}
