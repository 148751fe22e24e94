/**
 * The triggers of Actions that Gatehouse runs, one module each: a new trigger
 * is one module and one line here (`GET /api/v2/actions/triggers` may list
 * them from this registry).
 */
import { postChangePassword, postUserRegistration } from './after-the-fact.js';
import { credentialsExchange } from './credentials-exchange.js';
import { customTokenExchange } from './custom-token-exchange.js';
import { postLogin } from './post-login.js';
import { preUserRegistration } from './pre-user-registration.js';
import { sendPhoneMessage } from './send-phone-message.js';
import type { TriggerId, TriggerModule } from './trigger.js';

export const TRIGGERS: Readonly<Record<TriggerId, TriggerModule<never, unknown>>> = {
  'post-login': postLogin as TriggerModule<never, unknown>,
  'credentials-exchange': credentialsExchange as TriggerModule<never, unknown>,
  'pre-user-registration': preUserRegistration as TriggerModule<never, unknown>,
  'post-user-registration': postUserRegistration as TriggerModule<never, unknown>,
  'post-change-password': postChangePassword as TriggerModule<never, unknown>,
  'send-phone-message': sendPhoneMessage as TriggerModule<never, unknown>,
  'custom-token-exchange': customTokenExchange as TriggerModule<never, unknown>,
};

export { postLogin, credentialsExchange, preUserRegistration, postUserRegistration, postChangePassword, sendPhoneMessage, customTokenExchange };
