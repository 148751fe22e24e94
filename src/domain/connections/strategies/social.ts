/**
 * The shape shared by the social strategies (one module each beside this
 * one): `{strategy}|{id}` user ids, social identities, options checked and
 * their `scope` computed by ../social-options.ts from the strategy's rules.
 * Their logins are in src/authentication/social-connections/.
 */
import { prepareSocialOptions, socialOptionsProblem, type SocialOptionRules } from '../social-options.js';
import { plainUserId, type ConnectionStrategy } from './strategy.js';

export interface SocialStrategy extends ConnectionStrategy {
  /** The provider's name, as its login button says it (`Continue with GitHub`). */
  readonly label: string;
  readonly rules: SocialOptionRules;
}

export function socialStrategy(name: string, label: string, rules: SocialOptionRules, extra: Pick<ConnectionStrategy, 'identityUserId'> = {}): SocialStrategy {
  return {
    ...extra,
    name,
    label,
    kind: 'social',
    isSocial: true,
    rules,
    optionsProblem: (options) => socialOptionsProblem(rules, options),
    prepareOptions: async (options) => prepareSocialOptions(rules, options),
    userId: plainUserId(name),
  };
}
