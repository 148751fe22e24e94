/**
 * The tenant's phone provider (/api/v2/branding/phone/providers): where
 * every text message Gatehouse sends goes (MFA enrolment and challenge,
 * passwordless codes, the phone templates' `try`). One per tenant, as in the
 * service: a second create is 409. Two names:
 *
 * - `twilio`: Twilio's REST API (src/platform/sms/twilio.ts, at
 *   GATEHOUSE_TWILIO_URL), with the account `configuration.sid`, the sender
 *   `default_from` or the messaging service `mssid`, and the auth token
 *   `credentials.auth_token`: sealed at rest under phoneProviderTokenContext,
 *   never answered, never logged. It is sealed under the environment root
 *   key (no tenant id given to the box): the provider lives in a
 *   `ui_settings` document, whose composite key the rekey's scan
 *   (src/domain/encryption/sealed-values.ts) cannot walk, so it is not
 *   listed there and must not be sealed under a tenant key a rekey retires.
 * - `custom`: the service hands each message to the tenant's
 *   `send-phone-message` Action. It is stored and listed; a message through
 *   it is refused with a clear reason (PhoneDeliveryError `custom_provider`)
 *   until that trigger runs here.
 *
 * A tenant without an enabled provider keeps sending through the Guardian
 * SMS factor's Twilio account (PUT /api/v2/guardian/factors/sms/providers/
 * twilio), as before this resource existed. Voice delivery is not offered:
 * `delivery_methods` may name `voice`, but what is sent is text.
 */
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { sendTwilioSms, SmsDeliveryError } from '../../platform/sms/twilio.js';
import { twilioAuthTokenContext } from '../mfa/model.js';
import type { MfaStore } from '../mfa/store.js';
import type { UiSettingsContext } from './service.js';
import type { UiSettingsStore } from './store.js';

export type PhoneProviderName = 'twilio' | 'custom';
export type DeliveryMethod = 'text' | 'voice';

export interface PhoneProviderConfiguration {
  sid?: string;
  default_from?: string;
  mssid?: string;
  delivery_methods: DeliveryMethod[];
}

/** The provider as the Management API answers it (the document's PhoneProviderSchemaMasked: never the credentials). */
export interface PhoneProvider {
  id: string;
  tenant: string;
  name: PhoneProviderName;
  channel: 'phone';
  disabled: boolean;
  configuration: PhoneProviderConfiguration;
  created_at: string;
  updated_at: string;
}

interface Stored {
  id: string;
  name: PhoneProviderName;
  disabled: boolean;
  configuration: PhoneProviderConfiguration;
  /** The Twilio auth token, sealed; absent for `custom`. */
  auth_token_enc?: string;
  created_at: string;
  updated_at: string;
}

export interface PhoneProviderInput {
  name?: PhoneProviderName;
  disabled?: boolean;
  configuration?: PhoneProviderConfiguration;
  credentials?: { auth_token?: string };
}

/** What storing a provider touches: the settings store and the box sealing its token. */
export interface PhoneProviderContext extends UiSettingsContext {
  readonly box: SecretBox;
}

export function phoneProviderTokenContext(tenantId: string): string {
  return `phone_provider_auth_token:${tenantId}`;
}

const shown = (tenant: string, s: Stored): PhoneProvider => ({
  id: s.id,
  tenant,
  name: s.name,
  channel: 'phone',
  disabled: s.disabled,
  configuration: s.configuration,
  created_at: s.created_at,
  updated_at: s.updated_at,
});

async function stored(ctx: { readonly stores: { readonly uiSettings: UiSettingsStore } }, tenantId: string): Promise<Stored | undefined> {
  return (await ctx.stores.uiSettings.get(tenantId, 'phone_provider', ''))?.value as Stored | undefined;
}

/** Why `input` cannot be the provider (a message for the service's 400), or undefined: the configuration and credentials its name needs. */
/**
 * Who sends the tenant's text messages (MFA and passwordless codes): the tenant's
 * send-phone-message action (`action`), or Twilio (`provider`).
 * - An enabled phone provider decides: `custom` is the action, `twilio` Twilio.
 * - Else the Guardian phone factor's selected provider: `phone-message-hook` is the
 *   action, `twilio` Twilio, and `auth0` (the default; Gatehouse has no SMS service of
 *   its own) the action when one is bound, else Twilio.
 * `required`: the choice names the action, so a tenant without one bound is refused
 * rather than sent through Twilio behind its back.
 */
