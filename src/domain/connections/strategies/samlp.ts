/** SAML enterprise connections (`samlp`): options and their rules in ../samlp-connection.ts; the login in src/authentication/samlp-connection/. */
import { SAMLP_STRATEGY, samlpConnectionProblem } from '../samlp-connection.js';
import { enterpriseUserId, type ConnectionStrategy } from './strategy.js';

export const samlpStrategy: ConnectionStrategy = {
  name: SAMLP_STRATEGY,
  kind: 'enterprise',
  isSocial: false,
  optionsProblem: samlpConnectionProblem,
  userId: enterpriseUserId(SAMLP_STRATEGY),
};
