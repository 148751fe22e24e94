/**
 * Sending a push transaction to an enrolled device through the tenant's
 * push provider (Management API /guardian/factors/push-notification):
 *
 * - selected provider `sns`: Amazon SNS (src/platform/push/sns.ts) with the
 *   provider's keys and region, on the platform application of the device's
 *   service (`sns_apns_platform_application_arn` for APNS devices,
 *   `sns_gcm_platform_application_arn` for GCM ones);
 * - `direct`, and `guardian` (Gatehouse has no relay of its own, so the
 *   service's default provider sends directly too): APNs over HTTP/2 with
 *   the provider's p12 (src/platform/push/apns.ts), to APNS devices; to GCM
 *   (Android) devices Firebase Cloud Messaging (src/platform/push/fcm.ts),
 *   through the HTTP v1 API with the `fcmv1` service account when one is
 *   set, else the legacy API with the `fcm` server key.
 *
 * The notification names the transaction (`txn`), the enrolment (`dev`),
 * the device API (`base_url`) and the application; its alert says who asks.
 * A provider that is not configured is 400 `invalid_request`; one that
 * refuses is 502 `server_error`, logged with its status and reason only.
 */
import { apnsP12Context, fcmCredentialContext, snsAccessKeyIdContext, snsSecretAccessKeyContext, type PushNotificationSettings } from '../../domain/guardian/model.js';
import type { Authenticator } from '../../domain/mfa/model.js';
import { devicePushToken, pushBaseUrl, type PushContext } from '../../domain/mfa/push.js';
import { totpIssuer } from '../../domain/mfa/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';
import fs from 'node:fs';
import { APNS_PRODUCTION_URL, APNS_SANDBOX_URL, PushDeliveryError, sendApns } from '../../platform/push/apns.js';
import { sendSns } from '../../platform/push/sns.js';
import { FCM_TOKEN_URL, FCM_URL, parseServiceAccount, sendFcmLegacy, sendFcmV1 } from '../../platform/push/fcm.js';
import type { Logger } from 'pino';
import type { GuardianPushStore } from '../../domain/guardian/store.js';
import type { Config } from '../../platform/config.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

export interface PushMessage {
  /** Who asks: the application's name. */
  clientName: string;
  /** What the user is asked (the alert's body). */
  text?: string;
}

const notConfigured = (what: string) => oauthErrors.invalidRequest(`Push notifications cannot be sent: ${what}.`);

/** What delivering push notifications touches. */
export interface PushDeliveryContext extends PushContext {
  readonly box: SecretBox;
  readonly config: Config;
  readonly logger: Logger;
  readonly stores: PushContext['stores'] & { readonly guardian: GuardianPushStore };
}

function readCa(ctx: PushDeliveryContext): Buffer | undefined {
  return ctx.config.push.caFile === undefined ? undefined : fs.readFileSync(ctx.config.push.caFile);
}

/** The notification's payload as APNs (and SNS's APNS member) carries it. */
function apnsPayload(tenant: Tenant, authenticator: Authenticator, transactionId: string, message: PushMessage): Record<string, unknown> {
  return {
    aps: {
      alert: { title: totpIssuer(tenant), body: message.text ?? `Approve the login to ${message.clientName}?` },
      category: 'gatehouse.mfa.push',
      sound: 'default',
    },
    gatehouse: { txn: transactionId, dev: authenticator.id, base_url: pushBaseUrl(tenant), client: message.clientName },
  };
}