export async function phoneSender(ctx: { readonly stores: { readonly uiSettings: UiSettingsStore; readonly mfa: MfaStore } }, tenantId: string): Promise<'action-required' | 'action-if-bound' | 'provider'> {
  const provider = await stored(ctx, tenantId);
  if (provider && !provider.disabled) return provider.name === 'custom' ? 'action-required' : 'provider';
  const { selectedProvider } = await ctx.stores.mfa.smsSettings(tenantId);
  if (selectedProvider === 'phone-message-hook') return 'action-required';
  return selectedProvider === 'twilio' ? 'provider' : 'action-if-bound';
}

export function phoneProviderProblem(input: Required<Pick<PhoneProviderInput, 'name'>> & PhoneProviderInput, hasToken: boolean): string | undefined {
  const config = input.configuration;
  if (input.name === 'twilio') {
    if (!config?.sid) return 'a twilio provider needs configuration.sid (the account SID) and configuration.delivery_methods';
    if (!/^[A-Za-z0-9]{1,64}$/.test(config.sid)) return 'configuration.sid is not a Twilio account SID';
    if (!config.default_from && !config.mssid) return 'a twilio provider needs configuration.default_from or configuration.mssid to send from';
    if (!hasToken && !input.credentials?.auth_token) return 'a twilio provider needs credentials.auth_token';
  } else {
    if (config && (config.sid !== undefined || config.default_from !== undefined || config.mssid !== undefined)) return 'a custom provider has only configuration.delivery_methods';
    if (input.credentials?.auth_token !== undefined) return 'a custom provider has no credentials';
  }
  return undefined;
}

export async function listPhoneProviders(ctx: UiSettingsContext, tenantId: string, tenantName: string): Promise<PhoneProvider[]> {
  const s = await stored(ctx, tenantId);
  return s ? [shown(tenantName, s)] : [];
}

export async function findPhoneProvider(ctx: UiSettingsContext, tenantId: string, tenantName: string, id: string): Promise<PhoneProvider | undefined> {
  const s = await stored(ctx, tenantId);
  return s?.id === id ? shown(tenantName, s) : undefined;
}

/** The tenant's new provider (checked by phoneProviderProblem first), or undefined when it has one. */
export async function createPhoneProvider(ctx: PhoneProviderContext, tenantId: string, tenantName: string, input: PhoneProviderInput & { name: PhoneProviderName }): Promise<PhoneProvider | undefined> {
  const now = isoAt(ctx.now());
  const token = input.credentials?.auth_token;
  const s: Stored = {
    id: `pro_${randomBytes(16).toString('base64url').replace(/[-_]/g, '').slice(0, 22)}`,
    name: input.name,
    disabled: input.disabled ?? false,
    configuration: input.configuration ?? { delivery_methods: ['text'] },
    ...(token !== undefined && { auth_token_enc: ctx.box.seal(token, phoneProviderTokenContext(tenantId)) }),
    created_at: now,
    updated_at: now,
  };
  const inserted = await ctx.stores.uiSettings.insertNew({ tenant_id: tenantId, kind: 'phone_provider', key: '', value: { ...s }, updated_at: now });
  return inserted ? shown(tenantName, s) : undefined;
}

/**
 * Applies a PATCH: members given replace the stored ones (the configuration
 * as a whole, the token when given); a change of name drops what the other
 * name had. Undefined when `id` is not the tenant's provider; a string when
 * the result would not be a usable provider.
 */
export async function updatePhoneProvider(ctx: PhoneProviderContext, tenantId: string, tenantName: string, id: string, changes: PhoneProviderInput): Promise<PhoneProvider | string | undefined> {
  const current = await stored(ctx, tenantId);
  if (current?.id !== id) return undefined;
  const name = changes.name ?? current.name;
  const sameName = name === current.name;
  const configuration = changes.configuration ?? (sameName ? current.configuration : { delivery_methods: current.configuration.delivery_methods });
  const problem = phoneProviderProblem({ ...changes, name, configuration }, sameName && current.auth_token_enc !== undefined);
  if (problem !== undefined) return problem;
  const token = changes.credentials?.auth_token;
  const sealed = token !== undefined ? ctx.box.seal(token, phoneProviderTokenContext(tenantId)) : sameName ? current.auth_token_enc : undefined;
  const now = isoAt(ctx.now());
  const next: Stored = {
    id,
    name,
    disabled: changes.disabled ?? current.disabled,
    configuration,
    ...(name === 'twilio' && sealed !== undefined && { auth_token_enc: sealed }),
    created_at: current.created_at,
    updated_at: now,
  };
  await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'phone_provider', key: '', value: { ...next }, updated_at: now });
  return shown(tenantName, next);
}

