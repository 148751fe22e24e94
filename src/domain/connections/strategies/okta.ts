/** Okta Workforce connections (`okta`): options in ../enterprise-oidc-options.ts; users `okta|{connection}|{sub}`; the login in src/authentication/oidc-connection/. */
import { OKTA_STRATEGY, oktaOptionsProblem, prepareOktaOptions } from '../enterprise-oidc-options.js';
import { oidcProviderStatus } from '../oidc-options.js';
import { enterpriseUserId, type ConnectionStrategy } from './strategy.js';

export const oktaStrategy: ConnectionStrategy = {
  name: OKTA_STRATEGY,
  kind: 'enterprise',
  isSocial: false,
  optionsProblem: oktaOptionsProblem,
  prepareOptions: (options, deps) => prepareOktaOptions(options, deps.fetch),
  status: (options, deps) => oidcProviderStatus(options, deps.fetch),
  userId: enterpriseUserId(OKTA_STRATEGY),
};
