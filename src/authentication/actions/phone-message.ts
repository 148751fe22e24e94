/**
 * send-phone-message (actions-wire-notes §2.7): the tenant's own code sends
 * the text message (through its provider's API, with `fetch`) instead of
 * Twilio, for MFA (enrolment and challenge) and for passwordless codes, when
 * the tenant chose it: a `custom` phone provider, or the Guardian phone
 * factor's `phone-message-hook`; under the default selection (`auth0`) an
 * action bound to the trigger is that choice (src/domain/branding/
 * phone-providers.ts `phoneSender`). Chosen but none bound: 400. Blocking: an
 * action that throws or times out fails the delivery as a refusing provider
 * does (502 `server_error`), and is logged as `actions_execution_failed`.
 */
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import { sendPhoneMessage, type SendPhoneMessageInput } from '../../domain/actions-runtime/triggers/send-phone-message.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { phoneSender } from '../../domain/branding/phone-providers.js';
import type { UiSettingsStore } from '../../domain/branding/store.js';
import type { MfaStore } from '../../domain/mfa/store.js';

export interface PhoneMessageActionsContext {
  readonly actions: ActionsRuntime;
  readonly stores: { readonly uiSettings: UiSettingsStore; readonly mfa: MfaStore };
}

/** What the message is: its text (already rendered), the code in it, why it is sent. */
export type PhoneMessage = Omit<SendPhoneMessageInput['message'], 'message_type'>;

/** Sends the message through the bound actions; false when none is bound (the provider sends it). */
export async function sendThroughActions(ctx: PhoneMessageActionsContext, tenant: Tenant, message: PhoneMessage, user?: { user_id: string }): Promise<boolean> {
  const sender = await phoneSender(ctx, tenant.id);
  if (sender === 'provider') return false;
  const actions = await ctx.actions.bound(tenant.id, 'send-phone-message');
  if (actions.length === 0) {
    if (sender === 'action-if-bound') return false;
    throw oauthErrors.invalidRequest('Text messages cannot be sent: the phone provider chosen is the send-phone-message action, and none is bound.');
  }
  const { failure } = await ctx.actions.run(tenant.id, sendPhoneMessage, { tenant: { id: tenant.id }, message: { ...message, message_type: 'sms' }, ...(user && { user }) }, { actions });
  if (failure) throw oauthErrors.serverError('The text message could not be sent.', 502);
  return true;
}
