/**
 * The push-notification factor of MFA (Guardian), per tenant: whether it is
 * enabled, which provider delivers the pushes, and the settings of the two
 * providers Gatehouse stores, APNs and Amazon SNS (spec "Push-notification
 * APNs provider configuration" and "… SNS provider configuration").
 *
 * Secrets are held sealed (ctx.box, AES-256-GCM) and bound to the tenant
 * through the context strings below, so a sealed value copied onto another
 * tenant's row does not open.
 */
import type { GuardianPushNotificationRow } from '../rows.js';

export type GuardianPushRow = GuardianPushNotificationRow;

/** `guardian` (the service's own app), `sns` (Amazon SNS) or `direct` (APNs and FCM directly). */
export const PUSH_PROVIDERS = ['guardian', 'sns', 'direct'] as const;
export type PushProvider = (typeof PUSH_PROVIDERS)[number];

/** The provider of a tenant that never chose one (the column default). */
export const DEFAULT_PUSH_PROVIDER: PushProvider = 'guardian';

/**
 * APNs settings as stored. A member that is absent was never given (or was
 * cleared by a PUT that left it out); `null` was given as null.
 */
export interface ApnsSettings {
  sandbox?: boolean;
  bundle_id?: string | null;
  /** The PKCS#12 file (DER bytes), sealed under `apnsP12Context`. */
  p12_enc?: string | null;
}

/**
 * SNS settings as stored, with the same absent/null distinction. Both AWS
 * credentials are sealed: the spec marks the key id and the secret key as
 * "credential, treat as secret"; only the key id is ever returned.
 */
export interface SnsSettings {
  /** Sealed under `snsAccessKeyIdContext`. */
  aws_access_key_id_enc?: string | null;
  /** Sealed under `snsSecretAccessKeyContext`. */
  aws_secret_access_key_enc?: string | null;
  aws_region?: string | null;
  sns_apns_platform_application_arn?: string | null;
  sns_gcm_platform_application_arn?: string | null;
}

export interface PushNotificationSettings {
  enabled: boolean;
  selected_provider: PushProvider;
  /** null when APNs was never configured. */
  apns: ApnsSettings | null;
  /** null when SNS was never configured. */
  sns: SnsSettings | null;
  /** The legacy FCM server key, sealed; absent when not set. */
  fcm_server_key_enc?: string;
  /** The FCM v1 service account key (JSON), sealed; absent when not set. */
  fcmv1_credentials_enc?: string;
}

/** The FCM providers' one credential each: `fcm` a server key, `fcmv1` a service account key. */
export type FcmProvider = 'fcm' | 'fcmv1';

export function fcmCredentialContext(tenantId: string, provider: FcmProvider): string {
  return `guardian_${provider}_credential:${tenantId}`;
}

export function apnsP12Context(tenantId: string): string {
  return `guardian_apns_p12:${tenantId}`;
}

export function snsAccessKeyIdContext(tenantId: string): string {
  return `guardian_sns_aws_access_key_id:${tenantId}`;
}

export function snsSecretAccessKeyContext(tenantId: string): string {
  return `guardian_sns_aws_secret_access_key:${tenantId}`;
}
