/**
 * Storage of the MFA push-notification factor and its providers.
 * Implemented by src/storage/kysely/guardian.ts; the composition root builds one.
 */
import type { ApnsSettings, FcmProvider, PushNotificationSettings, PushProvider, SnsSettings } from './model.js';

/**
 * Storage of a tenant's push-notification factor settings: one row per tenant,
 * created by the first write. Every method writes in one statement or one
 * transaction, so a failed write leaves the previous settings whole.
 */
export interface GuardianPushStore {
  /** The tenant's settings; the defaults (disabled, `guardian`, no provider configured) when none were ever written. */
  get(tenantId: string): Promise<PushNotificationSettings>;
  /** Enables or disables the factor, keeping the rest. One statement. */
  setEnabled(tenantId: string, enabled: boolean, updatedAt: string): Promise<void>;
  /** Selects the provider, keeping the rest. One statement. */
  setSelectedProvider(tenantId: string, provider: PushProvider, updatedAt: string): Promise<void>;
  /**
   * Replaces the APNs settings with `apns`: members absent from it are
   * cleared, the p12 included. One statement. Returns the settings as stored.
   */
  replaceApns(tenantId: string, apns: ApnsSettings, updatedAt: string): Promise<ApnsSettings>;
  /**
   * Merges `changes` into the APNs settings: members absent from it (or
   * undefined) are kept, members given overwrite, `null` included. Read and
   * write happen in one transaction that holds the row's write lock, so
   * concurrent merges do not lose each other's members. Returns the settings
   * as stored.
   */
  mergeApns(tenantId: string, changes: ApnsSettings, updatedAt: string): Promise<ApnsSettings>;
  /** As `replaceApns`, for SNS. */
  replaceSns(tenantId: string, sns: SnsSettings, updatedAt: string): Promise<SnsSettings>;
  /** As `mergeApns`, for SNS. */
  mergeSns(tenantId: string, changes: SnsSettings, updatedAt: string): Promise<SnsSettings>;
  /** Sets (or, with null, clears) an FCM provider's sealed credential. One statement. */
  setFcmCredential(tenantId: string, provider: FcmProvider, sealed: string | null, updatedAt: string): Promise<void>;
}
