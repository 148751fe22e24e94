import type { KnownDeviceRow, RiskAssessment } from './rows.js';

/** The devices users logged in from, and the assessments of their logins (migration 0245_risk_assessments). */
export interface RiskAssessmentStore {
  /** The user's devices not expired at `now` (ISO), most recently seen first. */
  knownDevices(tenantId: string, userId: string, now: string): Promise<KnownDeviceRow[]>;
  /**
   * Records a login from the device: a new row, or the known one's
   * `last_seen_at`, `user_agent_hash` and `expires_at` moved on
   * (`first_seen_at` kept). Then keeps only the user's `keep` most recently
   * seen devices. Fails with a foreign-key violation on an unknown user.
   */
  rememberDevice(row: KnownDeviceRow, keep: number): Promise<void>;
  /** Forgets every device of the user; how many there were. */
  forgetDevices(tenantId: string, userId: string): Promise<number>;
  /** Keeps the assessment of the login that started the session (replacing one kept before). */
  saveLoginAssessment(tenantId: string, sessionIdHash: string, assessment: RiskAssessment): Promise<void>;
  /** The assessment kept for the session, if any. */
  loginAssessment(tenantId: string, sessionIdHash: string): Promise<RiskAssessment | undefined>;
}
