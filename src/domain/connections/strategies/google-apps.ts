/**
 * Google Workspace connections (`google-apps`): options in
 * ../enterprise-oidc-options.ts; users `google-apps|{connection}|{email}`
 * (or the Google id with `map_user_id_to_id`); the login in src/authentication/oidc-connection/.
 */
import { GOOGLE_APPS_STRATEGY, googleAppsOptionsProblem, prepareGoogleAppsOptions } from '../enterprise-oidc-options.js';
import { oidcProviderStatus } from '../oidc-options.js';
import { enterpriseUserId, type ConnectionStrategy } from './strategy.js';

export const googleAppsStrategy: ConnectionStrategy = {
  name: GOOGLE_APPS_STRATEGY,
  kind: 'enterprise',
  isSocial: false,
  optionsProblem: googleAppsOptionsProblem,
  prepareOptions: (options, deps) => prepareGoogleAppsOptions(options, deps.fetch, deps.endpoints),
  status: (options, deps) => oidcProviderStatus(options, deps.fetch),
  userId: enterpriseUserId(GOOGLE_APPS_STRATEGY),
};
