/** Texting a passwordless code (an sms connection) through a send-phone-message action or the tenant's Twilio provider: /passwordless/start and the hosted step share it. */
import type { ConnectionRow } from '../../domain/connections/model.js';
import { startSms, type PasswordlessContext } from '../../domain/passwordless/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { admitTextMessage, sendTextMessage, type CodeDeliveryContext } from '../mfa/delivery.js';
import { sendThroughActions } from '../actions/phone-message.js';

/** What sending passwordless codes by text message touches. */
export interface PasswordlessSmsContext extends PasswordlessContext, CodeDeliveryContext {
  readonly stores: PasswordlessContext['stores'] & CodeDeliveryContext['stores'];
}

/**
 * Creates the number's code and texts it (nothing to an unknown number under
 * disable_signup). A tenant without a provider is an OAuthError 400, a
 * provider that refuses one of 502, a number that must wait under phone
 * provider protection one of 429 (../mfa/delivery.ts).
 */
export function textPasswordlessCode(ctx: PasswordlessSmsContext, tenant: Tenant, connection: ConnectionRow, client: { id: string; name: string }, phoneNumber: string): Promise<void> {
  return startSms(ctx, {
    tenant,
    connection,
    client,
    phoneNumber,
    // A send-phone-message action, when bound, sends it instead of the provider.
    send: async (body, sender, code) => {
      await admitTextMessage(ctx, tenant, phoneNumber);
      if (await sendThroughActions(ctx, tenant, { recipient: phoneNumber, text: body, code, action: 'passwordless' })) return;
      await sendTextMessage(ctx, tenant, phoneNumber, body, sender);
    },
  });
}
