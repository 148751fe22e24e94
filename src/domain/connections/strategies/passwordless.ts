/** Passwordless connections (`email`, `sms`): options in ../../passwordless/options.ts; the login in src/authentication/passwordless/. */
import { EMAIL_STRATEGY, passwordlessOptionsProblem, SMS_STRATEGY } from '../../passwordless/options.js';
import { plainUserId, type ConnectionStrategy } from './strategy.js';

function passwordless(name: string): ConnectionStrategy {
  return {
    name,
    kind: 'passwordless',
    isSocial: false,
    optionsProblem: (options) => {
      const message = passwordlessOptionsProblem(options, name);
      return message === undefined ? undefined : { property: 'options', message };
    },
    userId: plainUserId(name),
  };
}

export const emailStrategy = passwordless(EMAIL_STRATEGY);
export const smsStrategy = passwordless(SMS_STRATEGY);
