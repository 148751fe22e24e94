/**
 * Microsoft Entra ID / Azure AD connections (`waad`), single- and
 * multi-tenant: options in ../enterprise-oidc-options.ts; users
 * `waad|{connection}|{oid or sub}`; the login in src/authentication/oidc-connection/.
 */
import { prepareWaadOptions, WAAD_STRATEGY, waadOptionsProblem } from '../enterprise-oidc-options.js';
import { oidcProviderStatus } from '../oidc-options.js';
import { enterpriseUserId, type ConnectionStrategy } from './strategy.js';

export const waadStrategy: ConnectionStrategy = {
  name: WAAD_STRATEGY,
  kind: 'enterprise',
  isSocial: false,
  optionsProblem: waadOptionsProblem,
  prepareOptions: (options, deps) => prepareWaadOptions(options, deps.fetch, deps.endpoints),
  status: (options, deps) => oidcProviderStatus(options, deps.fetch),
  userId: enterpriseUserId(WAAD_STRATEGY),
};
