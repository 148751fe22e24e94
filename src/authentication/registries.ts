/**
 * What the Authentication API is made of, as lists: the grant types of the
 * token endpoint, the client-authentication methods, the response types and
 * response modes of /authorize, the interaction steps of a browser
 * login, and the logins of federated connections. The endpoints are built from these lists and discovery
 * (./well-known/openid-configuration.ts) is derived from them, so a new
 * grant, method, mode or step is one module and one line here.
 */
import { RESPONSE_MODE_LIST, type ResponseMode } from './authorize/response-modes/index.js';
import { RESPONSE_TYPES } from './authorize/request.js';
import { clientSecretBasic } from './client-auth/client-secret-basic.js';
import { clientSecretPost } from './client-auth/client-secret-post.js';
import type { ClientAuthMethod } from './client-auth/method.js';
import { none } from './client-auth/none.js';
import { privateKeyJwt } from './client-auth/private-key-jwt.js';
import { selfSignedTlsClientAuth, tlsClientAuth } from './client-auth/tls-client-auth.js';
import type { ConnectionLogin, InteractionStep, ProtocolResponse } from './interaction/step.js';
import { consentStep } from './interaction/steps/consent.js';
import { loginStep } from './interaction/steps/login.js';
import { mfaStep } from './interaction/steps/mfa.js';
import { passkeyEnrolmentStep } from './interaction/steps/passkey-enrolment.js';
import { passwordlessStep } from './interaction/steps/passwordless.js';
import type { GrantHandler } from './token/grant.js';
import { authorizationCode } from './token/grants/authorization-code.js';
import { clientCredentials } from './token/grants/client-credentials.js';
import { mfaOob } from './token/grants/mfa-oob.js';
import { mfaOtp } from './token/grants/mfa-otp.js';
import { mfaRecoveryCode } from './token/grants/mfa-recovery-code.js';
import { organizationStep } from './interaction/steps/organization.js';
import { deviceCode } from './token/grants/device-code.js';
import { ciba } from './token/grants/ciba.js';
import { password, passwordRealm } from './token/grants/password.js';
import { passwordlessOtp } from './token/grants/passwordless-otp.js';
import { refreshToken } from './token/grants/refresh-token.js';
import { federatedConnectionAccessToken } from './token/grants/federated-connection-access-token.js';
import { customTokenExchangeGrant } from './token/grants/custom-token-exchange.js';
import { samlpResponse } from './samlp/response.js';
import { federatedLoginStep } from './interaction/steps/federated.js';
import { samlpLogin } from './samlp-connection/index.js';
import { googleAppsLogin, oidcLogin, oktaLogin, waadLogin } from './oidc-connection/index.js';
import { socialLogins } from './social-connections/index.js';
import { wsfedResponse } from './wsfed/endpoint.js';

export interface AuthenticationRegistries {
  /** The token endpoint's grant types, one handler each. */
  grants: readonly GrantHandler[];
  /** Client authentication, in order of precedence: explicit credentials first, `none` last. */
  clientAuthMethods: readonly ClientAuthMethod[];
  /** /authorize response types, each as its parts sorted and joined by a space. */
  responseTypes: readonly string[];
  /** /authorize response modes. */
  responseModes: readonly ResponseMode[];
  /** The interaction steps of a browser login, in order (./interaction/step.ts). */
  interactionSteps: readonly InteractionStep[];
  /** The answers of other protocols' requests carried through the steps (SAML). */
  protocolResponses: readonly ProtocolResponse[];
  /** How a login through a federated connection starts and comes back, one per strategy (options and user ids: src/domain/connections/strategies/). */
  connectionLogins: readonly ConnectionLogin[];
}

export function defaultRegistries(): AuthenticationRegistries {
  return {
    grants: [authorizationCode, clientCredentials, password, passwordRealm, refreshToken, mfaOtp, mfaOob, mfaRecoveryCode, passwordlessOtp, deviceCode, ciba, federatedConnectionAccessToken, customTokenExchangeGrant],
    clientAuthMethods: [clientSecretBasic, clientSecretPost, privateKeyJwt, tlsClientAuth, selfSignedTlsClientAuth, none],
    responseTypes: RESPONSE_TYPES,
    responseModes: RESPONSE_MODE_LIST,
    interactionSteps: [organizationStep, federatedLoginStep, passwordlessStep, loginStep, mfaStep, passkeyEnrolmentStep, consentStep],
    protocolResponses: [samlpResponse, wsfedResponse],
    connectionLogins: [samlpLogin, oktaLogin, waadLogin, googleAppsLogin, ...socialLogins, oidcLogin],
  };
}
