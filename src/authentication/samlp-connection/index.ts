/** The login of SAML enterprise connections (`samlp`): started by ./login.ts, answered at ./callback.ts. */
import { SAMLP_STRATEGY, samlpConnectionSettings } from '../../domain/connections/samlp-connection.js';
import type { ConnectionLogin } from '../interaction/step.js';
import { loginCallbackEndpoint, spMetadataEndpoint } from './callback.js';
import { sendAuthnRequest } from './login.js';

export const samlpLogin: ConnectionLogin = {
  strategy: SAMLP_STRATEGY,
  start: sendAuthnRequest,
  domains: (connection) => samlpConnectionSettings(connection.options).domain_aliases,
  routes: (deps) => [loginCallbackEndpoint(deps), spMetadataEndpoint(deps)],
};
