/**
 * send-phone-message (v2), actions-wire-notes §2.7: when bound, the action
 * sends the MFA or passwordless text message itself (through its provider's
 * API with `fetch`), instead of the tenant's SMS provider. Its api offers the
 * cache only; an error fails the delivery.
 */
import type { TriggerModule } from './trigger.js';
import type { EventRequest } from './event-parts.js';

export interface SendPhoneMessageInput {
  tenant: { id: string };
  user?: Record<string, unknown>;
  client?: { client_id: string; name: string; metadata: Record<string, unknown> };
  request?: EventRequest;
  /** `action`: the service's two, and `passwordless` for a passwordless code (Gatehouse also sends those through the trigger). */
  message: { recipient: string; text: string; code: string; message_type: 'sms' | 'voice'; action: 'enrollment' | 'second-factor-authentication' | 'passwordless' };
}

export const sendPhoneMessage: TriggerModule<SendPhoneMessageInput, Record<string, never>> = {
  id: 'send-phone-message',
  version: 'v2',
  handler: 'onExecuteSendPhoneMessage',
  blocking: true,
  methods: [],
  event: (input) => ({
    message_options: input.message,
    ...(input.user && { user: input.user }),
    ...(input.client && { client: input.client }),
    ...(input.request && { request: input.request }),
    tenant: { id: input.tenant.id },
  }),
  start: () => ({}),
  apply: () => undefined,
};