async function deliver(ctx: PushDeliveryContext, tenant: Tenant, authenticator: Authenticator, transactionId: string, expiresAt: number, message: PushMessage): Promise<void> {
  const settings = await ctx.stores.guardian.get(tenant.id);
  const token = devicePushToken(ctx, tenant.id, authenticator);
  const payload = apnsPayload(tenant, authenticator, transactionId, message);
  if (settings.selected_provider === 'sns') {
    const sns = settings.sns;
    const arn = authenticator.push_service === 'GCM' ? sns?.sns_gcm_platform_application_arn : sns?.sns_apns_platform_application_arn;
    if (!sns?.aws_access_key_id_enc || !sns.aws_secret_access_key_enc || !sns.aws_region || !arn) throw notConfigured('the SNS provider is not configured for this device');
    const { aps, gatehouse } = payload as { aps: { alert: { title: string; body: string } }; gatehouse: Record<string, string> };
    await sendSns(
      {
        accessKeyId: ctx.box.openString(sns.aws_access_key_id_enc, snsAccessKeyIdContext(tenant.id)),
        secretAccessKey: ctx.box.openString(sns.aws_secret_access_key_enc, snsSecretAccessKeyContext(tenant.id)),
        region: sns.aws_region,
        endpoint: ctx.config.push.snsEndpoint,
        ca: readCa(ctx),
      },
      {
        platformApplicationArn: arn,
        deviceToken: token,
        message: {
          default: aps.alert.body,
          ...(authenticator.push_service === 'GCM'
            ? { GCM: JSON.stringify({ notification: aps.alert, data: gatehouse }) }
            : { APNS: JSON.stringify(payload), APNS_SANDBOX: JSON.stringify(payload) }),
        },
      },
    );
    return;
  }
  if (authenticator.push_service === 'GCM') return deliverFcm(ctx, tenant, settings, token, payload, expiresAt);
  const apns = settings.apns;
  if (authenticator.push_service !== 'APNS') throw notConfigured('devices other than APNS and GCM ones need the SNS provider');
  if (!apns?.p12_enc || !apns.bundle_id) throw notConfigured('the APNs provider is not configured');
  await sendApns(
    ctx.config.push.apnsUrl ?? (apns.sandbox === true ? APNS_SANDBOX_URL : APNS_PRODUCTION_URL),
    { p12: ctx.box.open(apns.p12_enc, apnsP12Context(tenant.id)), ca: readCa(ctx) },
    { deviceToken: token, topic: apns.bundle_id, payload, expiration: Math.floor(expiresAt / 1000) },
  );
}

/** To an Android device: FCM v1 with the service account, else the legacy API with the server key. */
async function deliverFcm(ctx: PushDeliveryContext, tenant: Tenant, settings: PushNotificationSettings, token: string, payload: Record<string, unknown>, expiresAt: number): Promise<void> {
  const { aps, gatehouse } = payload as { aps: { alert: { title: string; body: string } }; gatehouse: Record<string, string> };
  const endpoints = { baseUrl: ctx.config.push.fcmUrl ?? FCM_URL, tokenUrl: ctx.config.push.fcmTokenUrl ?? FCM_TOKEN_URL, ca: readCa(ctx) };
  const notification = { deviceToken: token, title: aps.alert.title, body: aps.alert.body, data: gatehouse, ttlSeconds: Math.max(0, Math.floor((expiresAt - ctx.now()) / 1000)) };
  if (settings.fcmv1_credentials_enc) {
    const account = parseServiceAccount(ctx.box.openString(settings.fcmv1_credentials_enc, fcmCredentialContext(tenant.id, 'fcmv1')));
    return sendFcmV1(endpoints, account, notification, ctx.now());
  }
  if (settings.fcm_server_key_enc) return sendFcmLegacy(endpoints, ctx.box.openString(settings.fcm_server_key_enc, fcmCredentialContext(tenant.id, 'fcm')), notification);
  throw notConfigured('GCM devices need an FCM provider (fcmv1 or fcm) or the SNS provider');
}

/** The `notify` of startPushChallenge for this device. */
export function pushSender(ctx: PushDeliveryContext, tenant: Tenant, authenticator: Authenticator, message: PushMessage): (transactionId: string, expiresAt: number) => Promise<void> {
  return async (transactionId, expiresAt) => {
    try {
      await deliver(ctx, tenant, authenticator, transactionId, expiresAt, message);
    } catch (error) {
      if (!(error instanceof PushDeliveryError)) throw error;
      ctx.logger.error({ tenant: tenant.name, status: error.status, reason: error.reason }, 'sending a push notification failed');
      throw oauthErrors.serverError('The push notification could not be sent.', 502);
    }
  };
}
