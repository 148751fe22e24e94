/** The login of SAML enterprise connections (`samlp`): started by ./login.ts, answered at ./callback.ts. */
import { SAMLP_STRATEGY, samlpConnectionSettings } from '../../domain/connections/samlp-connection.js';
import type { ConnectionLogin } from '../interaction/step.js';
import { readQuery } from '../params.js';
import { samlpCallback, spMetadataEndpoint } from './callback.js';
import { sendAuthnRequest } from './login.js';

export const samlpLogin: ConnectionLogin = {
  strategy: SAMLP_STRATEGY,
  start: sendAuthnRequest,
  domains: (connection) => samlpConnectionSettings(connection.options).domain_aliases,
  routes: (deps) => [spMetadataEndpoint(deps)],
  // The IdP posts to the ACS URL, which names the connection.
  callback: { claims: (request) => request.method === 'POST' && readQuery(request).values.connection !== undefined, handle: samlpCallback },
};
