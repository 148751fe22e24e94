/**
 * The Authentication API route table (tenant root), registered from this one list.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authorizeEndpoint } from './authorize/endpoint.js';
import { activateRoutes } from './device/activate.js';
import { backchannelAuthorizeEndpoint } from './ciba/authorize-endpoint.js';
import { cibaApprovalRoutes } from './ciba/approve.js';
import { deviceAuthorizationEndpoint } from './device/authorization-endpoint.js';
import { refuseDuplicatedCookies } from './cookies.js';
import { Sessions } from './interaction/sessions.js';
import type { StepDeps } from './interaction/step.js';
import { Transactions } from './interaction/transactions.js';
import { corsHook, preflightRoutes } from './cors.js';
import { changePasswordEndpoint } from './dbconnections/change-password.js';
import { DbConnectionsService } from './dbconnections/service.js';
import { resetPasswordRoutes } from './dbconnections/reset-password.js';
import { signupEndpoint } from './dbconnections/signup.js';
import { verifyEmailRoute } from './dbconnections/verify-email.js';
import { oidcLogoutEndpoint, v2LogoutEndpoint } from './logout/logout.js';
import { LogoutService } from './logout/service.js';
import { associateEndpoint } from './mfa/associate.js';
import { deleteAuthenticatorEndpoint, listAuthenticatorsEndpoint } from './mfa/authenticators.js';
import { challengeEndpoint } from './mfa/challenge.js';
import { enrollmentTicketPages } from './mfa/enroll-page.js';
import { deviceEnrollEndpoint } from './mfa/device/enroll.js';
import { resolveTransactionEndpoint } from './mfa/device/resolve-transaction.js';
import { deviceTransactionEndpoint } from './mfa/device/transaction.js';
import { passwordlessStartEndpoint } from './passwordless/start.js';
import { verifyRedirectEndpoint } from './passwordless/verify-redirect.js';
import { parameterLimitsHook } from './parameter-limits.js';
import { networkAclHook } from './network-acl.js';
import { rateLimitPolicyHook } from './rate-limit-policies.js';
import { pageUiHook } from './page-ui.js';
import { parEndpoint } from './par.js';
import { readEdgeCertificate } from './sender-constraint/edge.js';
import { revokeEndpoint } from './revoke.js';
import { samlpEndpoints } from './samlp/endpoint.js';
import { samlpLogoutEndpoints } from './samlp/logout.js';
import { wsfedEndpoints } from './wsfed/endpoint.js';
import { cerEndpoint, pemEndpoint, samlpMetadataEndpoint } from './samlp/metadata.js';
import { tokenEndpoint } from './token/endpoint.js';
import { userinfoEndpoint } from './userinfo.js';
import { jwksEndpoint } from './well-known/jwks.js';
import { jobExportDownload } from './job-exports.js';
import { openidConfigurationEndpoint } from './well-known/openid-configuration.js';
import type { AppContext } from '../domain/context.js';
import { defaultRegistries, type AuthenticationRegistries } from './registries.js';
import { consoleRoutes } from './console/routes.js';
import { coAuthenticateEndpoint } from './cross-origin/authenticate.js';
import { coVerifyEndpoint } from './cross-origin/redeem.js';
import { scimRoutes } from './scim/routes.js';
import { selfServiceRoutes } from './self-service/routes.js';
import { continueRoutes } from './actions/continue.js';

/** The Authentication API, built from the registries (default: ./registries.ts `defaultRegistries()`). */
export function authenticationRoutes(ctx: AppContext, registries: AuthenticationRegistries = defaultRegistries()): FastifyPluginAsync {
  return async (app) => {
    // What /authorize accepts and sends through is the registry's (./authorize/response-modes/index.ts).
    app.decorate('responseModes', registries.responseModes);
    // The tenant's network ACLs, before anything else looks at the request (./network-acl.ts).
    app.addHook('onRequest', networkAclHook(ctx));
    app.addHook('onRequest', refuseDuplicatedCookies);
    // The hosted pages' look and language, loaded when a page is sent (./page-ui.ts).
    app.addHook('onRequest', pageUiHook(ctx));
    // Before any handler looks anything up (./parameter-limits.ts).
    app.addHook('preValidation', parameterLimitsHook);
    // The tenant's rate limit policies, per client, once the body is read (./rate-limit-policies.ts).
    app.addHook('preValidation', rateLimitPolicyHook(ctx));
    app.addHook('preHandler', corsHook(ctx));
    // Client certificates the tenant's edge vouches for (mTLS; ./sender-constraint/edge.ts).
    app.addHook('preHandler', async (request) => readEdgeCertificate(ctx, request));
    for (const route of preflightRoutes()) app.route(route);
    for (const route of [
      openidConfigurationEndpoint(registries),
      jwksEndpoint(ctx),
      tokenEndpoint(ctx, registries),
      revokeEndpoint(ctx, registries),
      parEndpoint(ctx, registries),
      userinfoEndpoint(ctx),
      associateEndpoint(ctx),
      challengeEndpoint(ctx, registries),
      listAuthenticatorsEndpoint(ctx),
      deleteAuthenticatorEndpoint(ctx),
      deviceEnrollEndpoint(ctx),
      deviceTransactionEndpoint(ctx),
      resolveTransactionEndpoint(ctx),
      passwordlessStartEndpoint(ctx, registries),
      coAuthenticateEndpoint(ctx),
      deviceAuthorizationEndpoint(ctx, registries),
      backchannelAuthorizeEndpoint(ctx, registries),
      ...cibaApprovalRoutes(ctx),
      jobExportDownload(ctx),
    ]) {
      app.route(route);
    }
    const dbconnections = new DbConnectionsService(ctx);
    for (const route of [
      signupEndpoint(dbconnections),
      changePasswordEndpoint(dbconnections),
      verifyEmailRoute(dbconnections),
      ...resetPasswordRoutes(dbconnections),
    ]) {
      app.route(route);
    }
    const interaction: StepDeps = {
      ctx,
      sessions: new Sessions(ctx),
      transactions: new Transactions(ctx),
      dbconnections,
      steps: registries.interactionSteps,
      protocols: registries.protocolResponses,
      connectionLogins: registries.connectionLogins,
    };
    app.route(authorizeEndpoint(interaction, registries));
    app.route(coVerifyEndpoint(interaction));
    for (const route of [...samlpEndpoints(interaction), ...samlpLogoutEndpoints(interaction), samlpMetadataEndpoint(interaction), pemEndpoint(interaction), cerEndpoint(interaction), ...wsfedEndpoints(interaction)]) {
      app.route(route);
    }
    app.route(verifyRedirectEndpoint(interaction, registries));
    for (const step of registries.interactionSteps) for (const route of step.routes(interaction)) app.route(route);
    for (const login of registries.connectionLogins) for (const route of login.routes(interaction)) app.route(route);
    for (const route of enrollmentTicketPages(ctx)) app.route(route);
    for (const route of activateRoutes(interaction)) app.route(route);
    // Where a post-login action's redirect comes back (./actions/continue.ts).
    for (const route of continueRoutes(interaction)) app.route(route);
    // The admin console (./console/routes.ts).
    for (const route of consoleRoutes(ctx, interaction.sessions)) app.route(route);
    const logout = new LogoutService(ctx);
    for (const route of [v2LogoutEndpoint(logout), oidcLogoutEndpoint(logout)]) app.route(route);
    // The page a self-service SSO ticket opens (./self-service/).
    for (const route of selfServiceRoutes(ctx)) app.route(route);
    // SCIM 2.0 provisioning per enterprise connection (./scim/).
    await app.register(scimRoutes(ctx));
  };
}
