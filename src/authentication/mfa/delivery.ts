/**
 * Sending an out-of-band binding code to the user:
 *
 * - email through the mail transport (src/platform/mail), handed over
 *   without waiting for delivery (a slow mail server must not hold the
 *   request); a failure is logged without the message;
 * - SMS through the tenant's send-phone-message action when the tenant chose
 *   it (../actions/phone-message.ts), else its phone provider
 *   (src/domain/branding/phone-providers.ts; Twilio at GATEHOUSE_TWILIO_URL),
 *   with the tenant's enrolment or verification template (Liquid: `code`,
 *   `friendly_name`, `tenant.friendly_name`, `locale`, `message_type`). Awaited: a provider
 *   that refuses is the request's 502 `server_error`, and a tenant without a
 *   configured provider gets 400 `invalid_request`, before anything is told
 *   to the user. Under phone provider protection `exponential`
 *   (src/domain/attack-protection/phone-backoff.ts) a message to a number
 *   that must still wait is refused, 429 `too_many_requests` saying how long.
 *
 * Messages carry a live code: never logged.
 */
import { sendTenantMail, type TenantMailContext } from '../../domain/email/templates.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import type { Authenticator } from '../../domain/mfa/model.js';
import { totpIssuer } from '../../domain/mfa/service.js';
import { customPhoneText, phoneTemplateVariables } from '../../domain/branding/phone-templates.js';
import { PhoneDeliveryError, sendPhoneText } from '../../domain/branding/phone-providers.js';
import { renderLine } from '../../domain/templates.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { OAuthError, oauthErrors } from '../../platform/http/errors.js';
import type { PhoneBackoff } from '../../domain/attack-protection/phone-backoff.js';
import type { Logger } from 'pino';
import type { MfaStore } from '../../domain/mfa/store.js';
import type { UiSettingsStore } from '../../domain/branding/store.js';
import type { Config } from '../../platform/config.js';
import { sendThroughActions, type PhoneMessageActionsContext } from '../actions/phone-message.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

export type DeliveryPurpose = 'enrollment' | 'verification';

/** What delivering one-time codes touches. */
export interface CodeDeliveryContext extends TenantMailContext, PhoneMessageActionsContext {
  readonly box: SecretBox;
  readonly config: Config;
  readonly logger: Logger;
  /** Spacing of text messages to one number (phone provider protection). */
  readonly phoneBackoff: PhoneBackoff;
  readonly stores: TenantMailContext['stores'] & { readonly mfa: MfaStore; readonly uiSettings: UiSettingsStore };
}

/** The code by email (the tenant's `mfa_oob_code` template when it has one). */
function sendMail(ctx: CodeDeliveryContext, tenant: Tenant, to: string, code: string): Promise<void> {
  const minutes = Math.round(lifetimeOf(tenant, 'mfa_oob_code') / 60);
  return sendTenantMail(
    ctx,
    tenant,
    'mfa_oob_code',
    to,
    {
      subject: `${tenant.name} verification code`,
      text: `Your verification code is ${code}\n\nIt expires in ${minutes} minutes. If you did not try to log in, you can ignore this message.\n`,
    },
    { code, user: { email: to } },
  );
}

/**
 * A text message through the tenant's phone provider, else its Guardian SMS
 * factor's Twilio account (src/domain/branding/phone-providers.ts): from its
 * number or messaging service unless `sender` chooses another on the same
 * account. Not configured, or a `custom` provider: 400 `invalid_request`
 * saying so; refused by Twilio: 502 `server_error` (logged with Twilio's
 * status and code, never the text).
 */
export async function sendTextMessage(ctx: CodeDeliveryContext, tenant: Tenant, to: string, body: string, sender: { from?: string; messagingServiceSid?: string } = {}): Promise<void> {
  try {
    await sendPhoneText(ctx, tenant.id, to, body, sender);
  } catch (error) {
    if (!(error instanceof PhoneDeliveryError)) throw error;
    if (error.reason !== 'provider_refused') throw oauthErrors.invalidRequest(error.message);
    ctx.logger.error({ tenant: tenant.name, status: error.provider?.status, providerCode: error.provider?.code }, 'sending a text message failed');
    throw oauthErrors.serverError('The text message could not be sent.', 502);
  }
}

/** Phone provider protection: the message to `to` may go now (and is counted), or the request is refused with the wait. */
export async function admitTextMessage(ctx: Pick<CodeDeliveryContext, 'phoneBackoff'>, tenant: Tenant, to: string): Promise<void> {
  const admission = await ctx.phoneBackoff.admit(tenant, to);
  if (!admission.admitted) throw new OAuthError(429, 'too_many_requests', `Too many text messages to this phone number; retry in ${admission.retryAfterSeconds} seconds.`);
}

async function sendSms(ctx: CodeDeliveryContext, tenant: Tenant, to: string, code: string, purpose: DeliveryPurpose, userId: string, locale: string | undefined): Promise<void> {
  await admitTextMessage(ctx, tenant, to);
  // The tenant's phone template of the purpose (/api/v2/branding/phone/templates) first, then the Guardian SMS factor's messages.
  const custom = await customPhoneText(ctx, tenant.id, purpose === 'enrollment' ? 'otp_enroll' : 'otp_verify');
  const { templates } = await ctx.stores.mfa.smsSettings(tenant.id);
  const template = custom?.text ?? (purpose === 'enrollment' ? templates.enrollment_message : templates.verification_message);
  const text = await renderLine(template, phoneTemplateVariables(totpIssuer(tenant), code, locale));
  // The tenant's send-phone-message action, when the tenant chose it, sends it instead of the provider.
  if (await sendThroughActions(ctx, tenant, { recipient: to, text, code, action: purpose === 'enrollment' ? 'enrollment' : 'second-factor-authentication' }, { user_id: userId })) return;
  await sendTextMessage(ctx, tenant, to, text, custom?.from === undefined ? {} : { from: custom.from });
}

/**
 * `locale`: the language of the page the code was asked from (the hosted
 * pages' language, from `ui_locales`), which a phone template reads as
 * `{{ locale }}` to choose its words; absent for the API's calls.
 */
export function bindingCodeSender(ctx: CodeDeliveryContext, tenant: Tenant, authenticator: Authenticator, purpose: DeliveryPurpose = 'verification', locale?: string): (code: string) => Promise<void> {
  return async (code) => {
    if (authenticator.email !== null) return sendMail(ctx, tenant, authenticator.email, code);
    if (authenticator.phone_number !== null) return sendSms(ctx, tenant, authenticator.phone_number, code, purpose, authenticator.user_id, locale);
    throw oauthErrors.invalidRequest(`Codes cannot be sent to ${authenticator.type} authenticators.`);
  };
}
