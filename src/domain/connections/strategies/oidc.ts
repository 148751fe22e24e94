/**
 * OpenID Connect enterprise connections (`oidc`): options in
 * ../oidc-options.ts; users `oidc|{connection}|{sub}` (the service's
 * enterprise form, federation wire notes §3.1); the login in
 * src/authentication/oidc-connection/.
 */
import { OIDC_STRATEGY, oidcOptionsProblem, oidcProviderStatus, prepareOidcOptions } from '../oidc-options.js';
import { enterpriseUserId, type ConnectionStrategy } from './strategy.js';

export const oidcStrategy: ConnectionStrategy = {
  name: OIDC_STRATEGY,
  kind: 'enterprise',
  isSocial: false,
  optionsProblem: oidcOptionsProblem,
  prepareOptions: (options, deps) => prepareOidcOptions(options, deps.fetch),
  status: (options, deps) => oidcProviderStatus(options, deps.fetch),
  userId: enterpriseUserId(OIDC_STRATEGY),
};
