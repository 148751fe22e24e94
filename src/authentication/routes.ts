/**
 * The Authentication API route table (tenant root), registered from this one list.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authorizeEndpoint } from './authorize/authorize.js';
import { consentForm, consentSubmit } from './authorize/consent.js';
import { forgotPasswordForm, forgotPasswordSubmit, loginForm, loginSubmit, signupForm, signupSubmit } from './authorize/login.js';
import { refuseDuplicatedCookies } from './authorize/cookies.js';
import { AuthorizeService } from './authorize/service.js';
import { corsHook, preflightRoutes } from './cors.js';
import { changePasswordEndpoint } from './dbconnections/change-password.js';
import { DbConnectionsService } from './dbconnections/service.js';
import { signupEndpoint } from './dbconnections/signup.js';
import { oidcLogoutEndpoint, v2LogoutEndpoint } from './logout/logout.js';
import { LogoutService } from './logout/service.js';
import { resetPasswordForm, resetPasswordSubmit } from './pages/reset-password.js';
import { verifyEmailPage } from './pages/verify-email.js';
import { parameterLimitsHook } from './parameter-limits.js';
import { revokeEndpoint } from './revoke.js';
import { tokenEndpoint } from './token/endpoint.js';
import { userinfoEndpoint } from './userinfo.js';
import { jwksEndpoint } from './well-known/jwks.js';
import { openidConfigurationEndpoint } from './well-known/openid-configuration.js';
import type { AppContext } from '../domain/context.js';
import { defaultRegistries, type AuthenticationRegistries } from './registries.js';

/** The Authentication API, built from the registries (default: ./registries.ts `defaultRegistries()`). */
export function authenticationRoutes(ctx: AppContext, registries: AuthenticationRegistries = defaultRegistries()): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', refuseDuplicatedCookies);
    // Before any handler looks anything up (./parameter-limits.ts).
    app.addHook('preValidation', parameterLimitsHook);
    app.addHook('preHandler', corsHook(ctx));
    for (const route of preflightRoutes()) app.route(route);
    for (const route of [
      openidConfigurationEndpoint(registries),
      jwksEndpoint(ctx),
      tokenEndpoint(ctx, registries),
      revokeEndpoint(ctx, registries),
      userinfoEndpoint(ctx),
    ]) {
      app.route(route);
    }
    const dbconnections = new DbConnectionsService(ctx);
    for (const route of [
      signupEndpoint(dbconnections),
      changePasswordEndpoint(dbconnections),
      verifyEmailPage(dbconnections),
      resetPasswordForm(dbconnections),
      resetPasswordSubmit(dbconnections),
    ]) {
      app.route(route);
    }
    const authorize = new AuthorizeService(ctx, dbconnections);
    for (const route of [
      authorizeEndpoint(authorize),
      loginForm(authorize),
      loginSubmit(authorize),
      signupForm(authorize),
      signupSubmit(authorize),
      forgotPasswordForm(authorize),
      forgotPasswordSubmit(authorize),
      consentForm(authorize),
      consentSubmit(authorize),
    ]) {
      app.route(route);
    }
    const logout = new LogoutService(ctx);
    for (const route of [v2LogoutEndpoint(logout), oidcLogoutEndpoint(logout)]) app.route(route);
  };
}
