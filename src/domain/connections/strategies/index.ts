/**
 * The connection strategies Gatehouse implements, one module each: the list
 * the Management API accepts (any other strategy of the service's enum is
 * refused with 400 operation_not_supported), and the lookup by name. A new
 * strategy is a module exporting a `ConnectionStrategy` and one line here
 * (its login, if any, one line in src/authentication/connections/index.ts).
 */
import { appleStrategy } from './apple.js';
import { auth0Strategy } from './auth0.js';
import { facebookStrategy } from './facebook.js';
import { githubStrategy } from './github.js';
import { googleOauth2Strategy } from './google-oauth2.js';
import { linkedinStrategy } from './linkedin.js';
import { windowsliveStrategy } from './windowslive.js';
import { googleAppsStrategy } from './google-apps.js';
import { oktaStrategy } from './okta.js';
import { waadStrategy } from './waad.js';
import { oidcStrategy } from './oidc.js';
import { oauth2Strategy } from './oauth2.js';
import { emailStrategy, smsStrategy } from './passwordless.js';
import { samlpStrategy } from './samlp.js';
import type { ConnectionStrategy } from './strategy.js';

export const CONNECTION_STRATEGIES: readonly ConnectionStrategy[] = [auth0Strategy, samlpStrategy, emailStrategy, smsStrategy, oidcStrategy, oktaStrategy, waadStrategy, googleAppsStrategy,
  googleOauth2Strategy, githubStrategy, appleStrategy, windowsliveStrategy, facebookStrategy, linkedinStrategy, oauth2Strategy];

const BY_NAME: ReadonlyMap<string, ConnectionStrategy> = new Map(CONNECTION_STRATEGIES.map((s) => [s.name, s]));

/** The strategy of that name, undefined when Gatehouse does not implement it. */
export const connectionStrategy = (name: string): ConnectionStrategy | undefined => BY_NAME.get(name);
