/**
 * pre-user-registration (v2), actions-wire-notes §2.5: runs for database and
 * passwordless signups before the user is created. `access.deny(reason,
 * userMessage)` refuses the signup (the reason goes to the tenant log, the
 * message to the user); `validation.error(code, message)` likewise; metadata
 * set here is the new user's.
 */
import { setMetadata, stringArg, type TriggerModule } from './trigger.js';
import type { EventRequest } from './event-parts.js';

export interface PreUserRegistrationInput {
  tenant: { id: string };
  user: Record<string, unknown>;
  connection: { id: string; name: string; strategy: string };
  client?: { client_id: string; name: string; metadata: Record<string, unknown> };
  request: EventRequest;
}

export interface PreUserRegistrationOutcome {
  deny?: { reason: string; userMessage: string; code?: string };
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
}

export const preUserRegistration: TriggerModule<PreUserRegistrationInput, PreUserRegistrationOutcome> = {
  id: 'pre-user-registration',
  version: 'v2',
  handler: 'onExecutePreUserRegistration',
  blocking: true,
  methods: ['access.deny', 'validation.error', 'user.setAppMetadata', 'user.setUserMetadata'],

  event: (input) => ({
    user: input.user,
    connection: input.connection,
    ...(input.client && { client: input.client }),
    request: input.request,
    tenant: { id: input.tenant.id },
  }),

  start: () => ({ appMetadata: {}, userMetadata: {} }),

  apply(outcome, { method, args }) {
    switch (method) {
      case 'access.deny': {
        const reason = typeof args[0] === 'string' ? args[0].slice(0, 1024) : 'Access denied';
        const userMessage = typeof args[1] === 'string' ? args[1].slice(0, 1024) : reason;
        outcome.deny = { reason, userMessage };
        return;
      }
      case 'validation.error':
        outcome.deny = { code: stringArg(args[0], 'The error code', 100), reason: stringArg(args[1], 'The error message', 100), userMessage: String(args[1]) };
        return;
      case 'user.setAppMetadata':
        return setMetadata(outcome.appMetadata, args[0], args[1]);
      case 'user.setUserMetadata':
        return setMetadata(outcome.userMetadata, args[0], args[1]);
    }
  },

  stops: (outcome) => outcome.deny !== undefined,
};
