/**
 * send-phone-message (actions-wire-notes §2.7): when an action is bound to
 * the trigger, the tenant's own code sends the text message (through its
 * provider's API, with `fetch`) instead of the tenant's SMS provider: for
 * MFA (enrolment and challenge) and for passwordless codes. The service
 * does this for its "custom" phone provider; in Gatehouse binding an action
 * is that choice. Blocking: an action that throws or times out fails the
 * delivery as a refusing provider does (502 `server_error`), and is logged
 * as `actions_execution_failed`.
 */
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import { sendPhoneMessage, type SendPhoneMessageInput } from '../../domain/actions-runtime/triggers/send-phone-message.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';

export interface PhoneMessageActionsContext {
  readonly actions: ActionsRuntime;
}

/** What the message is: its text (already rendered), the code in it, why it is sent. */
export type PhoneMessage = Omit<SendPhoneMessageInput['message'], 'message_type'>;

/** Sends the message through the bound actions; false when none is bound (the provider sends it). */
export async function sendThroughActions(ctx: PhoneMessageActionsContext, tenant: Tenant, message: PhoneMessage, user?: { user_id: string }): Promise<boolean> {
  const actions = await ctx.actions.bound(tenant.id, 'send-phone-message');
  if (actions.length === 0) return false;
  const { failure } = await ctx.actions.run(tenant.id, sendPhoneMessage, { tenant: { id: tenant.id }, message: { ...message, message_type: 'sms' }, ...(user && { user }) }, { actions });
  if (failure) throw oauthErrors.serverError('The text message could not be sent.', 502);
  return true;
}
