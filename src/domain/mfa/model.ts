/**
 * Multi-factor authentication: the factors a tenant may enable (the
 * Management API's `GuardianFactorNameEnum`), its policies, and users'
 * enrolments ("authenticators") as each surface names them:
 *
 * | stored `type`   | /mfa API id and type            | Management authentication-methods | /users/{id}/enrollments |
 * |-----------------|---------------------------------|-----------------------------------|-------------------------|
 * | `totp`          | `totp|dev_…`, `otp`             | `totp`                            | `authenticator`         |
 * | `recovery-code` | `recovery-code|dev_…`           | `recovery-code`                   | (not listed)            |
 * | `email`         | `email|dev_…`, `oob` + `email`  | `email`                           | (not listed)            |
 * | `phone`         | `sms|dev_…`, `oob` + `sms`      | `phone`                           | `sms`                   |
 * | `push`          | `push|dev_…`, `oob` + `auth0`   | `push`                            | `pn`                    |
 *
 * Each row is one factor module under ./factors/ (./factors/registry.ts).
 *
 * A TOTP secret is sealed with the master key under a context naming the
 * tenant and the enrolment, so a sealed value copied to another row does not
 * open; a recovery code is stored as its SHA-256 only.
 */
import type { MfaAuthenticatorRow } from '../rows.js';

/** Every factor name the Management API knows, in the service's order. */
export const FACTOR_NAMES = ['push-notification', 'sms', 'email', 'duo', 'otp', 'webauthn-roaming', 'webauthn-platform', 'recovery-code'] as const;
export type FactorName = (typeof FACTOR_NAMES)[number];

export const MFA_POLICIES = ['all-applications', 'confidence-score'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

export type AuthenticatorType = 'totp' | 'recovery-code' | 'email' | 'phone' | 'push' | 'webauthn-roaming' | 'webauthn-platform' | 'passkey';

export type Authenticator = MfaAuthenticatorRow & { type: AuthenticatorType };

/** The stored id of an API id (`totp|dev_…` or the bare `dev_…`); undefined when the prefix does not match the type. */
export function storedIdOf(apiId: string): string {
  const bar = apiId.indexOf('|');
  return bar === -1 ? apiId : apiId.slice(bar + 1);
}

export function totpSecretContext(tenantId: string, authenticatorId: string): string {
  return `mfa_totp_secret:${tenantId}:${authenticatorId}`;
}

/** `****@exam*******` as the /mfa API names an email authenticator (wire notes §13). */
export function maskedEmail(email: string): string {
  const at = email.indexOf('@');
  if (at < 0) return '*'.repeat(email.length);
  const domain = email.slice(at + 1);
  const shown = domain.slice(0, Math.min(4, domain.length));
  return `${'*'.repeat(at)}@${shown}${'*'.repeat(domain.length - shown.length)}`;
}

/** `XXXXXXXXX9167`: the last four digits of a phone number. */
export function maskedPhone(phone: string): string {
  return `${'X'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;
}

/**
 * The SMS factor's Twilio account as stored: `null` members were given as
 * null, absent ones never given. The auth token is sealed under
 * `twilioAuthTokenContext`.
 */
export interface TwilioSettings {
  sid?: string | null;
  from?: string | null;
  messaging_service_sid?: string | null;
  auth_token_enc?: string | null;
}

export interface SmsTemplates {
  enrollment_message: string;
  verification_message: string;
}

/** The service's default messages (its OpenAPI document's defaults). */
export const DEFAULT_SMS_TEMPLATES: SmsTemplates = {
  enrollment_message: '{{code}} is your verification code for {{tenant.friendly_name}}. Please enter this code to verify your enrollment.',
  verification_message: '{{code}} is your verification code for {{tenant.friendly_name}}',
};

/** Who sends the phone factor's messages (the service's GuardianFactorsProviderSmsProviderEnum). */
export const PHONE_PROVIDERS = ['auth0', 'twilio', 'phone-message-hook'] as const;
export type PhoneProvider = (typeof PHONE_PROVIDERS)[number];
export type PhoneMessageType = 'sms' | 'voice';

export interface SmsSettings {
  /** null until configured. */
  twilio: TwilioSettings | null;
  templates: SmsTemplates;
  /** `auth0` until set. */
  selectedProvider: PhoneProvider;
  /** `['sms']` until set. */
  messageTypes: PhoneMessageType[];
}

export function twilioAuthTokenContext(tenantId: string): string {
  return `guardian_twilio_auth_token:${tenantId}`;
}

export function pushTokenContext(tenantId: string, authenticatorId: string): string {
  return `mfa_push_token:${tenantId}:${authenticatorId}`;
}