export async function deletePhoneProvider(ctx: UiSettingsContext, tenantId: string, id: string): Promise<boolean> {
  const current = await stored(ctx, tenantId);
  if (current?.id !== id) return false;
  return ctx.stores.uiSettings.delete(tenantId, 'phone_provider', '');
}

// ---------------------------------------------------------------------------
// Sending

/** Why a text message was not sent. */
export class PhoneDeliveryError extends Error {
  constructor(
    readonly reason: 'not_configured' | 'custom_provider' | 'voice' | 'provider_refused',
    message: string,
    readonly provider?: { status: number; code: number | undefined },
  ) {
    super(message);
    this.name = 'PhoneDeliveryError';
  }
}

/** What sending a text message touches. */
export interface PhoneDeliveryContext {
  readonly box: SecretBox;
  readonly config: Config;
  readonly stores: { readonly uiSettings: UiSettingsStore; readonly mfa: MfaStore };
}

/**
 * Sends `body` to `to` through the tenant's enabled phone provider, else
 * the Guardian SMS factor's Twilio account; from `sender.from` (a phone
 * template's) when given, else the provider's sender. `providerOnly` (a
 * provider's `try`): through the stored provider, even disabled. Throws
 * PhoneDeliveryError: nothing configured, a `custom` provider (its Action is
 * not run here), or Twilio refusing (its status and code, never the text).
 */
export async function sendPhoneText(
  ctx: PhoneDeliveryContext,
  tenantId: string,
  to: string,
  body: string,
  sender: { from?: string; messagingServiceSid?: string } = {},
  options: { providerOnly?: boolean } = {},
): Promise<void> {
  const provider = await stored(ctx, tenantId);
  let account: { sid: string; authToken: string; from?: string; messagingServiceSid?: string } | undefined;
  if (provider && (!provider.disabled || options.providerOnly)) {
    if (provider.name === 'custom') {
      throw new PhoneDeliveryError('custom_provider', 'The custom phone provider delivers through the send-phone-message Action (MFA and passwordless codes); it does not send test messages.');
    }
    const { sid, default_from: from, mssid } = provider.configuration;
    if (sid && provider.auth_token_enc) {
      account = { sid, authToken: ctx.box.openString(provider.auth_token_enc, phoneProviderTokenContext(tenantId)), ...(from && { from }), ...(mssid && { messagingServiceSid: mssid }) };
    }
  } else if (!options.providerOnly) {
    const { twilio } = await ctx.stores.mfa.smsSettings(tenantId);
    if (twilio?.sid && twilio.auth_token_enc) {
      account = {
        sid: twilio.sid,
        authToken: ctx.box.openString(twilio.auth_token_enc, twilioAuthTokenContext(tenantId)),
        ...(twilio.from && { from: twilio.from }),
        ...(twilio.messaging_service_sid && { messagingServiceSid: twilio.messaging_service_sid }),
      };
    }
  }
  const from = sender.messagingServiceSid === undefined ? (sender.from ?? account?.from) : undefined;
  const messagingServiceSid = sender.messagingServiceSid ?? (sender.from === undefined ? account?.messagingServiceSid : undefined);
  if (!account || !(from || messagingServiceSid)) throw new PhoneDeliveryError('not_configured', 'Text messages cannot be sent: the SMS provider is not configured.');
  try {
    await sendTwilioSms(ctx.config.sms.twilioUrl, { sid: account.sid, authToken: account.authToken, ...(from && { from }), ...(messagingServiceSid && { messagingServiceSid }) }, to, body);
  } catch (error) {
    if (!(error instanceof SmsDeliveryError)) throw error;
    throw new PhoneDeliveryError('provider_refused', `The SMS provider refused the message (status ${error.status}${error.providerCode === undefined ? '' : `, code ${error.providerCode}`}).`, { status: error.status, code: error.providerCode });
  }
}
